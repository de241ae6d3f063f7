import SMSEncoding
import Testing

/// The examples in the doc comments, the DocC articles and the README section, checked.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    @Test func encoderOverview() {
        let encoder = SMSEncoder()
        #expect(encoder.segmentCount(String(repeating: "a", count: 161)) == 2)
        let turkish = SMSEncoder(options: .init(nationalLanguageTables: .only([.turkish])))
        let analysis = turkish.analyze("Doğrulama kodunuz: 123456")
        #expect(analysis.encoding == .gsm7)
        #expect(analysis.nationalLanguage == SMSNationalLanguageTables(lockingShift: .turkish))
        #expect(analysis.segmentCount == 1)
        #expect(SMSEncoder().analyze("Doğrulama kodunuz: 123456").encoding == .ucs2)
    }

    @Test func analysisOverview() {
        let analysis = SMSEncoder().analyze("Your code is 123456 — valid for 5 min")
        #expect(analysis.encoding == .ucs2)
        #expect(analysis.unencodableCharacters[0].character == "—")
        #expect(analysis.suggestions.contains { $0.fix == .replaceCharacter("—", with: "-") && $0.segmentsSaved == 0 && $0.encoding == .gsm7 })
    }

    @Test func analyzeExample() {
        let encoder = SMSEncoder(options: .init(smartEncoding: true))
        let analysis = encoder.analyze("“Hello” — it’s 10:00…", concatenationReference: 0x2A)
        #expect(analysis.encoding == .gsm7)
        #expect(analysis.text == "\"Hello\" - it's 10:00...")
        #expect(analysis.changes.count == 5)
        #expect(analysis.parts[0].userDataHeader == [])
    }

    @Test func measureExample() {
        let encoder = SMSEncoder()
        let measurement = encoder.measure("Votre code : 123456 – valable 5 min")
        #expect(measurement.encoding == .ucs2)
        #expect(measurement.length == 35)
        #expect(measurement.unencodableCharacters == ["–"])
        let smart = SMSEncoder(options: .init(smartEncoding: true))
        #expect(smart.measure("Votre code : 123456 – valable 5 min").encoding == .gsm7)
    }

    @Test func measurementOverview() {
        let measurement = SMSEncoder().measure("Your code is 123456 — valid for 5 min")
        #expect(measurement.encoding == .ucs2)
        #expect(measurement.segmentCount == 1)
        #expect(measurement.unencodableCharacters == ["—"])
    }

    @Test func segmentCountExample() {
        let encoder = SMSEncoder()
        #expect(encoder.segmentCount(String(repeating: "a", count: 160)) == 1)
        #expect(encoder.segmentCount(String(repeating: "]", count: 153)) == 3)
        #expect(encoder.segmentCount(String(repeating: "中", count: 71)) == 2)
    }

    @Test func septetExample() throws {
        let septets = try GSM7.encode("Hi €")
        #expect(septets == [0x48, 0x69, 0x20, 0x1B, 0x65])
        let octets = try GSM7.pack(septets)
        #expect(octets.count == 5)
        let back = try GSM7.unpack(octets, septetCount: septets.count)
        #expect(try GSM7.decode(back) == "Hi €")
        do {
            _ = try GSM7.pack([0x80])
        } catch {
            #expect(error.message == "septet 0x80 at index 0 is not 7-bit")
        }
    }

    @Test func readmeExample() {
        let text = "आपका सत्यापन कोड 654321 है। इसे किसी के साथ साझा न करें।"
        let plain = SMSEncoder().analyze(text)
        #expect(plain.encoding == .ucs2)
        #expect(plain.length == 56)
        #expect(plain.segmentCount == 1)
        let hindi = SMSEncoder(options: .init(nationalLanguageTables: .only([.hindi]))).analyze(text)
        #expect(hindi.encoding == .gsm7)
        #expect(hindi.nationalLanguage == SMSNationalLanguageTables(lockingShift: .hindi, singleShift: .hindi))
        #expect(hindi.length == 58)
        #expect(hindi.parts[0].userDataHeader == [0x06, 0x24, 0x01, 0x06, 0x25, 0x01, 0x06])
        #expect(hindi.remainingInLastSegment == 94)
        let long = String(repeating: text + " ", count: 3)
        #expect(SMSEncoder().segmentCount(long) == 3)
        #expect(SMSEncoder(options: .init(nationalLanguageTables: .only([.hindi]))).segmentCount(long) == 2)
        let measured = SMSEncoder().measure("Code 123 ✓")
        #expect(measured.unencodableCharacters == ["✓"])
        #expect(measured.encoding == .ucs2)
    }
}
