import Foundation
import PhoneNumbers

/// Valid numbers generated from every example number of every region and type
/// (Tests/PhoneNumbersTests/Fixtures/examples.tsv): the leading digits of an example are kept
/// and the rest drawn at random with a fixed seed, and only the candidates the engine calls valid
/// are kept. Shared by the property tests of PhoneNumbers and the security tests of the
/// test-number registry (PhoneVerification).
public enum GeneratedNumbers {
    /// One generated valid number and the region it belongs to.
    public struct Number: Sendable {
        public var number: PhoneNumber
        public var region: RegionCode?
    }

    /// Generated valid numbers, at most `perExample` per example number.
    public static func generate(engine: PhoneNumberEngine, seed: UInt64, perExample: Int) throws -> [Number] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PhoneNumbersTests/Fixtures/examples.tsv")
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false)
        guard let e164Column = header.firstIndex(of: "e164") else { throw MissingColumn() }
        let rows = lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        var random = SplitMix64(seed: seed)
        var generated: [Number] = []
        for row in rows {
            let example = try engine.parse(e164: String(row[e164Column]))
            let digits = Array(example.nationalSignificantNumber.utf8)
            for _ in 0..<perExample {
                var candidate = digits
                let kept = Int(random.next(below: UInt64(digits.count)))
                for index in kept..<candidate.count {
                    candidate[index] = UInt8(ascii: "0") + UInt8(random.next(below: 10))
                }
                guard candidate != digits || random.next(below: 8) == 0 else { continue }
                let text = "+\(example.countryCode)" + String(decoding: candidate, as: UTF8.self)
                // A candidate that starts with the national prefix (+359 0...) is read without it,
                // as libphonenumber does after +CC: that is another number, so it is skipped.
                guard var number = try? engine.parse(e164: text), engine.isValid(number),
                      number.nationalSignificantNumber == String(decoding: candidate, as: UTF8.self) else { continue }
                if random.next(below: 4) == 0 {
                    let length = 1 + Int(random.next(below: 9))
                    number.extension = String((0..<length).map { _ in Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8(random.next(below: 10)))) })
                }
                generated.append(Number(number: number, region: engine.region(of: number)))
            }
        }
        return generated
    }

    struct MissingColumn: Error {}
}
