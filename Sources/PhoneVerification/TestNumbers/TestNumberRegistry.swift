import PhoneNumbers

/// A list of test phone numbers, each with a fixed verification code, under Firebase's rules.
///
/// A gateway that sends verification codes lets developers register a few test numbers: no SMS is
/// ever sent to them, and the code is always the registered one. The registry keeps that list safe:
///
/// - every number must be fictional (see ``FictionalRanges``), so no real person's number can be
///   captured as a test number; a real number is refused with an error that says why. By default
///   only ranges a regulator reserves for fiction are accepted (``defaultAcceptedKinds``): the
///   NANP 555 numbers outside 555-0100 to 0199 (such as Firebase's +1 650-555-3434) can be assigned
///   to real subscribers, and "reported" ranges were never confirmed by the regulator;
/// - every code is exactly six ASCII digits;
/// - a number is registered once; at most ``capacity`` numbers (10 by default, as in Firebase);
/// - a number is found whatever form it is written in: national, international, E.164.
///
/// The registry is a value: copies are independent, and reading one from many threads is safe.
/// It is `Codable` and loads from JSON (see ``init(json:)`` and ``init(contentsOfFile:)``).
///
/// ```swift
/// var registry = try TestNumberRegistry()
/// try registry.add("+1 650-555-0134", code: "654321")
/// try registry.add("+447700900123", code: "123456")
/// registry.code(for: "(650) 555-0134", defaultRegion: "US")   // "654321"
/// try registry.add("+1 650-253-0000", code: "111111")          // throws .notFictional
/// try registry.add("+1 650-555-3434", code: "111111")          // throws .kindNotAccepted
/// ```
public struct TestNumberRegistry: Sendable {
    /// Firebase's limit: 10 test numbers per project.
    public static let defaultCapacity = 10

    /// The kinds accepted unless told otherwise: only ``FictionalKind/reservedForFiction``, the
    /// numbers that regulators keep out of service, so that a test number (which skips every
    /// limit and has a fixed code) can never be a real person's phone.
    public static let defaultAcceptedKinds: Set<FictionalKind> = [.reservedForFiction]

    /// One registered test number.
    public struct Entry: Sendable, Hashable {
        /// The number, without extension.
        public let number: PhoneNumber
        /// The fixed verification code: six ASCII digits.
        public let code: String
        /// The fictional range the number is in.
        public let fictionalRange: FictionalRange
        /// The number in E.164, e.g. `+16505550134`.
        public let e164: String
    }

    /// The registered numbers, in the order they were added.
    public private(set) var entries: [Entry] = []

    /// The largest number of entries the registry accepts.
    public let capacity: Int

    /// The kinds of fictional number the registry accepts as test numbers.
    public let acceptedKinds: Set<FictionalKind>

    private var index: [NumberKey: Int] = [:]
    /// Engines share one immutable store, so making one is cheap.
    private var engine: PhoneNumberEngine { PhoneNumberEngine() }

    /// Creates an empty registry.
    ///
    /// - Parameters:
    ///   - capacity: The most numbers the registry holds; 10 by default, as in Firebase.
    ///   - acceptedKinds: The kinds of fictional number accepted; ``defaultAcceptedKinds`` (only
    ///     numbers a regulator reserves) by default. Pass `Set(FictionalKind.allCases)` to accept
    ///     the NANP 555 convention and reported ranges too, knowing they may reach a real person.
    /// - Throws: ``TestNumberRegistryError`` with `.invalidCapacity` when `capacity` is below 1 or
    ///   `acceptedKinds` is empty.
    public init(
        capacity: Int = defaultCapacity, acceptedKinds: Set<FictionalKind> = defaultAcceptedKinds
    ) throws(TestNumberRegistryError) {
        guard capacity >= 1 else {
            throw TestNumberRegistryError(.invalidCapacity, "The capacity must be at least 1, not \(capacity).")
        }
        guard !acceptedKinds.isEmpty else {
            throw TestNumberRegistryError(.invalidCapacity, "Accept at least one kind of fictional number.")
        }
        self.capacity = capacity
        self.acceptedKinds = acceptedKinds
    }

    /// Parses a number and registers it with its code.
    ///
    /// - Parameters:
    ///   - text: The number in any form the engine parses: `+1 650-555-0134`, `+16505550134`, or
    ///     national `(650) 555-0134` with `defaultRegion`.
    ///   - code: The verification code: exactly six ASCII digits.
    ///   - defaultRegion: The region national input is dialled from; `nil` for international input.
    /// - Returns: The new entry.
    /// - Throws: ``TestNumberRegistryError``: `.unparseable`, `.invalidCode`, `.hasExtension`,
    ///   `.notFictional` (a number that may be real), `.kindNotAccepted`, `.duplicate` or `.full`.
    /// - Complexity: O(*n*) in the length of `text`; O(1) amortized otherwise.
    @discardableResult
    public mutating func add(
        _ text: String, code: String, defaultRegion: RegionCode? = nil
    ) throws(TestNumberRegistryError) -> Entry {
        try add(parse(text, defaultRegion: defaultRegion), code: code)
    }

