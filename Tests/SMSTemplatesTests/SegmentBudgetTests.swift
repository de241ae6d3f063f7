import Foundation
import SMSEncoding
import Testing
@testable import SMSTemplates

/// One segment, always: every bundled message in every bundled locale, rendered through the real
/// renderer with a 12-character app name, a 6-digit code and every minute value from 1 to 120,
/// fits one SMS with the default encoder (GSM 7-bit default alphabet, 160 septets, or UCS-2, 70
/// units) with the WebOTP line for an 11-character origin on every message, as a web sign-in or
/// two-step page sends it; and every message stays within the 140 bytes Google's SMS Retriever
/// allows with an app hash line. The text before the WebOTP line meets the budget translators are
/// given (`TemplateCatalog.unitBudget(segments: 1)`).
///
/// Set `SMSKIT_PRINT_BUDGETS=1` to print the worst case per locale and message.
@Suite struct SegmentBudgetTests {
    static let appName = "Acme Banking"          // 12 characters
    static let code = "042917"                   // 6 digits
    static let webOTPDomain = "acmebank.io"      // 11 characters: "\n@" + 11 + " #" + 6 = 21 units
    static let appHash = "FA+9qCX9VSu"           // 11 characters, on its own line: 12 units

    /// The worst case of one kind of rendering across the minute values.
    struct Worst: CustomStringConvertible {
        var units = 0
        var segments = 0
        var encoding: SMSCharacterEncoding = .gsm7
        var text = ""
        mutating func record(_ sms: RenderedMessage) throws {
            try record(#require(sms.encoding), text: sms.text)
        }
        mutating func record(_ analysis: SMSAnalysis, text: String) {
            // A UCS-2 rendering counts as worse than any GSM one: its limit is lower.
            let worse = (analysis.encoding == .ucs2 && encoding == .gsm7)
                || (analysis.encoding == encoding && analysis.length > units) || self.text.isEmpty
            if worse {
                units = analysis.length
                segments = analysis.segmentCount
                encoding = analysis.encoding
                self.text = text
            }
        }
        var description: String { "\(encoding == .gsm7 ? "G" : "U")\(units)" }
    }

    /// The user-data bytes of one SMS carrying `analysis`'s text: septets packed 8 per 7 bytes, or
    /// two bytes per UCS-2 unit.
    static func userDataBytes(_ analysis: SMSAnalysis) -> Int {
        analysis.encoding == .gsm7 ? (analysis.length * 7 + 7) / 8 : analysis.length * 2
    }

    static func minuteValues(_ id: MessageID) -> [Int?] {
        id == .verificationCodeWithExpiry ? Array(1...120) : [nil]
    }

    @Test func theWorstCaseLineMatchesTheBudget() {
        #expect(Self.webOTPDomain.utf8.count == TemplateCatalog.worstCaseOrigin.utf8.count)
        #expect(TemplateCatalog.worstCaseWebOTPLineUnits == ("\n@" + Self.webOTPDomain + " #" + Self.code).utf16.count)
        let one = TemplateCatalog.unitBudget(segments: 1), two = TemplateCatalog.unitBudget(segments: 2)
        #expect(one.gsm7 == 139 && one.ucs2 == 49)
        #expect(two.gsm7 == 285 && two.ucs2 == 113)
    }

