/// The words that name a phone column in contact exports, in the major languages.
///
/// Lowercased. Latin and Cyrillic names are matched by whole words (split at anything not a
/// letter or digit); German, Dutch and Nordic compounds by their stem (`Telefonnummer`,
/// `Handynummer`, `Mobiltelefon`); names in scripts without spaces (CJK, Thai) by containment.
enum PhoneColumnWords {
    /// Mobile numbers come first for SMS.
    static let mobile: [String] = [
        "mobile", "mob", "cell", "cellphone", "cellular", "msisdn", "gsm", "sms", "whatsapp",
        "handy", "mobil", "mobiel", "mobiltelefon", "natel",                       // de, nl, nordic, ch
        "portable", "móvil", "movil", "celular", "cellulare", "telemóvel", "telemovel",
        "komórka", "komorka", "komórkowy", "mobilní", "mobilny", "cep",            // pl, cs, sk, tr
        "ponsel", "hp", "di động", "didong",                                       // id, vi
        "мобильный", "мобильник", "сотовый", "мобільний", "мобилен",               // ru, uk, bg
        "κινητό", "κινητο", "נייד", "جوال", "موبايل", "نقال", "همراه", "موبایل",  // el, he, ar, fa
        "मोबाइल", "মোবাইল", "手机", "手機", "携帯", "휴대폰", "휴대전화", "핸드폰", "มือถือ",
    ]
    static let phone: [String] = [
        "phone", "e164", "telephone", "tel", "tél", "tele", "telefon", "téléphone", "teléfono", "telefono",
        "telefone", "telefoon", "telefonnummer", "telefoonnummer", "rufnummer", "puhelin", "sími",
        "телефон", "тел", "電話", "电话", "전화", "هاتف", "تلفن", "טלפון", "τηλέφωνο", "τηλ",
        "telepon", "điện thoại", "dien thoai", "โทรศัพท์", "เบอร์", "फ़ोन", "फोन", "দূরভাষ", "ফোন",
    ]
    static let number: [String] = [
        "number", "numéro", "numero", "número", "nummer", "numer", "номер", "番号", "号码", "號碼",
        "رقم", "מספר", "αριθμός", "số",
    ]
    /// German, Dutch and Nordic stems that start compounds.
    static let stems: [String] = ["telefon", "telefoon", "handy", "mobil", "mobiel", "rufnummer"]
    /// A name with one of these words is about a phone but is not one.
    static let excluded: Set<String> = [
        "type", "typ", "tipo", "kind", "label", "fax", "pager", "ext", "extension", "durchwahl",
        "country", "region", "code", "yomi", "phonetic", "tty", "tdd", "telex", "id", "e", "mail", "email",
        "privacy", "consent", "opt", "verified", "carrier", "land", "pays", "país", "landesvorwahl",
    ]

    /// The best score of a header name (3 mobile, 2 phone, 1 number) and the word that matched.
    static func score(_ name: String) -> (score: Int, word: String)? {
        let lowered = name.lowercased()
        var tokens: [String] = []
        var current = ""
        for scalar in lowered.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar.properties.generalCategory == .nonspacingMark {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        if tokens.contains(where: excluded.contains) { return nil }
        let joined = tokens.joined(separator: " ")
        func matches(_ word: String) -> Bool {
            if word.unicodeScalars.first.map({ $0.value >= 0x2E80 || ($0.value >= 0x0E00 && $0.value < 0x0E80) }) == true {
                return lowered.contains(word)   // scripts without spaces
            }
            if word.contains(" ") { return (" " + joined + " ").contains(" " + word + " ") }
            return tokens.contains(word) || (stems.contains(word) && tokens.contains { $0.hasPrefix(word) })
        }
        for (score, words) in [(3, mobile), (2, phone), (1, number)] {
            if let word = words.first(where: matches) { return (score, word) }
        }
        return nil
    }
}
