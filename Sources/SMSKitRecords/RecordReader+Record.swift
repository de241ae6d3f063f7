extension RecordReader {
    /// One record handed out by ``RecordReader/next()``.
    ///
    /// The bytes point into the reader's buffer: they are valid until the next call of
    /// ``RecordReader/next()`` and must be copied to be kept.
    public struct Record {
        /// The record's first line (1-based, counting physical lines: a CSV record with quoted
        /// newlines covers several).
        public var line: Int
        /// The record's bytes without its line terminator (LF, or CR LF). Empty when the record
        /// was too long and skipped.
        public var bytes: UnsafeRawBufferPointer
        /// True when the record (without its terminator) is longer than
        /// ``RecordReader/maximumRecordBytes``; report it as an error and ignore ``bytes``.
        public var isTooLong: Bool

        /// Creates a record.
        public init(line: Int, bytes: UnsafeRawBufferPointer, isTooLong: Bool) {
            self.line = line
            self.bytes = bytes
            self.isTooLong = isTooLong
        }
    }
}
