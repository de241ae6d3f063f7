// The keys, secrets and in-process server fixtures the server's own tests use (WireGoldenTests
// compares the service in process with the CLI binary), and the SMSCs (Kannel, smpp34) the
// sender tests start.
@_exported import SMSKitServerTestSupport
@_exported import SMSCTestSupport
