/// The phone-number engine: parses, validates, classifies and formats numbers with
/// libphonenumber's metadata compiled ahead of time into automata.
///
/// An engine is an immutable value, cheap to create and to share between threads: all engines
/// read the same generated tables, which need no loading step.
///
/// ```swift
/// let engine = PhoneNumberEngine()
/// let number = try engine.parse(e164: "+16502530000")
/// engine.isValid(number)              // true
/// engine.type(of: number)             // .fixedLineOrMobile
/// engine.region(of: number)           // "US"
/// engine.format(number, as: .e164)    // "+16502530000"
/// ```
public struct PhoneNumberEngine: @unchecked Sendable {
    /// The shared store's tables (`_Tables`), by a plain pointer: the hot paths read them without
    /// touching the store object, and copying an engine copies one word. A strong reference to
    /// the store cost an atomic retain and release of it in every `classify` of a number of a
    /// shared calling code, and an atomic operation is a fence the walk's loads cannot pass.
    /// `@unchecked Sendable`: the tables are immutable and live as long as the process.
    private let _tables: UnsafePointer<_Tables>

    /// Creates an engine over the bundled metadata (see ``metadataVersion``).
    public init() { _tables = UnsafePointer(_Store.shared.tables) }

    /// The tables the hot paths read.
    var tables: _Tables {
        @inline(__always) get { _tables.pointee }
    }

    /// The store behind the tables, for what the hot paths do not read (records, formats).
    var store: _Store { _Store.shared }

    /// The version of libphonenumber's metadata the tables were generated from (PyPI
    /// `phonenumbers`), e.g. "9.0.43".
    public static var metadataVersion: String { _Metadata.version }

    /// Builds the metadata index from the generated tables once more and returns the number of
    /// entities; for the "metadata ready" benchmark only. SPI: not API.
    @_spi(Tools) public static func buildMetadataIndexForBenchmark() -> Int {
        _Store().regions.count
    }

    /// Reads the number formats from the generated table once more and returns their number; for
    /// the benchmarks only (an engine reads them on its first national, international or RFC 3966
    /// format, not when it is made). SPI: not API.
    @_spi(Tools) public static func buildNumberFormatsForBenchmark() -> Int {
        _Store.buildFormats().count
    }

    /// All regions the metadata knows, sorted (ISO 3166-1 alpha-2 codes).
    public var supportedRegions: [RegionCode] {
        store.regions.filter { $0.code != "001" }.map { RegionCode(unchecked: $0.code) }
    }

    /// The calling codes of the non-geographic entities (+800, +808, ...).
    public var nonGeographicCallingCodes: [Int] {
        store.regions.filter { $0.code == "001" }.map { Int($0.countryCode) }
    }

    /// The country calling code of a region, e.g. 44 for "GB"; nil for an unknown region.
    public func countryCode(for region: RegionCode) -> Int? {
        tables.regionIndex(region).map { Int(store.regions[$0].countryCode) }
    }

    /// The main region of a country calling code ("US" for 1, "001" for 800), or nil when the
    /// code is unknown.
    public func mainRegion(forCountryCode code: Int) -> RegionCode? {
        tables.mainRegion(forCallingCode: code).map { tables.regionCodes[$0] }
    }
}
