// libphonenumber's example_number, example_number_for_type and example_number_for_non_geo_entity,
// from the metadata's example numbers (the region table's `exampleNumbers` field).

extension PhoneNumberEngine {
    /// An example fixed-line number of a region, as libphonenumber's `getExampleNumber`; nil for
    /// an unknown region (or "001") and for a region without one.
    ///
    /// ```swift
    /// engine.exampleNumber(for: "GB").map { engine.formatE164($0) }   // "+441212345678"
    /// ```
    public func exampleNumber(for region: RegionCode) -> PhoneNumber? {
        exampleNumber(for: region, type: .fixedLine)
    }

    /// An example number of a region and type, as libphonenumber's `getExampleNumberForType`:
    /// the metadata's example for the type (the fixed-line one for ``PhoneNumberType/fixedLineOrMobile``;
    /// none for ``PhoneNumberType/unknown``, whose description has none), read as a national
    /// number of the region. Nil for an unknown region (or "001") and a type without an example.
    ///
    /// ```swift
    /// engine.exampleNumber(for: "GB", type: .mobile).map { engine.formatE164($0) }   // "+447400123456"
    /// ```
    ///
    /// - Complexity: The first call reads the example numbers of every region (about 250); later
    ///   calls parse one number.
    public func exampleNumber(for region: RegionCode, type: PhoneNumberType) -> PhoneNumber? {
        guard region != .nonGeographic, let index = tables.regionIndex(region),
              let example = _ExampleNumbers.example(index, slot: _ExampleNumbers.slot(of: type)) else { return nil }
        return try? parse(example, defaultRegion: region)
    }

    /// An example number of a non-geographic entity (+800, +882, ...), as libphonenumber's
    /// `getExampleNumberForNonGeoEntity`: its first example of a mobile, toll-free, shared-cost,
    /// VoIP, voicemail, UAN or premium-rate number; nil when the code is not one of a
    /// non-geographic entity or it has none.
    ///
    /// ```swift
    /// engine.exampleNumber(forNonGeographicCallingCode: 800).map { engine.formatE164($0) }   // "+80012345678"
    /// ```
    public func exampleNumber(forNonGeographicCallingCode code: Int) -> PhoneNumber? {
        guard let index = tables.mainRegion(forCallingCode: code), store.regions[index].code == "001" else { return nil }
        for type in [PhoneNumberType.mobile, .tollFree, .sharedCost, .voip, .voicemail, .uan, .premiumRate] {
            if let example = _ExampleNumbers.example(index, slot: _ExampleNumbers.slot(of: type)),
               let number = try? parse("+\(code)" + example, defaultRegion: nil) {
                return number
            }
        }
        return nil
    }
}

/// The example numbers of every region, read from the region table on first use (not at the
/// engine's start-up, which they would only slow down).
enum _ExampleNumbers {
    /// Per region line, its examples in `EXAMPLE_SLOTS` order (tools/metadata/schema.py), "" for none.
    static let table: [[Substring]] = _TableText.map(
        _Metadata.regionTable, lines: _Metadata.regionTableLines, fields: _MetadataLayout.regionFields
    ) { (f: _TableText) -> [Substring] in
        (f.string(_RegionField.exampleNumbers) ?? "").split(separator: ",", omittingEmptySubsequences: false)
    }

    /// The slot of a type: the description libphonenumber's `getNumberDescByType` picks.
    static func slot(of type: PhoneNumberType) -> Int {
        switch type {
        case .unknown: 0
        case .fixedLine, .fixedLineOrMobile: 1
        case .mobile: 2
        case .tollFree: 3
        case .premiumRate: 4
        case .sharedCost: 5
        case .voip: 6
        case .personalNumber: 7
        case .pager: 8
        case .uan: 9
        case .voicemail: 10
        }
    }

    /// The example of region line `index` in `slot`, or nil.
    static func example(_ index: Int, slot: Int) -> String? {
        let examples = table[index]
        guard slot < examples.count, !examples[slot].isEmpty else { return nil }
        return String(examples[slot])
    }
}
