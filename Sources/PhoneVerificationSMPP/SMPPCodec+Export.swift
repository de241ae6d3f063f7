// The codec's types (SMPPPDU, SMPPError, SMPPIncomingPart...) are part of this module's API: a
// user of the client reads them from events and errors without importing the codec by name.
@_exported import SMPPCodec
