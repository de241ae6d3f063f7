import CSMSKitICU

/// When the app name needs FSI…PDI isolates, and how right-to-left messages start. Internal.
///
/// Isolates cost two UCS-2 units each, show as boxes on handsets older than Unicode 6.3 and keep
/// Urdu out of the GSM Urdu national table, so they go only where the Unicode Bidirectional
/// Algorithm would otherwise reorder the name with its neighbours:
///
/// - In a right-to-left message, a name whose first or last character is not a strong letter
///   (a digit, space or punctuation: `Acme 2`, `(Acme)`, `24`), or that mixes left-to-right and
///   right-to-left letters. A name that starts and ends with a letter of one direction (`Acme`,
///   `Acme Bank`, `متجري`) is one directional run as it is and goes bare.
/// - In a left-to-right message, any name with right-to-left letters (bidi class R or AL). Next
///   to a right-to-left run, the neutrals and digits that follow a name (`: 042917`) join its run
///   (rules W2, N1, I1), so the code is shown on the wrong side of a Hebrew name just as of an
///   Arabic one. Such a name already makes the message UCS-2, so the two isolate units cost no
///   change of encoding. Latin and digit-only names never need one.
enum _Bidi {
    struct Profile {
        var hasLeftToRight = false
        var hasRightToLeft = false
        var hasArabicLetter = false
        var startsStrong = false
        var endsStrong = false
    }

    /// The bidi profile of a (sanitized) name: ASCII in Swift, anything else through ICU.
    static func profile(_ text: String) -> Profile {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
            return Profile(hasLeftToRight: utf8.contains(where: isLetter),
                           startsStrong: utf8.first.map(isLetter) ?? false,
                           endsStrong: utf8.last.map(isLetter) ?? false)
        }
        var text = text
        let flags = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { smskit_icu_bidi_profile($0.baseAddress, Int32($0.count)) }
        }
        return Profile(hasLeftToRight: flags & Int32(SMSKIT_BIDI_HAS_L) != 0,
                       hasRightToLeft: flags & Int32(SMSKIT_BIDI_HAS_R | SMSKIT_BIDI_HAS_AL) != 0,
                       hasArabicLetter: flags & Int32(SMSKIT_BIDI_HAS_AL) != 0,
                       startsStrong: flags & Int32(SMSKIT_BIDI_STARTS_STRONG) != 0,
                       endsStrong: flags & Int32(SMSKIT_BIDI_ENDS_STRONG) != 0)
    }

    /// Why a name needs isolates in a message of the given direction, or nil when it needs none.
    static func isolationReason(_ name: String, inRightToLeftMessage isRightToLeft: Bool) -> String? {
        let profile = profile(name)
        let mixed = profile.hasLeftToRight && profile.hasRightToLeft
        if isRightToLeft {
            if mixed { return "it mixes left-to-right and right-to-left letters" }
            if !profile.startsStrong || !profile.endsStrong {
                return "it starts or ends with a digit, space or punctuation, which would join the text around it"
            }
            return nil
        }
        guard profile.hasRightToLeft else { return nil }
        if mixed { return "it mixes left-to-right and right-to-left letters" }
        if profile.hasArabicLetter { return "digits after Arabic letters would be read as Arabic numbers and move" }
        return "the punctuation and the code after right-to-left letters would join their run and move"
    }

    /// U+200F RIGHT-TO-LEFT MARK: a strong right-to-left character every bidi implementation knows.
    static let rightToLeftMark = "\u{200F}"

    /// Whether a right-to-left message must get an RLM in front: its first strong character,
    /// looking inside isolates as a handset without isolate support does, is not right to left.
    static func needsLeadingMark(_ text: String) -> Bool {
        _ICU.firstStrongDirection(text) != .rightToLeft
    }

    /// U+200E LEFT-TO-RIGHT MARK.
    static let leftToRightMark = "\u{200E}"

    /// Whether a left-to-right message must get an LRM in front: its first strong character, looking
    /// inside isolates, is right to left (a Hebrew or Arabic app name first), so a handset that
    /// takes the paragraph direction from the first letter would lay the message out right to left.
    static func needsLeadingLeftToRightMark(_ text: String) -> Bool {
        _ICU.firstStrongDirection(text) == .rightToLeft
    }
}
