// The keys, secrets and in-process server fixtures the server's own tests use (WireGoldenTests
// compares the service in process with the CLI binary).
@_exported import SMSKitServerTestSupport
