import SMSKitRecords
import Testing

@Suite("HeaderRow: columns by name")
struct HeaderRowTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var header: String
        var column: RecordColumn
        var position: Int?
        var testDescription: String { "\(header) \(column)" }
    }

    static let cases: [Case] = [
        .init(header: "Name,Phone,Region", column: .name("phone"), position: 1),
        .init(header: "Name, Phone ,Region", column: .name("PHONE"), position: 1),
        .init(header: "Name,\tPhone\t,Region", column: .name(" phone "), position: 1),
        .init(header: "Phone,Phone", column: .name("phone"), position: 0),
        .init(header: "Name,Phone", column: .name("mobile"), position: nil),
        .init(header: "Name,Phone", column: .position(5), position: 5),
        .init(header: "\"Phone, mobile\",Name", column: .name("phone, mobile"), position: 0),
        .init(header: "Téléphone;Région", column: .name("TÉLÉPHONE"), position: 0),
    ]

    @Test("a name matches trimmed, in any case; a position is as given", arguments: cases)
    func position(_ c: Case) {
        var bytes = Array(c.header.utf8)
        let dialect = DelimiterDetection.detect(in: UnsafeRawBufferPointer(start: &bytes, count: bytes.count)).dialect
        let header = bytes.withUnsafeBytes { HeaderRow($0, dialect: dialect) }
        #expect(header.position(of: c.column) == c.position)
    }

    @Test("the first of several names")
    func firstOfNames() {
        let header = HeaderRow(names: ["Name", " MSISDN", "Region"])
        #expect(header.firstPosition(namedAnyOf: ["phone", "msisdn"]) == 1)
        #expect(header.firstPosition(namedAnyOf: ["region_code"]) == nil)
    }
}
