// Kannel on loopback (KannelStack) and what fakesmsc received, shared with the service's end-to-end tests.
@_exported import SMSCTestSupport
