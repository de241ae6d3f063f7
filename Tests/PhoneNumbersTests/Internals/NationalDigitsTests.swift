import Foundation
@testable import PhoneNumbers
import SMSKitTestSupport
import Testing

/// The national significant number's digits that a `PhoneNumber` carries (four bits a digit),
/// against the plain text of its fields, however the number was made: parsed, built by hand,
/// changed field by field, decoded.
@Suite struct NationalDigitsTests {
    /// The text a number's fields stand for: the leading zeros, then the value.
    static func text(_ value: UInt64, zeros: Int) -> String {
        String(repeating: "0", count: zeros) + String(value)
    }

    /// The digits' view of the cache: nil when it says "not 1 to 16 digits".
    static func digits(_ digits: _NationalDigits) -> String? {
        let count = digits.count
        guard count > 0 else { return nil }
        var block = digits.block
        return withUnsafeBytes(of: &block) { String(decoding: $0[(16 - count)...], as: UTF8.self) }
    }

    @Test func fromFieldsAndFromDigitsAgree() {
        var random = SplitMix64(seed: 0x4E5D)
        var cases: [(UInt64, Int)] = [(0, 0), (0, 1), (0, 15), (0, 16), (9, 15), (10, 15), (1, 16),
                                       (9_999_999_999_999_999, 0), (10_000_000_000_000_000, 0), (UInt64.max, 0),
                                       (123, -1), (123, 17), (5, Int.max), (5, Int.min)]
        for _ in 0..<100_000 {
            let digits = 1 + random.below(17)
            var value: UInt64 = 0
            for _ in 0..<digits { value = value &* 10 &+ UInt64(random.below(10)) }
            cases.append((value, random.below(5) == 0 ? random.below(4) : 0))
        }
        for (value, zeros) in cases {
            let fromFields = _NationalDigits(value, leadingZeros: zeros)
            guard zeros >= 0, zeros <= 32 else {
                #expect(fromFields == .none)
                continue
            }
            let text = Self.text(value, zeros: zeros)
            let representable = zeros <= 16 && text.count <= 16
            #expect(Self.digits(fromFields) == (representable ? text : nil), "\(value) \(zeros)")
            if representable {
                let fromText = Array(text.utf8).withUnsafeBufferPointer { _NationalDigits($0) }
                #expect(fromText == fromFields, "\(text)")
            }
            // The number built from the fields shows them, through the digits or the long path,
            // and gives them back: read off the digits, or kept as they were.
            let number = PhoneNumber(countryCode: 39, nationalNumber: value, leadingZeros: zeros)
            #expect(number.nationalSignificantNumber == text)
            #expect(number.nationalNumber == value && number.leadingZeros == zeros, "\(value) \(zeros)")
            if representable {
                #expect(fromFields.value == value && fromFields.leadingZeros == zeros, "\(value) \(zeros)")
            }
        }
    }

    /// Parsing writes the digits from the input; they equal those of the same fields set by hand,
    /// and both give the same answers and formats.
    @Test func parsedNumbersCarryTheirFieldsDigits() throws {
        let engine = PhoneNumberEngine()
        for text in ["+16502530000", "+390612345678", "+3900000001", "+4420", "+861234567890123456", "+80012345678",
                     "+447911123456", "+6001234567890123"] {
            guard let number = try? engine.parse(e164: text) else { continue }
            let rebuilt = PhoneNumber(countryCode: number.countryCode, nationalNumber: number.nationalNumber,
                                      leadingZeros: number.leadingZeros)
            #expect(number._digits == rebuilt._digits, "\(text)")
            #expect(engine.formatE164(number) == engine.formatE164(rebuilt))
            #expect(engine.classify(number) == engine.classify(rebuilt))
        }
    }

    /// Parsed numbers keep only their digits; their national number and leading zeros, read off
    /// them, are what libphonenumber's model says for the text (every leading zero but a last
    /// digit), and equality, hashing and coding see the fields.
    @Test func fieldsReadOffParsedDigits() throws {
        let engine = PhoneNumberEngine()
        let cases: [(String, UInt64, Int)] = [
            ("+16502530000", 6_502_530_000, 0), ("+390612345678", 612_345_678, 1), ("+3900000001", 1, 7),
            ("+390000000", 0, 6), ("+80012345678", 12_345_678, 0), ("+6001234567890123", 1_234_567_890_123, 0),
            ("+882399990000000000", 399_990_000_000_000, 0), ("+4420", 20, 0),
        ]
        for (text, value, zeros) in cases {
            guard let number = try? engine.parse(e164: text) else {
                Issue.record("\(text) did not parse")
                continue
            }
            #expect(number.nationalNumber == value && number.leadingZeros == zeros, "\(text)")
            let rebuilt = PhoneNumber(countryCode: number.countryCode, nationalNumber: value, leadingZeros: zeros)
            #expect(number == rebuilt && number.hashValue == rebuilt.hashValue, "\(text)")
            let decoded = try JSONDecoder().decode(PhoneNumber.self, from: JSONEncoder().encode(number))
            #expect(decoded == number && decoded.nationalNumber == value && decoded.leadingZeros == zeros, "\(text)")
            var other = number
            other.leadingZeros = zeros + 1
            #expect(other != number && other.nationalNumber == value, "\(text)")
        }
        // A 17-digit national number is kept as its fields; equal to itself rebuilt, unequal to a
        // 16-digit one.
        let long = PhoneNumber(countryCode: 86, nationalNumber: 12_345_678_901_234_567)
        #expect(long._digits == .none && long == PhoneNumber(countryCode: 86, nationalNumber: 12_345_678_901_234_567))
        #expect(long != PhoneNumber(countryCode: 86, nationalNumber: 1_234_567_890_123_456))
    }

    /// Changing a field changes the digits with it.
    @Test func settingAFieldUpdatesTheDigits() throws {
        let engine = PhoneNumberEngine()
        var number = try engine.parse(e164: "+390612345678")
        number.nationalNumber = 212345678
        #expect(engine.formatE164(number) == "+390212345678")
        number.leadingZeros = 0
        #expect(engine.formatE164(number) == "+39212345678")
        number.nationalNumber = 12_345_678_901_234_567  // 17 digits: the long path
        #expect(engine.formatE164(number) == "+3912345678901234567")
        number.nationalNumber = 6502530000
        number.countryCode = 1
        #expect(engine.formatE164(number) == "+16502530000")
        #expect(engine.classify(number).type == .fixedLineOrMobile)
        #expect(number == (try engine.parse(e164: "+16502530000")))
    }

    /// Equality, hashing and coding see the four public fields only, and decoding restores the digits.
    @Test func equalityHashingAndCoding() throws {
        let engine = PhoneNumberEngine()
        let parsed = try engine.parse("0612345678 ext. 12", defaultRegion: "IT")
        let built = PhoneNumber(countryCode: 39, nationalNumber: 612345678, leadingZeros: 1, extension: "12")
        #expect(parsed == built)
        #expect(parsed.hashValue == built.hashValue)
        let data = try JSONEncoder().encode(parsed)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"nationalNumber\":612345678") && !json.contains("digits"))
        let decoded = try JSONDecoder().decode(PhoneNumber.self, from: data)
        #expect(decoded == parsed)
        #expect(decoded._digits == parsed._digits)
        #expect(engine.formatE164(decoded) == "+390612345678")
        let odd = try JSONDecoder().decode(PhoneNumber.self, from: Data(#"{"countryCode":39,"nationalNumber":5,"leadingZeros":-3}"#.utf8))
        #expect(odd.leadingZeros == -3 && odd.extension == nil)
    }
}