    @Test(arguments: SMSTemplateRenderer.bundledLocales)
    func everyMessageFitsOneSegment(locale: String) throws {
        let renderer = try SMSTemplateRenderer()
        let budget = TemplateCatalog.unitBudget(segments: 1)
        var report: [String] = []
        for id in MessageID.bundled {
            var before = Worst(), web = Worst(), hash = Worst()
            for minutes in Self.minuteValues(id) {
                let sms = try renderer.render(id, locale: locale, code: Self.code, appName: Self.appName, minutes: minutes)
                #expect(sms.locale == locale, "\(locale) \(id) fell back to \(sms.locale)")
                #expect(sms.segmentCount == 1, "\(locale) \(id) minutes=\(minutes ?? 0) takes \(sms.segmentCount) segments: \(sms.text)")
                let analysis = try #require(sms.encoding)
                let limit = analysis.encoding == .gsm7 ? budget.gsm7 : budget.ucs2
                #expect(analysis.length <= limit,
                        "\(locale) \(id) minutes=\(minutes ?? 0) is \(analysis.length) \(analysis.encoding) units before the WebOTP line; the budget is \(limit): \(sms.text)")
                before.record(analysis, text: sms.text)

                let withLine = try renderer.render(id, locale: locale, code: Self.code, appName: Self.appName,
                                                   minutes: minutes, options: RenderOptions(webOTPOrigin: Self.webOTPDomain))
                #expect(withLine.text.hasSuffix("\n@\(Self.webOTPDomain) #\(Self.code)"))
                #expect(withLine.segmentCount == 1,
                        "\(locale) \(id) minutes=\(minutes ?? 0) with the WebOTP line takes \(withLine.segmentCount) segments: \(withLine.text)")
                try web.record(withLine)

                let withHash = try renderer.render(id, locale: locale, code: Self.code, appName: Self.appName,
                                                   minutes: minutes, options: RenderOptions(smsRetrieverAppHash: Self.appHash))
                #expect(withHash.text.hasSuffix("\n" + Self.appHash))
                let hashed = try #require(withHash.encoding)
                #expect(Self.userDataBytes(hashed) <= 140,
                        "\(locale) \(id) minutes=\(minutes ?? 0) with the app hash is \(Self.userDataBytes(hashed)) bytes: \(withHash.text)")
                #expect(withHash.segmentCount == 1)
                try hash.record(withHash)
            }
            report.append("\(id.rawValue)=\(before)/web \(web)/hash \(hash)")
        }
        if ProcessInfo.processInfo.environment["SMSKIT_PRINT_BUDGETS"] != nil {
            print("BUDGET \(locale) " + report.joined(separator: " "))
        }
    }

    /// The load-time check holds every bundled catalog to the same worst case: each message's
    /// worst rendering (numbers 1 to 120, the WebOTP line) is one segment.
    @Test(arguments: SMSTemplateRenderer.bundledLocales)
    func worstCaseRenderingIsOneSegment(locale: String) throws {
        let renderer = try SMSTemplateRenderer()
        let catalog = try #require(renderer.catalog(for: locale))
        for id in MessageID.bundled {
            let worst = try #require(try catalog.worstCaseRendering(of: id))
            #expect(worst.segments == 1, "\(locale) \(id): \(worst.text)")
            #expect(worst.text.hasSuffix("\n@\(TemplateCatalog.worstCaseOrigin) #\(TemplateCatalog.worstCaseCode)"))
        }
    }

    /// The code comes early, so a notification preview (about 40 characters on a lock screen)
    /// shows it: it starts within the first 40 UTF-16 units with a 12-character app name.
    @Test(arguments: SMSTemplateRenderer.bundledLocales)
    func theCodeComesEarly(locale: String) throws {
        let renderer = try SMSTemplateRenderer()
        for id in MessageID.bundled {
            let sms = try renderer.render(id, locale: locale, code: Self.code, appName: Self.appName, minutes: 60)
            let range = try #require(sms.text.range(of: Self.code))
            let offset = sms.text.utf16.distance(from: sms.text.startIndex, to: range.lowerBound)
            #expect(offset <= 40, "\(locale) \(id): the code starts at UTF-16 offset \(offset): \(sms.text)")
        }
    }

    /// "Do not share it", per locale: the sign-in and two-factor messages carry it after the code,
    /// as the English ones do ("Don't share it."), since those codes are what phishers ask for.
    static let doNotShare: [String: String] = [
        "af": "Moenie dit met iemand deel nie", "am": "ለማንም አያጋሩ", "ar": "لا تشاركه",
        "as": "কাকো নক’ব", "az": "Heç kimə deməyin", "bg": "Не го споделяйте",
        "bn": "কাউকে বলবেন না", "bs": "Ne dijelite ga ni s kim", "ca": "No el comparteixis",
        "cs": "Nesdílejte ho", "da": "Del den ikke med nogen", "de": "Gib ihn an niemanden weiter",
        "el": "Μην τον δώσετε", "en": "Don't share it", "es": "No la compartas",
        "es-419": "No la compartas", "et": "Ära jaga seda kellegagi", "fa": "به کسی ندهید",
        "fi": "Älä kerro sitä kenellekään", "fil": "Huwag itong ibigay kahit kanino", "fr": "Ne le communiquez à personne",
        "ga": "Ná roinn é", "gu": "કોઈને જણાવશો નહીં", "ha": "Kada ku bayar da ita ga kowa",
        "he": "אין למסור", "hi": "शेयर न करें", "hr": "Ne dijelite ga ni s kim",
        "hu": "Ne oszd meg", "hy": "Ոչ մեկին մի ասեք", "id": "Jangan berikan kode ini kepada siapa pun",
        "ig": "Egosila onye obula ya", "it": "Non condividerlo con nessuno", "ja": "誰にも教えないでください",
        "ka": "არ გასცეთ", "kk": "Ешкімге айтпаңыз", "km": "កុំប្រាប់គេ",
        "kn": "ಯಾರಿಗೂ ಹೇಳಬೇಡಿ", "ko": "타인에게 알려주지 마세요", "ky": "Эч кимге айтпаңыз",
        "lo": "ຫ້າມບອກຜູ້ອື່ນ", "lt": "Niekam jo nesakykite", "lv": "Nevienam nesakiet",
        "mk": "Не го давајте", "ml": "ആർക്കും നൽകരുത്", "mr": "कोणालाही सांगू नका",
        "ms": "Jangan kongsi kod ini dengan sesiapa", "my": "မည်သူ့ကိုမျှ မပြပါ", "nb": "Ikke del den med noen",
        "ne": "कसैलाई नभन्नुहोस्", "nl": "Deel deze code met niemand", "or": "କାହାକୁ କୁହନ୍ତୁ ନାହିଁ",
        "pa": "ਕਿਸੇ ਨੂੰ ਨਾ ਦੱਸੋ", "pl": "Nie podawaj go nikomu", "ps": "مه یې شریکوئ",
        "pt-BR": "Não repasse", "pt-PT": "Não o partilhe", "ro": "Nu divulga acest cod",
        "ru": "Никому не сообщайте", "rw": "Ntuyihe undi muntu", "si": "බෙදා නොගන්න",
        "sk": "Nezdieľajte ho", "sl": "Ne delite je z nikomer", "sq": "Mos ia jep askujt",
        "sr": "Никоме га не дајте", "sr-Latn": "Ne delite ga ni sa kim", "sv": "Dela den inte med någon",
        "sw": "Usimpe mtu yeyote", "ta": "பகிர வேண்டாம்", "te": "ఎవరికీ చెప్పకండి",
        "th": "ห้ามบอกใคร", "tr": "Kimseye vermeyin", "uk": "Нікому не кажіть",
        "ur": "کسی کو نہ دیں", "uz": "Uni hech kimga aytmang", "vi": "Đừng chia sẻ",
        "yo": "Ma se fi han enikeni", "zh-Hans": "请勿泄露给他人", "zh-Hant": "請勿告知他人",
        "zu": "Ungayitsheli muntu",
        "be": "Нікому не кажыце", "ckb": "بە کەسی مەدە", "cy": "Cadwch ef yn gyfrinach",
        "ht": "Pa bay pèsonn li", "is": "Ekki deila", "ku": "Parve neke", "mg": "Aza omena olona",
        "mn": "Хэнд ч бүү хэл", "om": "Nama kamiifuu hin kennin", "sd": "ڪنهن کي نه ڏيو",
        "so": "Qofna ha la wadaagin", "tg": "Ба касе нагӯед", "ti": "ንማንም ኣይተካፍሉ", "tk": "Hiç kime aýtmaň",
    ]

    @Test(arguments: SMSTemplateRenderer.bundledLocales)
    func signInMessagesWarnNotToShareTheCode(locale: String) throws {
        let renderer = try SMSTemplateRenderer()
        let warning = try #require(Self.doNotShare[locale], "add the \(locale) warning to SegmentBudgetTests.doNotShare")
        for id in [MessageID.loginCode, .multiFactorCode] {
            let sms = try renderer.render(id, locale: locale, code: Self.code, appName: Self.appName)
            let code = try #require(sms.text.range(of: Self.code))
            let said = try #require(sms.text.range(of: warning), "\(locale) \(id) does not say '\(warning)': \(sms.text)")
            #expect(said.lowerBound >= code.upperBound, "\(locale) \(id): the warning comes before the code")
        }
    }
}
