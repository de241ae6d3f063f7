import SMSKitRecords
import Testing

@Suite struct RegionNamesTests {
    static let regions = RegionNames()

    @Test(arguments: [
        ("GB", "GB"), ("gb", "GB"), ("GBR", "GB"), ("United Kingdom", "GB"), ("  united   KINGDOM ", "GB"),
        ("Deutschland", "DE"), ("Germany", "DE"), ("Allemagne", "DE"), ("DEU", "DE"),
        ("España", "ES"), ("Espana", "ES"), ("Spanien", "ES"), ("België", "BE"), ("Belgique", "BE"),
        ("Россия", "RU"), ("Russia", "RU"), ("中国", "CN"), ("日本", "JP"), ("Österreich", "AT"),
        ("Côte d’Ivoire", "CI"), ("Cote d'Ivoire", "CI"), ("Ivory Coast", "CI"), ("U.S.A.", "US"), ("USA", "US"),
        ("Holland", "NL"), ("England", "GB"), ("Türkiye", "TR"), ("Turkey", "TR"), ("Schweiz", "CH"),
        ("Suisse", "CH"), ("Svizzera", "CH"), ("Brasil", "BR"), ("México", "MX"), ("المملكة العربية السعودية", "SA"),
        ("AO", "AO"), ("UK", "GB"), ("EL", "GR"), ("ZR", "CD"),
    ])
    func match(_ text: String, _ code: String) {
        #expect(Self.regions.match(text)?.code == code, "\(text)")
    }

    @Test(arguments: ["XX", "Atlantis", "", "E.U.", "Kongo"])
    func unknown(_ text: String) {
        #expect(Self.regions.match(text) == nil, "\(text)")
    }

    @Test func codeChecks() {
        #expect(Self.regions.checkCode("gb") == .valid("GB"))
        #expect(Self.regions.checkCode("XK") == .valid("XK"))
        #expect(Self.regions.checkCode("UK") == .invalid("unknown region 'UK'; did you mean GB? (UK is not an ISO 3166-1 code)"))
        #expect(Self.regions.checkCode("el") == .invalid("unknown region 'el'; did you mean GR? (EL is not an ISO 3166-1 code)"))
        #expect(Self.regions.checkCode("DEU") == .invalid("unknown region 'DEU'; did you mean DE? (regions are two-letter codes)"))
        #expect(Self.regions.checkCode("Germany") == .invalid("unknown region 'Germany'; did you mean DE? (regions are two-letter codes)"))
        #expect(Self.regions.checkCode("XX") == .invalid("unknown region 'XX': not an ISO 3166-1 alpha-2 code"))
        #expect(RegionNames.cldrVersion == "47")
    }

    @Test func everyAlpha2CodeMapsToItself() {
        // A code is never shadowed by a name in another language (AO is Angola, not Vietnamese Áo).
        for first in UInt8(ascii: "A")...UInt8(ascii: "Z") {
            for second in UInt8(ascii: "A")...UInt8(ascii: "Z") {
                let code = String(decoding: [first, second], as: UTF8.self)
                if let match = Self.regions.match(code), match.kind == .alpha2 { #expect(match.code == code) }
            }
        }
        #expect(["US", "GB", "DE", "FR", "CN", "IN", "BR", "AO", "BI", "XK"].allSatisfy { Self.regions.match($0)?.kind == .alpha2 })
    }
}
