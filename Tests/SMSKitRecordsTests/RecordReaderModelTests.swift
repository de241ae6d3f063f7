import SMSKitRecords
import Testing

/// The reader against the whole-input model on seeded random inputs over the bytes that matter
/// (a letter, a quote, LF, CR), with small limits and block sizes, so that every rule (record
/// limit, quoted-line limit, end of input, CRLF, byte order mark) meets block boundaries.
@Suite struct RecordReaderModelTests {
    @Test(arguments: InputFormat.allCases)
    func randomInputsAgreeWithTheModel(_ format: InputFormat) throws {
        var generator = Generator(state: 28)
        let alphabet = Array("a\"\n\r".utf8)
        for round in 0..<400 {
            var data = (0..<generator.next(60)).map { _ in alphabet[generator.next(alphabet.count)] }
            if round % 7 == 0 { data = [0xEF, 0xBB, 0xBF] + data }
            let maximum = 1 + generator.next(12)
            let quotedLines = generator.next(4)
            let expected = model(data, format: format, maximum: maximum, quotedLines: quotedLines)
            for capacity in [0, 1 << 16] {
                let records = try readRecords(data, format: format, maximumRecordBytes: maximum, capacity: capacity,
                                              maximumQuotedLines: quotedLines)
                #expect(records == expected, "\(data) maximum \(maximum) quoted lines \(quotedLines) capacity \(capacity)")
                if records != expected { return }
            }
        }
    }
}