    /// Registers a parsed number with its code.
    ///
    /// - Parameters:
    ///   - number: The number; it must not have an extension.
    ///   - code: The verification code: exactly six ASCII digits.
    /// - Returns: The new entry.
    /// - Throws: ``TestNumberRegistryError``: `.invalidCode`, `.hasExtension`, `.notFictional`,
    ///   `.kindNotAccepted`, `.duplicate` or `.full`.
    @discardableResult
    public mutating func add(_ number: PhoneNumber, code: String) throws(TestNumberRegistryError) -> Entry {
        let e164 = engine.formatE164(number)
        guard Self.isValidCode(code) else {
            let shown = code.count > 20 ? String(code.prefix(20)) + "..." : code
            throw TestNumberRegistryError(
                .invalidCode,
                "The code for \(e164) must be exactly 6 digits 0-9; \"\(shown)\" has \(code.count) characters"
                    + (code.count == 6 ? ", not all of them ASCII digits." : "."))
        }
        if let ext = number.extension, !ext.isEmpty {
            throw TestNumberRegistryError(
                .hasExtension, "\(e164) has the extension \(ext); register the number without an extension.")
        }
        guard let range = engine.fictionalRange(of: number) else {
            throw TestNumberRegistryError(
                .notFictional,
                "\(e164) is not in any fictional range, so it may belong to a real person and cannot be a test "
                    + "number. Use a number kept out of service, such as +1 NPA 555-0100 to 0199 or +44 7700 900000 to 900999.")
        }
        guard acceptedKinds.contains(range.kind) else {
            let accepted = FictionalKind.allCases.filter(acceptedKinds.contains).map(\.rawValue).joined(separator: ", ")
            throw TestNumberRegistryError(
                .kindNotAccepted,
                "\(e164) is fictional only as \(range.kind.rawValue) (\(range.note)); this registry accepts \(accepted).")
        }
        let key = NumberKey(number)
        guard index[key] == nil else {
            throw TestNumberRegistryError(
                .duplicate, "\(e164) is already registered; remove it first to change its code.")
        }
        guard entries.count < capacity else {
            throw TestNumberRegistryError(
                .full, "The registry already holds its maximum of \(capacity) numbers; remove one before adding \(e164).")
        }
        var stored = number
        stored.extension = nil
        let entry = Entry(number: stored, code: code, fictionalRange: range, e164: e164)
        index[key] = entries.count
        entries.append(entry)
        return entry
    }

    /// The entry for a number written in any form, or `nil` when it is not registered or does not
    /// parse.
    ///
    /// - Parameters:
    ///   - text: The number: national (with `defaultRegion`), international or E.164.
    ///   - defaultRegion: The region national input is dialled from.
    /// - Returns: The entry, or `nil`.
    /// - Complexity: O(*n*) in the length of `text`.
    public func entry(for text: String, defaultRegion: RegionCode? = nil) -> Entry? {
        guard let number = try? engine.parse(text, defaultRegion: defaultRegion) else { return nil }
        return entry(for: number)
    }

    /// The entry for a parsed number (its extension is ignored), or `nil`.
    ///
    /// - Parameter number: The number.
    /// - Returns: The entry, or `nil`.
    /// - Complexity: O(1).
    public func entry(for number: PhoneNumber) -> Entry? {
        index[NumberKey(number)].map { entries[$0] }
    }

    /// The verification code of a number written in any form, or `nil` when it is not registered.
    ///
    /// - Parameters:
    ///   - text: The number: national (with `defaultRegion`), international or E.164.
    ///   - defaultRegion: The region national input is dialled from.
    /// - Returns: The six-digit code, or `nil`.
    public func code(for text: String, defaultRegion: RegionCode? = nil) -> String? {
        entry(for: text, defaultRegion: defaultRegion)?.code
    }

    /// Removes a number written in any form.
    ///
    /// - Parameters:
    ///   - text: The number: national (with `defaultRegion`), international or E.164.
    ///   - defaultRegion: The region national input is dialled from.
    /// - Returns: The removed entry, or `nil` when the number was not registered.
    /// - Complexity: O(*n*) in the number of entries.
    @discardableResult
    public mutating func remove(_ text: String, defaultRegion: RegionCode? = nil) -> Entry? {
        guard let number = try? engine.parse(text, defaultRegion: defaultRegion),
            let position = index[NumberKey(number)]
        else { return nil }
        let removed = entries.remove(at: position)
        index = [:]
        for (offset, entry) in entries.enumerated() { index[NumberKey(entry.number)] = offset }
        return removed
    }

    /// Whether `code` is exactly six ASCII digits.
    static func isValidCode(_ code: String) -> Bool {
        var count = 0
        for byte in code.utf8 {
            guard byte &- UInt8(ascii: "0") < 10, count < 6 else { return false }
            count &+= 1
        }
        return count == 6
    }

    private func parse(_ text: String, defaultRegion: RegionCode?) throws(TestNumberRegistryError) -> PhoneNumber {
        do {
            return try engine.parse(text, defaultRegion: defaultRegion)
        } catch {
            let shown = text.count > 40 ? String(text.prefix(40)) + "..." : text
            throw TestNumberRegistryError(
                .unparseable, "\"\(shown)\" is not a phone number (\(error.code.name)): \(error.message)")
        }
    }

    /// A number's identity for lookups: its extension does not count.
    private struct NumberKey: Hashable, Sendable {
        var countryCode: Int
        var nationalNumber: UInt64
        var leadingZeros: Int

        init(_ number: PhoneNumber) {
            countryCode = number.countryCode
            nationalNumber = number.nationalNumber
            leadingZeros = number.leadingZeros
        }
    }
}

extension TestNumberRegistry: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.capacity == rhs.capacity && lhs.acceptedKinds == rhs.acceptedKinds && lhs.entries == rhs.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(capacity)
        hasher.combine(acceptedKinds)
        hasher.combine(entries)
    }
}
