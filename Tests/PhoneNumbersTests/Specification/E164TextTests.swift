import PhoneNumbers
import Testing

/// `PhoneNumber.e164`, the inline E.164 text: the same text as `formatE164` for every shape of
/// number, and the value semantics of a String of it. (The parse fixture checks it on every row.)
@Suite struct E164TextTests {
    let engine = PhoneNumberEngine()

    /// Every calling code 1...999 with national significant numbers of 1 to 17 digits, leading
    /// zeros or not: the short path (16 digits or fewer, from the prefix table) and the long one.
    @Test func everyCodeAndLengthGivesFormatE164sText() {
        var failures: [String] = []
        for code in 1...999 {
            for length in 1...17 {
                // 1...17 digits: "9876543210987654321" cut to length, and the same after a zero.
                let value = UInt64(String("98765432109876543".prefix(length)))!
                let plain = PhoneNumber(countryCode: code, nationalNumber: value)
                let zeros = length < 17 ? [PhoneNumber(countryCode: code, nationalNumber: value / 10, leadingZeros: 1)] : []
                for number in [plain] + zeros {
                    // Written out here, not by the engine: formatE164 makes its text the same way.
                    let want = "+\(code)" + String(repeating: "0", count: number.leadingZeros) + "\(number.nationalNumber)"
                    #expect(engine.formatE164(number) == want)
                    guard let text = number.e164 else {
                        failures.append("\(want): nil")
                        continue
                    }
                    let bytes = text.withUTF8 { Array($0) }
                    if text.description != want || text.count != want.utf8.count || bytes != Array(want.utf8) {
                        failures.append("\(want): \(text) count \(text.count)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
    }

    /// Fields no E.164 text has give nil, not a trap or a wrong text.
    @Test func impossibleFieldsHaveNoText() {
        let none = [
            PhoneNumber(countryCode: 0, nationalNumber: 1),
            PhoneNumber(countryCode: -5, nationalNumber: 1),
            PhoneNumber(countryCode: 1000, nationalNumber: 6502530000),
            PhoneNumber(countryCode: Int.max, nationalNumber: UInt64.max, leadingZeros: -3),
            PhoneNumber(countryCode: Int.min, nationalNumber: UInt64.max, leadingZeros: Int.max),
            PhoneNumber(countryCode: 39, nationalNumber: 123_456_789_012_345_678),  // 18 digits
            PhoneNumber(countryCode: 39, nationalNumber: 12_345_678_901_234_567, leadingZeros: 1),  // 18
            PhoneNumber(countryCode: 39, nationalNumber: 5, leadingZeros: 40),
            PhoneNumber(countryCode: 39, nationalNumber: 5, leadingZeros: -1),
        ]
        for number in none {
            #expect(number.e164 == nil, "\(number)")
        }
        // The longest there is: three digits of code, seventeen of national number.
        let longest = PhoneNumber(countryCode: 998, nationalNumber: 1_234_567_890_123_456, leadingZeros: 1)
        #expect(longest.e164?.description == "+99801234567890123456")
        #expect(longest.e164?.count == E164Text.maxCount)
    }

    /// `writeE164(into:)` writes formatE164's bytes into a buffer of any size that holds them
    /// (in place from 64 bytes, through a copy below), and nothing into a smaller one, for every
    /// length, leading zeros, and fields no parse gives.
    @Test func writeIntoABufferGivesFormatE164sBytes() {
        var numbers: [PhoneNumber] = [
            PhoneNumber(countryCode: 0, nationalNumber: 1),
            PhoneNumber(countryCode: 1000, nationalNumber: 6502530000),
            PhoneNumber(countryCode: Int.min, nationalNumber: UInt64.max, leadingZeros: Int.max),
            PhoneNumber(countryCode: 39, nationalNumber: 123_456_789_012_345_678),
        ]
        for code in [1, 39, 44, 225, 800, 998] {
            for length in 1...17 {
                let value = UInt64(String("98765432109876543".prefix(length)))!
                numbers.append(PhoneNumber(countryCode: code, nationalNumber: value))
                numbers.append(PhoneNumber(countryCode: code, nationalNumber: value / 10, leadingZeros: 2))
            }
        }
        for number in numbers {
            let want = Array(engine.formatE164(number).utf8)
            for size in [want.count - 1, want.count, want.count + 3, 64, 80] {
                var buffer = [UInt8](repeating: 0xEE, count: size)
                let count = buffer.withUnsafeMutableBytes { number.writeE164(into: $0) }
                #expect(count == want.count, "\(number)")
                if size < want.count {
                    #expect(buffer.allSatisfy { $0 == 0xEE }, "\(number): written into \(size) bytes")
                } else {
                    #expect(Array(buffer[..<count]) == want, "\(number) into \(size) bytes")
                }
            }
        }
    }

    /// Equality, hashing and order are those of the Strings.
    @Test func valueSemanticsAreTheStrings() throws {
        // Calling code and national significant number: E.164 forms that sort differently as
        // numbers and as text, of every length from 3 to 21 bytes.
        let fields: [(Int, String)] = [
            (1, "6502530000"), (1, "650253000"), (1, "6502530001"), (44, "2079460123"), (878, "1084321296"),
            (878, "108432129611"), (882, "34567890123456"), (39, "0612345678"), (39, "06123456789"),
            (998, "01234567890123456"), (1, "2"), (7, "9123456789"), (7, "9"), (44, "20"),
        ]
        let numbers = fields.map { code, nsn in
            PhoneNumber(countryCode: code, nationalNumber: UInt64(nsn)!, leadingZeros: nsn.prefix { $0 == "0" }.count)
        }
        let pairs = numbers.map { number in (number.e164!, engine.formatE164(number)) }
        #expect(pairs.map(\.1).contains("+99801234567890123456") && pairs.map(\.1).contains("+12"))
        for (a, sa) in pairs {
            for (b, sb) in pairs {
                #expect((a == b) == (sa == sb), "\(sa) == \(sb)")
                #expect((a < b) == (sa < sb), "\(sa) < \(sb)")
                if a == b { #expect(a.hashValue == b.hashValue) }
            }
        }
        #expect(Set(pairs.map(\.0)).count == Set(pairs.map(\.1)).count)
    }

    /// A parsed number's text, and the one of the same fields built by hand, agree.
    @Test func parsedAndBuiltNumbersAgree() throws {
        for text in ["+16502530000", "+390612345678", "+878108432129611", "+882345678901234"] {
            let parsed = try engine.parse(e164: text)
            let built = PhoneNumber(countryCode: parsed.countryCode, nationalNumber: parsed.nationalNumber,
                                    leadingZeros: parsed.leadingZeros, extension: "99")
            #expect(parsed.e164?.description == text)
            #expect(parsed.e164 == built.e164)
        }
    }
}
