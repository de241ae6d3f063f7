// Written out because `parts` is a computed property (see `_SMSParts`): the same equality, hashing
// and coding as the synthesized conformances of a struct that stores `parts` as an array, with
// the same keys in the same order.

extension SMSAnalysis: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.text == rhs.text && lhs.encoding == rhs.encoding && lhs.nationalLanguage == rhs.nationalLanguage
            && lhs.length == rhs.length && lhs.segmentCount == rhs.segmentCount
            && lhs.remainingInLastSegment == rhs.remainingInLastSegment
            && lhs.exceedsConcatenationLimit == rhs.exceedsConcatenationLimit
            && lhs.unencodableCharacters == rhs.unencodableCharacters && lhs.changes == rhs.changes
            && lhs.suggestions == rhs.suggestions && lhs._parts == rhs._parts
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(encoding)
        hasher.combine(nationalLanguage)
        hasher.combine(length)
        hasher.combine(segmentCount)
        hasher.combine(remainingInLastSegment)
        hasher.combine(exceedsConcatenationLimit)
        hasher.combine(_parts)
        hasher.combine(unencodableCharacters)
        hasher.combine(changes)
        hasher.combine(suggestions)
    }
}

extension SMSAnalysis: Codable {
    enum CodingKeys: String, CodingKey {
        case text, encoding, nationalLanguage, length, segmentCount, remainingInLastSegment
        case exceedsConcatenationLimit, parts, unencodableCharacters, changes, suggestions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            text: try container.decode(String.self, forKey: .text),
            encoding: try container.decode(SMSCharacterEncoding.self, forKey: .encoding),
            nationalLanguage: try container.decodeIfPresent(SMSNationalLanguageTables.self, forKey: .nationalLanguage),
            length: try container.decode(Int.self, forKey: .length),
            segmentCount: try container.decode(Int.self, forKey: .segmentCount),
            remainingInLastSegment: try container.decode(Int.self, forKey: .remainingInLastSegment),
            exceedsConcatenationLimit: try container.decode(Bool.self, forKey: .exceedsConcatenationLimit),
            parts: try container.decode([SMSPart].self, forKey: .parts),
            unencodableCharacters: try container.decode([SMSUnencodableCharacter].self, forKey: .unencodableCharacters),
            changes: try container.decode([SMSTextChange].self, forKey: .changes),
            suggestions: try container.decode([SMSSuggestion].self, forKey: .suggestions))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(encoding, forKey: .encoding)
        try container.encodeIfPresent(nationalLanguage, forKey: .nationalLanguage)
        try container.encode(length, forKey: .length)
        try container.encode(segmentCount, forKey: .segmentCount)
        try container.encode(remainingInLastSegment, forKey: .remainingInLastSegment)
        try container.encode(exceedsConcatenationLimit, forKey: .exceedsConcatenationLimit)
        try container.encode(parts, forKey: .parts)
        try container.encode(unencodableCharacters, forKey: .unencodableCharacters)
        try container.encode(changes, forKey: .changes)
        try container.encode(suggestions, forKey: .suggestions)
    }
}
