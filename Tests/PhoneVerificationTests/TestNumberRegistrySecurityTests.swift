import Foundation
import PhoneNumbers
import PhoneVerification
import SMSKitTestSupport
import Testing

/// The test-number registry never accepts a number that may be real.
///
/// Checked over generated valid numbers of every region, in every input form, through `add` and
/// through JSON, against rules written out here rather than taken from the range table: outside
/// the regions with regulator or convention ranges nothing is accepted; a NANP number is accepted
/// only in NANPA's reserved 555-0100 to 0199 (the default registry takes no 555 convention
/// number); a UK number only in Ofcom's drama ranges.
@Suite struct TestNumberRegistrySecurityTests {
    let engine = PhoneNumberEngine()

    /// Country codes with fictional ranges (README: NANP, UK, Australia, Germany, Sweden, France).
    static let countriesWithRanges: Set<Int> = [1, 44, 61, 49, 46, 33]

    /// Ofcom's drama ranges as national significant number prefixes (each followed by three
    /// digits, ten digits in all): 0113-0118, 0121, 0131, 0141, 0151, 0161 496 0xxx;
    /// 020 7946 0xxx; 0191 498 0xxx; 029 2018 0xxx; 01632 960xxx; 07700 900xxx; 08081 570xxx;
    /// 0909 879 0xxx; 03069 990xxx.
    static let ofcomPrefixes: [String] = ["113", "114", "115", "116", "117", "118", "121", "131", "141", "151", "161"]
        .map { $0 + "4960" } + ["2079460", "1914980", "2920180", "1632960", "7700900", "8081570", "9098790", "3069990"]

    /// Whether `add` accepted the number, or the code of its refusal.
    func outcome(_ text: String, region: RegionCode?) -> Result<Void, TestNumberRegistryError> {
        do {
            var registry = try TestNumberRegistry()
            try registry.add(text, code: "123456", defaultRegion: region)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    @Test("no generated number outside the fictional ranges is accepted, in any form")
    func realNumbersAreRefused() throws {
        let numbers = try GeneratedNumbers.generate(engine: engine, seed: 0x5EC_0001, perExample: 4)
        #expect(numbers.count > 2_000)
        var refused = 0
        var failures: [String] = []
        for item in numbers {
            var number = item.number
            number.extension = nil
            let fictional = engine.fictionalRange(of: number)
            if fictional != nil && !Self.countriesWithRanges.contains(number.countryCode) {
                failures.append("\(engine.formatE164(number)) is called fictional outside the regions with ranges")
            }
            var forms: [(String, RegionCode?)] = [
                (engine.formatE164(number), nil), (engine.format(number, as: .international), nil),
                (engine.format(number, as: .rfc3966), nil),
            ]
            if let region = item.region, region != .nonGeographic { forms.append((engine.format(number, as: .national), region)) }
            for (text, region) in forms {
                switch outcome(text, region: region) {
                case .success:
                    if fictional == nil { failures.append("accepted the real number '\(text)'") }
                case .failure(let error):
                    if fictional == nil {
                        refused += 1
                        if error.code != .notFictional { failures.append("'\(text)' refused as \(error.code), not notFictional") }
                    }
                }
            }
            if failures.count > 20 { break }
        }
        #expect(refused > 5_000)
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
    }

    @Test("NANP: only 555-0100 to 0199 by default, never the rest of the 555 exchange")
    func nanpRule() throws {
        var random = SplitMix64(seed: 0x555)
        var accepted = 0
        var checked = 0
        var failures: [String] = []
        while checked < 20_000 {
            // Area code and exchange 2-9xx; the exchange is 555 a quarter of the time.
            let area = 200 + Int(random.next(below: 800))
            let exchange = random.next(below: 4) == 0 ? 555 : 200 + Int(random.next(below: 800))
            let line = random.next(below: 3) == 0 ? 100 + Int(random.next(below: 100)) : Int(random.next(below: 10_000))
            let lineText = String(repeating: "0", count: 4 - String(line).count) + String(line)
            let text = "+1\(area)\(exchange)\(lineText)"
            guard let number = try? engine.parse(e164: text), engine.isValid(number) else { continue }
            checked += 1
            let isAccepted = (try? outcome(text, region: nil).get()) != nil
            if isAccepted {
                accepted += 1
                if exchange != 555 || !(100...199).contains(line) { failures.append("accepted \(text)") }
            } else if exchange == 555 && (100...199).contains(line) && !(800...899).contains(area) {
                failures.append("refused the reserved fictional number \(text)")
            }
            if failures.count > 20 { break }
        }
        #expect(accepted > 800)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("UK: only Ofcom's drama ranges, and every number in them")
    func ukRule() throws {
        var random = SplitMix64(seed: 0x44)
        var failures: [String] = []
        var acceptedOutside = 0
        for prefix in Self.ofcomPrefixes {
            for _ in 0..<50 {
                let suffix = String(1_000 + random.next(below: 1_000)).dropFirst()
                let inside = "+44" + prefix + suffix
                if (try? outcome(inside, region: nil).get()) == nil { failures.append("refused Ofcom's \(inside)") }
                // One digit changed anywhere in the prefix: outside the range unless it lands on another.
                var digits = Array(prefix.utf8)
                let position = Int(random.next(below: UInt64(digits.count)))
                digits[position] = UInt8(ascii: "0") + UInt8((Int(digits[position] - UInt8(ascii: "0")) + 1 + Int(random.next(below: 9))) % 10)
                let changed = String(decoding: digits, as: UTF8.self)
                guard !Self.ofcomPrefixes.contains(changed) else { continue }
                let outside = "+44" + changed + suffix
                if (try? outcome(outside, region: nil).get()) != nil {
                    acceptedOutside += 1
                    failures.append("accepted \(outside), outside Ofcom's ranges")
                }
            }
        }
        #expect(acceptedOutside == 0)
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
    }

    @Test("a real number in a registry file is refused, whatever its position and form")
    func jsonCannotSmuggleARealNumber() throws {
        let real = ["+16502530000", "+1 (202) 456-1111", "tel:+44-20-7946-1000", "+4930901820", "+33 1 42 68 53 00", "+61 2 9876 5432"]
        for text in real {
            for position in 0...2 {
                var entries = [#"{"number":"+16505550134","code":"654321"}"#, #"{"number":"07700 900123","region":"GB","code":"000111"}"#]
                entries.insert(#"{"number":"\#(text)","code":"111111"}"#, at: position)
                let json = #"{"capacity":1000,"entries":[\#(entries.joined(separator: ","))]}"#
                #expect { try TestNumberRegistry(json: Data(json.utf8)) } throws: { error in
                    let error = error as? TestNumberRegistryError
                    return error?.code == .notFictional && error?.message.hasPrefix("entries[\(position)]") == true
                }
            }
        }
    }

    @Test("a registry file of absurd size is refused without reading it")
    func hugeRegistryFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-registry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test-numbers.json").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(1) << 36) == 0)  // sparse, 64 GiB
        let started = Date()
        #expect { try TestNumberRegistry(contentsOfFile: path) } throws: { ($0 as? TestNumberRegistryError)?.code == .unreadableFile }
        #expect { try TestNumberRegistry(contentsOfFile: "/dev/zero") } throws: { ($0 as? TestNumberRegistryError)?.code == .unreadableFile }
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
