import PhoneNumbers
import Testing

/// The examples of the PhoneNumbers DocC catalog (PhoneNumbers.md, GettingStarted.md), of
/// `E164Text`'s doc comment and of the README's code section, checked.
@Suite("PhoneNumbers documentation examples")
struct PhoneNumbersDocumentationExampleTests {
    let engine = PhoneNumberEngine()

    @Test func overview() throws {
        let number = try engine.parse("(650) 253-0000", defaultRegion: "US")
        #expect(engine.format(number, as: .international) == "+1 650-253-0000")
        #expect(engine.classify(number) == ("US", .fixedLineOrMobile))
        #expect(number.e164?.description == "+16502530000")
        #expect(engine.format(number, as: .e164) == "+16502530000")
        #expect(engine.format(number, as: .national) == "(650) 253-0000")
        #expect(engine.format(number, as: .rfc3966) == "tel:+1-650-253-0000")
    }

    /// The README's numbers in text, matching and dialling formats.
    @Test func textMatchingAndDialling() throws {
        let found = engine.findNumbers(in: "Call 020 7946 0123 or +1 650 253 0000", defaultRegion: "GB")
        #expect(found.map(\.rawString) == ["020 7946 0123", "+1 650 253 0000"])
        #expect(found.map { engine.format($0.number, as: .e164) } == ["+442079460123", "+16502530000"])
        #expect(found.first?.range == 5..<18)
        #expect(engine.match("+1 650 253 0000", "(650) 253-0000") == .nsnMatch)
        let number = try engine.parse("(650) 253-0000", defaultRegion: "US")
        #expect(number.dedupeKey == "+16502530000")
        #expect(engine.formatOutOfCountry(number, callingFrom: "DE") == "00 1 650-253-0000")
        let mobile = try #require(engine.exampleNumber(for: "FR", type: .mobile))
        #expect(engine.isValid(mobile) && engine.type(of: mobile) == .mobile)
    }

    @Test func parse() throws {
        let london = try engine.parse("020 7946 0000", defaultRegion: "GB")
        #expect(london.countryCode == 44 && london.nationalNumber == 2079460000)
        let fromFrance = try engine.parse("00 49 30 1234567", defaultRegion: "FR")
        #expect(engine.formatE164(fromFrance) == "+49301234567")
        let hindi = try engine.parse("९००-१२११३६५", defaultRegion: "IN")
        #expect(engine.formatE164(hindi) == "+919001211365")
        #expect(engine.formatE164(try engine.parse(e164: "+442079460123")) == "+442079460123")
        #expect(throws: PhoneNumberError.self) { try engine.parse("12", defaultRegion: nil) }
        do {
            _ = try engine.parse("12", defaultRegion: nil)
        } catch {
            #expect(error.code == .invalidCountryCode)
        }
    }

    @Test func checkAndFormat() throws {
        let number = try engine.parse(e164: "+447400123456")
        #expect(engine.possibility(of: number) == .isPossible)
        #expect(engine.isValid(number))
        #expect(engine.classify(number) == ("GB", .mobile))
        #expect(engine.format(number, as: .national) == "07400 123456")
        #expect(engine.format(number, as: .rfc3966) == "tel:+44-7400-123456")
        #expect(number.e164?.description == "+447400123456")
    }

    @Test func e164TextExample() throws {
        let number = try engine.parse(e164: "+878108432129611")
        #expect(engine.isValid(number) && engine.type(of: number) == .voip)
        let e164 = try #require(number.e164)
        #expect(e164.count == 16)
        var output: [UInt8] = []
        e164.withUTF8 { output.append(contentsOf: $0) }
        #expect(output == Array("+878108432129611".utf8) && "\(e164)" == "+878108432129611")
    }

    @Test func checkMany() {
        let results = engine.checkBatch([
            PhoneNumberInput("+1 650-555-3434"),
            PhoneNumberInput("07700 900123", defaultRegion: "GB"),
            PhoneNumberInput("not a number", defaultRegion: "GB"),
        ])
        #expect(results.count == 3)
        #expect(results[0].fictional?.kind == .nanp555Convention)
        #expect(results[1].fictional?.kind == .reservedForFiction)
        #expect(results[2].error?.code == .notANumber)
    }
}
