/// A Unicode scalar of the text as it will be encoded, with where it came from.
struct _Item {
    /// What produced the scalar.
    enum Change: UInt8 {
        case none, normalization, smartEncoding, removed
    }
    /// The scalar value (meaningless when `change == .removed`).
    var value: UInt32
    /// Offset of the source in the input, in UTF-16 code units.
    var utf16Offset: Int
    /// Length of the source in the input, in UTF-16 code units (0 for the 2nd and 3rd scalar of a replacement).
    var utf16Length: Int
    /// Offset of the source in the input, in Unicode scalars.
    var scalarOffset: Int
    /// What produced the scalar.
    var change: Change
    /// Whether a part may start before this scalar (always, unless splitting at grapheme clusters).
    var startsUnit: Bool
}

/// A source of input scalars with split opportunities.
protocol _ScalarSource {
    mutating func next() -> (scalar: Unicode.Scalar, startsUnit: Bool)?
    /// Whether units are grapheme clusters (so scalars inside a unit do not start one).
    var isGraphemeMode: Bool { get }
}

/// Every scalar is a split opportunity.
struct _PlainSource: _ScalarSource {
    var iterator: String.UnicodeScalarView.Iterator
    init(_ text: String) { iterator = text.unicodeScalars.makeIterator() }
    @inline(__always)
    mutating func next() -> (scalar: Unicode.Scalar, startsUnit: Bool)? {
        guard let scalar = iterator.next() else { return nil }
        return (scalar, true)
    }
    var isGraphemeMode: Bool { false }
}

/// Only the first scalar of each grapheme cluster is a split opportunity.
struct _GraphemeSource: _ScalarSource {
    var characters: String.Iterator
    var scalars: String.UnicodeScalarView.Iterator?
    init(_ text: String) { characters = text.makeIterator() }
    mutating func next() -> (scalar: Unicode.Scalar, startsUnit: Bool)? {
        if var inner = scalars, let scalar = inner.next() {
            scalars = inner
            return (scalar, false)
        }
        guard let character = characters.next() else { return nil }
        var inner = character.unicodeScalars.makeIterator()
        guard let first = inner.next() else { return nil }
        scalars = inner
        return (first, true)
    }
    var isGraphemeMode: Bool { true }
}

/// Applies the optional NFC composition and smart encoding to a scalar source, lazily and without
/// heap allocation.
struct _Pipeline<Source: _ScalarSource> {
    var source: Source
    let normalizes: Bool
    let smart: Bool
    var utf16Offset = 0
    var scalarOffset = 0
    /// The next raw item, read ahead by the composer.
    var lookahead: _Item?
    var lookaheadValid = false
    /// Pending 2nd/3rd scalars of a replacement, packed; `queued` is how many.
    var queue: UInt32 = 0
    var queued = 0
    var queueOffset = 0
    var queueScalarOffset = 0
    var forceUnitStart = false

    init(source: Source, normalizes: Bool, smart: Bool) {
        self.source = source
        self.normalizes = normalizes
        self.smart = smart
    }

    @inline(__always)
    mutating func readRaw() -> _Item? {
        guard let (scalar, startsUnit) = source.next() else { return nil }
        let length = scalar.value > 0xFFFF ? 2 : 1
        var item = _Item(
            value: scalar.value, utf16Offset: utf16Offset, utf16Length: length, scalarOffset: scalarOffset,
            change: .none, startsUnit: startsUnit)
        utf16Offset &+= length
        scalarOffset &+= 1
        if normalizes, scalar.value >= 0x0340, let mapped = _nfcSingleton(scalar.value) {
            item.value = mapped
            item.change = .normalization
        }
        return item
    }

    @inline(__always)
    mutating func nextComposed() -> _Item? {
        guard normalizes else { return readRaw() }
        var current: _Item
        if lookaheadValid {
            lookaheadValid = false
            guard let item = lookahead else { return nil }
            current = item
        } else {
            guard let item = readRaw() else { return nil }
            current = item
        }
        while true {
            guard let next = readRaw() else {
                lookahead = nil
                lookaheadValid = true
                return current
            }
            if !(source.isGraphemeMode && next.startsUnit), let composed = _nfcCompose(current.value, next.value) {
                current.value = composed
                current.change = .normalization
                current.utf16Length &+= next.utf16Length
                continue
            }
            lookahead = next
            lookaheadValid = true
            return current
        }
    }

    @inline(__always)
    mutating func next() -> _Item? {
        if queued > 0 {
            let value = queue & 0xFF
            queue >>= 8
            queued &-= 1
            return _Item(
                value: value, utf16Offset: queueOffset, utf16Length: 0, scalarOffset: queueScalarOffset,
                change: .none, startsUnit: !source.isGraphemeMode)
        }
        guard var item = nextComposed() else { return nil }
        if forceUnitStart {
            item.startsUnit = true
            forceUnitStart = false
        }
        if smart {
            let (count, bytes) = _smartReplacement(item.value)
            if count == 0 {
                if item.startsUnit { forceUnitStart = true }
                item.change = .removed
            } else if count > 0 {
                item.value = bytes & 0xFF
                item.change = .smartEncoding
                queue = bytes >> 8
                queued = count &- 1
                queueOffset = item.utf16Offset &+ item.utf16Length
                queueScalarOffset = item.scalarOffset
            }
        }
        return item
    }
}
