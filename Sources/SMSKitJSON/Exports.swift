// JSON values, their string escaping and the reader live in SMSKitJSONCore, below SMSTemplates (whose
// ARB exchange writes and reads JSON); every user of the wire layer keeps importing SMSKitJSON alone.
@_exported import SMSKitJSONCore
