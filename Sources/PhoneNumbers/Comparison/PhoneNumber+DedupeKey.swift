extension PhoneNumber {
    /// A key for finding the same number twice in a list: the E.164 text, then `;ext=` and the
    /// extension when there is one ("+390612345678", "+16502530000;ext=12").
    ///
    /// The key depends on the country calling code, the national significant number (its
    /// leading zeros included) and the extension only, exactly the fields that decide an
    /// ``PhoneNumberMatchType/exactMatch``: two numbers have the same key if and only if they are
    /// an exact match (an empty extension counts as none). It is made from the number alone,
    /// with no metadata, so it is the same in every process, on every machine and with every
    /// metadata version; it is safe to store. Parse the inputs with their region first, so that a
    /// national number gets its calling code: "650 253 0000" in US and "+1 650-253-0000" both
    /// key as "+16502530000". Numbers that only an NSN or short NSN match relates (one side
    /// without a country code, a number without its area code) have different keys: use
    /// ``PhoneNumberEngine/match(_:_:)-(PhoneNumber,PhoneNumber)`` for those.
    ///
    /// ```swift
    /// let a = try engine.parse("+1 (650) 253-0000 ext. 12", defaultRegion: nil)
    /// a.dedupeKey   // "+16502530000;ext=12"
    /// ```
    ///
    /// - Complexity: O(1); one String.
    public var dedupeKey: String {
        guard let ext = `extension`, !ext.isEmpty else { return _e164String }
        return _e164String + ";ext=" + ext
    }
}
