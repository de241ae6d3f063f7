import SMSKitRecords
import Testing

@Suite struct HeaderNameTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var header: [String]
        var expected: Int?
        var testDescription: String { header.joined(separator: "|") }
    }

    static let cases: [Case] = [
        Case(header: ["Name", "phone"], expected: 1),
        Case(header: ["name", "MSISDN"], expected: 1),
        Case(header: ["Tel.", "Name"], expected: 0),
        Case(header: ["Hotel", "Number"], expected: 1),
        Case(header: ["Phone 1 - Type", "Phone 1 - Value"], expected: 1),
        Case(header: ["Phonetic First Name", "Phone"], expected: 1),
        Case(header: ["Business Phone", "Mobile Phone"], expected: 1),
        Case(header: ["Name", "Telefonnummer"], expected: 1),
        Case(header: ["Telefon", "Handynummer"], expected: 1),
        Case(header: ["Nom", "Téléphone"], expected: 1),
        Case(header: ["Nombre", "Teléfono", "Móvil"], expected: 2),
        Case(header: ["Nome", "Telefone", "Celular"], expected: 2),
        Case(header: ["Nome", "Cellulare"], expected: 1),
        Case(header: ["Naam", "Telefoonnummer"], expected: 1),
        Case(header: ["Имя", "Телефон"], expected: 1),
        Case(header: ["名前", "電話番号"], expected: 1),
        Case(header: ["姓名", "手机号码"], expected: 1),
        Case(header: ["الاسم", "هاتف"], expected: 1),
        Case(header: ["이름", "휴대폰 번호"], expected: 1),
        Case(header: ["Business Fax", "Pager", "Phone Country Code"], expected: nil),
        Case(header: ["Name", "Email", "City"], expected: nil),
        Case(header: ["phone_number", "mobile_number"], expected: 1),
    ]

    @Test(arguments: cases)
    func column(_ test: Case) {
        #expect(HeaderDetection.phoneColumn(header: test.header)?.index == test.expected)
    }

    @Test func headerRows() {
        let never: (String) -> Bool = { _ in false }
        #expect(HeaderDetection.isHeader(["Name", "Phone 1 - Value"], parsesAsNumber: never))
        #expect(!HeaderDetection.isHeader(["Ann", "+44 20 7946 0000"], parsesAsNumber: { $0.hasPrefix("+") }))
        #expect(!HeaderDetection.isHeader(["Ann", "0207946000x"], parsesAsNumber: never))   // mostly digits: data
        #expect(!HeaderDetection.isHeader(["1", "2"], parsesAsNumber: never))               // no letters
        #expect(!HeaderDetection.isHeader([""], parsesAsNumber: never))
    }
}

@Suite struct NumberCellSplitterTests {
    static let cases: [(String, [String])] = [
        ("+44 7700 900123 ::: +44 20 7946 0000", ["+44 7700 900123", "+44 20 7946 0000"]),
        ("+44 7700 900123:::+44 20 7946 0000", ["+44 7700 900123", "+44 20 7946 0000"]),
        ("0151 23456789; 030 1234567", ["0151 23456789", "030 1234567"]),
        ("0151 23456789 / 030 1234567", ["0151 23456789", "030 1234567"]),
        ("030/1234567", ["030/1234567"]),
        ("+44 20 7946 0000, ext. 2", ["+44 20 7946 0000, ext. 2"]),
        ("+44 7700 900123, +44 20 7946 0000", ["+44 7700 900123", "+44 20 7946 0000"]),
        ("555-0100 or 555-0199", ["555-0100", "555-0199"]),
        ("555-0100 OR 555-0199", ["555-0100", "555-0199"]),
        ("0151 23456789 oder 030 1234567", ["0151 23456789", "030 1234567"]),
        ("+1 202 555 0100\n+1 202 555 0101\r\n", ["+1 202 555 0100", "+1 202 555 0101"]),
        ("  ", []),
        ("", []),
        ("Zoë: +44 7700 900123", ["Zoë: +44 7700 900123"]),
    ]

    @Test func split() {
        for (cell, expected) in Self.cases {
            let bytes = Array(cell.utf8)
            let pieces = NumberCellSplitter.split(cell).map { String(decoding: bytes[$0], as: UTF8.self) }
            #expect(pieces == expected, "\(cell.debugDescription)")
        }
    }

    @Test func offsetsPointIntoTheCell() {
        #expect(NumberCellSplitter.split("a ::: bc") == [0..<1, 6..<8])
    }
}

@Suite struct SpreadsheetManglingTests {
    @Test(arguments: ["4.47911E+11", "4,47911E+11", "4.5e11", "+4.47911E+011", "4E+11", " 4.47911E+11 ", "447E10"])
    func scientific(_ cell: String) {
        #expect(SpreadsheetMangling.isScientificNotation(cell))
    }

    @Test(arguments: ["+44 20 7946 0000", "447911123456", "4.47911", "E+11", "4.47911E", "4.E+11", "1234.5E+11", "Ex 4E+1x", ""])
    func notScientific(_ cell: String) {
        #expect(!SpreadsheetMangling.isScientificNotation(cell))
    }

    @Test func apostrophes() {
        #expect(SpreadsheetMangling.strippingApostrophe("'+49 30 1234567") == "+49 30 1234567")
        #expect(SpreadsheetMangling.strippingApostrophe(" '0151") == "0151")
        #expect(SpreadsheetMangling.strippingApostrophe("’0151") == "0151")
        #expect(SpreadsheetMangling.strippingApostrophe("0151'") == "0151'")
    }
}
