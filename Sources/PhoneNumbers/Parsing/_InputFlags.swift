// What an input may contain, gathered while it is decoded, so that the free-form parse skips the
// searches and passes whose trigger characters never occur: one table load and an OR per byte
// with no branch. The flags of ASCII characters are exact for any input (UTF-8 encodes no other
// character with an ASCII byte, and the steps they gate look for ASCII characters alone); input
// that is not all ASCII also has `extensionLabel` (its other letters and symbols can start an
// extension). Input over 250 bytes has every flag.

struct _InputFlags: OptionSet {
    let rawValue: UInt8

    /// `;`: RFC 3966 parameters (`;phone-context=`, `;isub=`) may be present.
    static let semicolon = _InputFlags(rawValue: 1)
    /// `/` or `\`: a second number ("/ x...") may cut the first.
    static let slash = _InputFlags(rawValue: 2)
    /// A character without which no extension alternative can match: a letter (of a label),
    /// `#`, `~`, `,` or `;`.
    static let extensionLabel = _InputFlags(rawValue: 4)
    /// An ASCII letter: normalizing may read a vanity number.
    static let letter = _InputFlags(rawValue: 8)
    /// A line feed.
    static let newline = _InputFlags(rawValue: 16)

    /// Not all ASCII: `extensionLabel` is set too, and the steps test the scalars' ranges.
    static let notASCII = _InputFlags(rawValue: 32)

    /// Every flag: what is assumed of input too long to gather flags for, and by tests.
    static let all = _InputFlags(rawValue: 0x3F)

    /// The flags of one ASCII character, from the rules above (the table is checked against it).
    static func of(ascii byte: UInt8) -> _InputFlags {
        var flags: _InputFlags = []
        switch byte {
        case UInt8(ascii: ";"): flags = [.semicolon, .extensionLabel]
        case UInt8(ascii: "/"), UInt8(ascii: "\\"): flags = .slash
        case UInt8(ascii: "#"), UInt8(ascii: "~"), UInt8(ascii: ","): flags = .extensionLabel
        case UInt8(ascii: "\n"): flags = .newline
        default:
            if (byte | 0x20) &- 0x61 < 26 { flags = [.letter, .extensionLabel] }
        }
        return flags
    }

    /// The flags of every byte, each as "@" (0x40) plus the flags' raw value: ``of(ascii:)`` for
    /// 0x00...0x7F, ``notASCII`` ("`") for the rest. The decoding loop ORs these together, one
    /// load per byte, and keeps the low six bits.
    static var byteTable: StaticString {
        "@@@@@@@@@@P@@@@@@@@@@@@@@@@@@@@@@@@D@@@@@@@@D@@B@@@@@@@@@@@E@@@@@LLLLLLLLLLLLLLLLLLLLLLLLLL@B@@@@LLLLLLLLLLLLLLLLLLLLLLLLLL@@@D@````````````````````````````````````````````````````````````````````````````````````````````````````````````````````````````````"
    }
}
