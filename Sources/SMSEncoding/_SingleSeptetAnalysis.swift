extension SMSEncoder {
    /// The analysis of a text whose every UTF-8 byte is an ASCII character of one septet in the
    /// default alphabet (letters, digits, space, LF, CR and the common punctuation; not the escaped
    /// `[ \ ] ^ { | } ~` nor `` ` `` or tab), made in one pass over the bytes; `nil` when the text is
    /// anything else, so that the caller takes another path.
    ///
    /// For such a text every option gives the general path's result without work:
    /// - smart encoding and NFC normalization change nothing (tab and `` ` ``, the only ASCII with a
    ///   smart replacement, are excluded; nothing in ASCII composes);
    /// - the default tables are chosen: any national table costs the same septets plus a header
    ///   element, so it needs at least as many segments and leaves fewer septets in the last one;
    /// - every character is one septet and its own split unit, so the segment count and the parts
    ///   follow from the byte count (in grapheme-cluster mode, CR LF is one cluster: a multipart
    ///   text with a CR goes to the general path);
    /// - there is nothing to suggest: no unencodable character, nothing for smart encoding or
    ///   normalization, and national tables cannot save a segment.
    ///
    /// A one-part analysis is one vectorized check and no allocation: its part is built when read
    /// (`_SMSParts.single`). A multipart text's parts are packed straight from the bytes.
    func _analyzeSingleSeptetASCII(_ text: String, concatenationReference reference: UInt16) -> SMSAnalysis? {
        let grapheme = options.splitsAtGraphemeClusterBoundaries
        let index = self.index
        let result: SMSAnalysis?? = text.utf8.withContiguousStorageIfAvailable { bytes -> SMSAnalysis? in
            let count = bytes.count
            if count <= 160 {
                guard _SeptetPacking.isSingleSeptetText(bytes) else { return nil }
                return SMSAnalysis(singlePart: text, encoding: .gsm7, length: count, remainingInLastSegment: 160 - count)
            }
            let identity = _SeptetPacking.isIdentityText(bytes)
            // Non-ASCII text (UCS-2, accented letters, national scripts) leaves in one vectorized pass.
            guard identity || _SeptetPacking.isASCII(bytes) else { return nil }
            // CR LF is one grapheme cluster: leave it to the general path.
            if grapheme && bytes.contains(0x0D) { return nil }
            return index.singleSeptetValues.withUnsafeBufferPointer { map in
                _singleSeptetMultipart(
                    text, septets: bytes, map: map, identity: identity, reference: reference,
                    partText: { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) })
            }
        }
        return result ?? nil
    }

    /// The analysis of a text of more than 160 characters that are each one septet in the default
    /// alphabet, with `septets` its characters (mapped to septets through `map`), `partText` the
    /// text of a range of them; `nil` when some character has no single septet.
    ///
    /// Every character is its own split unit, so part *n* holds characters `n * capacity` up to
    /// the next part's (the caller has sent grapheme-cluster mode with a CR elsewhere).
    func _singleSeptetMultipart(
        _ text: String, septets: UnsafeBufferPointer<UInt8>, map: UnsafeBufferPointer<UInt8>, identity: Bool,
        reference: UInt16, partText: (Range<Int>) -> String
    ) -> SMSAnalysis? {
        let count = septets.count
        let eightBit = options.concatenationReference == .eightBit
        let headerOctets = _Capacity.headerOctets(
            concatenated: true, nationalElements: 0, reference: options.concatenationReference)
        let capacity = Int(_Capacity.septets(headerOctets: headerOctets))
        let total = (count + capacity - 1) / capacity
        let fill = (7 - (headerOctets * 8) % 7) % 7
        let headerSeptets = (headerOctets * 8 + fill) / 7
        var parts: [SMSPart] = []
        parts.reserveCapacity(total)
        for number in 0..<total {
            let start = number * capacity
            let range = start..<min(start + capacity, count)
            let slice = UnsafeBufferPointer(rebasing: septets[range])
            var header: [UInt8]
            if eightBit {
                header = [UInt8(headerOctets - 1), 0x00, 0x03, UInt8(truncatingIfNeeded: reference)]
            } else {
                header = [
                    UInt8(headerOctets - 1), 0x08, 0x04, UInt8(truncatingIfNeeded: reference >> 8),
                    UInt8(truncatingIfNeeded: reference),
                ]
            }
            header.append(UInt8(clamping: total))
            header.append(UInt8(truncatingIfNeeded: number + 1))
            let octets = headerOctets + _SeptetPacking.octetCount(septets: slice.count, fillBits: fill)
            guard let userData = _SeptetPacking.makeOctets(count: octets, { buffer in
                for (offset, octet) in header.enumerated() { buffer[offset] = octet }
                return _SeptetPacking.packMapped(
                    slice, map: map, fillBits: fill, identity: identity,
                    into: UnsafeMutableBufferPointer(rebasing: buffer[headerOctets...]))
            }) else { return nil }
            parts.append(SMSPart(
                text: partText(range), userDataHeader: header, length: slice.count,
                fillBits: fill, userDataLength: headerSeptets + slice.count, userData: userData))
        }
        return SMSAnalysis(
            text: text, encoding: .gsm7, nationalLanguage: nil, length: count, segmentCount: total,
            remainingInLastSegment: total * capacity - count, exceedsConcatenationLimit: total > 255,
            parts: parts, unencodableCharacters: [], changes: [], suggestions: [])
    }
}
