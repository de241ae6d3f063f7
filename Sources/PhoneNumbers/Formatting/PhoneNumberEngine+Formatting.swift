extension PhoneNumberEngine {
    /// Formats a number as E.164, international, national or RFC 3966 text, exactly as
    /// libphonenumber's `format` (`format_number`) does with the same metadata.
    ///
    /// The national significant number is laid out by the first of the metadata's number formats
    /// whose leading digits and pattern match it; the formats are those of the calling code's main
    /// region (the US for +1, `001` for +800). The national format adds the national prefix where
    /// the format's rule says so ("(650) 253-0000", "020 7946 0123"); the international format
    /// uses the region's international formats when it has some. RFC 3966 joins the groups with
    /// `-` after `tel:+` and the calling code.
    ///
    /// An extension is appended to every format but E.164: after `;ext=` in RFC 3966, otherwise
    /// after the region's preferred extension prefix (" x" for the UK) or " ext. ".
    ///
    /// libphonenumber's special cases are kept: E.164 is `+`, the calling code and the national
    /// significant number even for an unknown calling code; for an unknown calling code the
    /// other formats return the bare national significant number, without extension. A national
    /// significant number that no format matches is written unformatted.
    ///
    /// ```swift
    /// let number = try engine.parse(e164: "+16502530000")
    /// engine.format(number, as: .e164)            // "+16502530000"
    /// engine.format(number, as: .international)   // "+1 650-253-0000"
    /// engine.format(number, as: .national)        // "(650) 253-0000"
    /// engine.format(number, as: .rfc3966)         // "tel:+1-650-253-0000"
    /// ```
    ///
    /// - Parameters:
    ///   - number: The number to format. Its ``PhoneNumber/extension`` is used when not empty.
    ///   - format: The layout to produce.
    /// - Returns: The formatted text.
    /// - Complexity: O(n) for the n digits of the number when its format's pattern is made of
    ///   digit runs (most are: `_FormatPlan`), otherwise O(n·m) for the m instructions of the
    ///   region's format patterns (a Pike VM run per candidate format, usually one or two); the
    ///   output is built once, with no other heap allocation than the returned string's storage.
    public func format(_ number: PhoneNumber, as format: PhoneNumberFormat) -> String {
        _format(number, as: format, usePlans: true)
    }

    /// `format(_:as:)`; `usePlans: false` runs every pattern through the Pike VM, for the tests
    /// that check the plans against it.
    func _format(_ number: PhoneNumber, as format: PhoneNumberFormat, usePlans: Bool) -> String {
        if format == .e164 { return formatE164(number) }
        return number.withNationalSignificantNumber { nsn in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
                var writer = _FormatWriter(buffer)
                _format(number, nsn, format, usePlans: usePlans, into: &writer)
                if writer.fits {
                    return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<writer.count]), as: UTF8.self)
                }
                // A long extension: write again into a string of the exact size.
                let size = writer.count
                return String(unsafeUninitializedCapacity: size) { storage in
                    var exact = _FormatWriter(storage)
                    _format(number, nsn, format, usePlans: usePlans, into: &exact)
                    return min(exact.count, size)
                }
            }
        }
    }

    /// Formats a number as E.164 (`+` country code national significant number); an extension is
    /// not part of E.164 and is left out.
    ///
    /// ```swift
    /// engine.formatE164(try engine.parse("020 7946 0123", defaultRegion: "GB"))   // "+442079460123"
    /// ```
    ///
    /// A String of up to 15 bytes is held inline; one of 16 to 21 bytes ("+878...", "+882...",
    /// too-long numbers) needs heap storage. ``PhoneNumber/e164`` is the same text without a
    /// String, and ``PhoneNumber/writeE164(into:)`` writes it into a buffer of yours.
    public func formatE164(_ number: PhoneNumber) -> String {
        number._e164String
    }

    // MARK: - Internals

    /// libphonenumber's `format_number` for one number, written into `writer`.
    func _format(
        _ number: PhoneNumber, _ nsn: UnsafeBufferPointer<UInt8>, _ format: PhoneNumberFormat,
        usePlans: Bool = true, into writer: inout _FormatWriter
    ) {
        guard let index = tables.mainRegion(forCallingCode: number.countryCode) else {
            writer.write(nsn)
            return
        }
        // Fields read in place: a copy of the record would retain each of its strings.
        let regions = store.regions
        switch format {
        case .international:
            writer.write(UInt8(ascii: "+"))
            writer.write(decimal: number.countryCode)
            writer.write(UInt8(ascii: " "))
        case .rfc3966:
            writer.write("tel:+")
            writer.write(decimal: number.countryCode)
            writer.write(UInt8(ascii: "-"))
        case .national, .e164:
            break
        }
        let candidates =
            regions[index].intlFormats.isEmpty || format == .national
            ? regions[index].nationalFormats : regions[index].intlFormats
        _formatNationalSignificantNumber(nsn, candidates, format, usePlans: usePlans, into: &writer)
        if let ext = number.extension, !ext.isEmpty {
            if format == .rfc3966 {
                writer.write(";ext=")
            } else {
                writer.write(regions[index].preferredExtensionPrefix ?? " ext. ")
            }
            writer.write(ext)
        }
    }

    /// libphonenumber's `format_nsn`: chooses the format (`choose_formatting_pattern_for_number`)
    /// and applies it (`format_nsn_using_pattern`, without a carrier code).
    func _formatNationalSignificantNumber(
        _ nsn: UnsafeBufferPointer<UInt8>, _ candidates: Range<Int>, _ format: PhoneNumberFormat,
        usePlans: Bool = true, into writer: inout _FormatWriter
    ) {
        let formats = store.formats  // once, not through `_Store.shared` per candidate
        for i in candidates {
            // The chosen format's record is copied (retaining its strings) once it is chosen.
            let leadingDigits = formats[i].leadingDigits
            if leadingDigits >= 0, !_DFA.prefixMatches(tables.words, leadingDigits, nsn) { continue }
            // The substitution works on the first match from the start, as a regex replace does;
            // the format must also match the whole number to be chosen. A pattern of digit runs
            // (most of them) has a plan that gives that match without the VM.
            let first: _Captures
            let plan = usePlans ? formats[i].plan : nil
            if let plan {
                guard let whole = plan.wholeMatch(nsn) else { continue }
                first = whole
            } else {
                let pattern = formats[i].pattern
                guard let found = _PikeVM.match(tables.words, pattern, nsn, toEnd: false) else { continue }
                if Int(found[1]) != nsn.count, _PikeVM.match(tables.words, pattern, nsn, toEnd: true) == nil { continue }
                first = found
            }
            let numberFormat = formats[i]
            // An international format written "NA" is not used internationally.
            if numberFormat.format == "NA" { continue }
            let prefixRule = format == .national ? numberFormat.nationalPrefixFormattingRule : nil
            var sink = _NationalSink(rfc3966: format == .rfc3966)
            _replaceAll(
                numberFormat, first: first, wholeNumber: plan != nil, nsn, prefixRule: prefixRule.flatMap { $0.isEmpty ? nil : $0 },
                sink: &sink, into: &writer)
            sink.finish(into: &writer)
            return
        }
        writer.write(nsn)
    }

    /// Java's `Matcher.replaceAll` (Python's `re.sub`) of the format's pattern over the national
    /// significant number, with the format rule as the replacement; `first` is the match at the
    /// start. In practice that match covers the whole number and this is a single replacement.
    private func _replaceAll(
        _ numberFormat: _FormatRecord, first: _Captures, wholeNumber: Bool, _ nsn: UnsafeBufferPointer<UInt8>,
        prefixRule: String?,
        sink: inout _NationalSink, into writer: inout _FormatWriter
    ) {
        var rule = numberFormat.format
        var prefix = prefixRule ?? ""
        let hasPrefixRule = prefixRule != nil
        rule.withUTF8 { rule in
            prefix.withUTF8 { prefix in
                let prefixBytes: UnsafeBufferPointer<UInt8>? = hasPrefixRule ? prefix : nil
                _expand(rule, prefixBytes, first, offset: 0, nsn, &sink, &writer)
                var end = Int(first[1])
                if first[1] == first[0] {
                    // An empty match: step over one digit (never happens with the metadata's patterns).
                    if end < nsn.count { sink.write(digit: nsn[end], into: &writer) }
                    end += 1
                }
                // A planned pattern's match is the whole number and it cannot match empty input.
                while !wholeNumber, end <= nsn.count {
                    var start = end
                    var found: _Captures? = nil
                    while start <= nsn.count {
                        let rest = UnsafeBufferPointer(rebasing: nsn[start...])
                        if let captures = _PikeVM.match(tables.words, numberFormat.pattern, rest, toEnd: false) {
                            found = captures
                            break
                        }
                        start += 1
                    }
                    guard let captures = found else { break }
                    for k in end..<start { sink.write(digit: nsn[k], into: &writer) }
                    _expand(rule, prefixBytes, captures, offset: start, nsn, &sink, &writer)
                    if captures[1] == captures[0] {
                        if start < nsn.count { sink.write(digit: nsn[start], into: &writer) }
                        end = start + 1
                    } else {
                        end = start + Int(captures[1])
                    }
                }
                for k in min(end, nsn.count)..<nsn.count { sink.write(digit: nsn[k], into: &writer) }
            }
        }
    }

    /// Writes one replacement: the format rule with `$n` replaced by group n. With a national
    /// prefix formatting rule, the rule's first group reference is replaced by that rule, whose
    /// `$1` stands for the group reference it replaced (libphonenumber's `$FG` handling).
    private func _expand(
        _ rule: UnsafeBufferPointer<UInt8>, _ prefixRule: UnsafeBufferPointer<UInt8>?, _ captures: _Captures,
        offset: Int, _ nsn: UnsafeBufferPointer<UInt8>, _ sink: inout _NationalSink, _ writer: inout _FormatWriter
    ) {
        var prefixPending = prefixRule != nil
        var i = 0
        while i < rule.count {
            if let group = Self._groupReference(rule, at: i) {
                if prefixPending, let prefixRule {
                    prefixPending = false
                    var j = 0
                    while j < prefixRule.count {
                        if let inner = Self._groupReference(prefixRule, at: j) {
                            _writeGroup(inner == 1 ? group : inner, captures, offset, nsn, &sink, &writer)
                            j += 2
                        } else {
                            j += Self._writeScalar(prefixRule, at: j, &sink, &writer)
                        }
                    }
                } else {
                    _writeGroup(group, captures, offset, nsn, &sink, &writer)
                }
                i += 2
            } else {
                i += Self._writeScalar(rule, at: i, &sink, &writer)
            }
        }
    }

    /// The group number of a `$n` reference at `i`, or nil.
    @inline(__always)
    private static func _groupReference(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        guard text[i] == UInt8(ascii: "$"), i + 1 < text.count else { return nil }
        let digit = text[i + 1] &- 0x30
        return digit < 10 ? Int(digit) : nil
    }

    /// Writes the literal scalar at `i` and returns its length in bytes.
    @inline(__always)
    private static func _writeScalar(
        _ text: UnsafeBufferPointer<UInt8>, at i: Int, _ sink: inout _NationalSink, _ writer: inout _FormatWriter
    ) -> Int {
        let length = min(_utf8SequenceLength(text[i]), text.count - i)
        sink.write(scalar: UnsafeBufferPointer(rebasing: text[i..<(i + length)]), into: &writer)
        return length
    }

    /// Writes capture group `group` (empty when it did not take part in the match).
    @inline(__always)
    private func _writeGroup(
        _ group: Int, _ captures: _Captures, _ offset: Int, _ nsn: UnsafeBufferPointer<UInt8>,
        _ sink: inout _NationalSink, _ writer: inout _FormatWriter
    ) {
        guard 2 * group + 1 < _Captures.scalarCount else { return }
        let start = Int(captures[2 * group]), end = Int(captures[2 * group + 1])
        guard start >= 0, end >= start else { return }
        for k in (offset + start)..<min(offset + end, nsn.count) { sink.write(digit: nsn[k], into: &writer) }
    }
}
