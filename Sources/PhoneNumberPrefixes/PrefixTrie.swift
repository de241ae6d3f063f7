import PhoneNumbers

/// A node of the generated digit tries (`smskit_tz_node`, `smskit_carrier_node`: the C structs
/// have this layout, which the generator's header documents): the child for digit d exists when
/// bit d of `childMask` is set and is node `firstChild + popcount(childMask & ((1 << d) - 1))`;
/// `value` is 0 when no prefix ends here, else the index of the prefix's value plus one.
package struct PrefixTrieNode {
    package var firstChild: UInt32
    package var childMask: UInt16
    package var value: UInt16
}

/// The values of the prefixes of a number's E.164 digits that a trie holds, shallowest first:
/// at most nine, the tables' longest prefix.
package struct PrefixMatches {
    /// The values, `count` of them, shallowest first, in a tuple of nine (no heap storage).
    private var values: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// How many values were found.
    package private(set) var count = 0

    /// The longest prefix's value, or nil when no prefix matched.
    package var deepest: UInt16? { count == 0 ? nil : self[count &- 1] }

    /// The value of the `index`th shortest matching prefix.
    package subscript(index: Int) -> UInt16 {
        precondition(index >= 0 && index < count, "index out of range")
        return withUnsafeBytes(of: values) { $0.load(fromByteOffset: index &* 2, as: UInt16.self) }
    }

    mutating func append(_ value: UInt16) {
        guard count < 9 else { return }
        withUnsafeMutableBytes(of: &values) { $0.storeBytes(of: value, toByteOffset: count &* 2, as: UInt16.self) }
        count &+= 1
    }
}

/// Walks the generated prefix tries along a number's E.164 digits. One call does the whole walk,
/// so that a lookup in another module pays one call, not one per digit.
package enum PrefixTrie {
    /// The longest prefix in any table (the generators check it).
    package static let maximumDepth = 9

    /// The values of every prefix of `number`'s E.164 digits (calling code, leading zeros,
    /// national number) in the trie at `nodes`, of `minimumLength` digits or more.
    package static func matches(_ nodes: UnsafeRawPointer, number: PhoneNumber, minimumLength: Int = 1) -> PrefixMatches {
        guard let digits = E164Digits(number) else { return PrefixMatches() }
        return walk(nodes.assumingMemoryBound(to: PrefixTrieNode.self), digits, minimumLength)
    }

    /// The values of every prefix of a calling code's digits, of `minimumLength` digits or more.
    package static func matches(_ nodes: UnsafeRawPointer, countryCode: Int, minimumLength: Int) -> PrefixMatches {
        guard let digits = E164Digits(countryCode: countryCode) else { return PrefixMatches() }
        return walk(nodes.assumingMemoryBound(to: PrefixTrieNode.self), digits, minimumLength)
    }

    @inline(__always)
    private static func walk(_ nodes: UnsafePointer<PrefixTrieNode>, _ digits: E164Digits, _ minimumLength: Int) -> PrefixMatches {
        var found = PrefixMatches()
        var node = 0
        let depth = min(digits.count, maximumDepth)
        var i = 0
        while i < depth {
            let entry = nodes[node]
            let bit = UInt16(1) << UInt16(truncatingIfNeeded: digits[i])
            guard entry.childMask & bit != 0 else { break }
            node = Int(entry.firstChild) &+ (entry.childMask & (bit &- 1)).nonzeroBitCount
            i &+= 1
            let value = nodes[node].value
            if value != 0, i >= minimumLength { found.append(value &- 1) }
        }
        return found
    }
}
