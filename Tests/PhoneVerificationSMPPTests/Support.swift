// The smpp34 SMSC (SMSCProcess) and the Python that runs it, shared with the service's end-to-end tests.
@_exported import SMSCTestSupport
