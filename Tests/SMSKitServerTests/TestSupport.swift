// The server fixtures every test here uses (makeServer, VerificationFixture, ...) live in
// SMSKitServerTestSupport, shared with the end-to-end tests of the service.
@_exported import SMSKitServerTestSupport
