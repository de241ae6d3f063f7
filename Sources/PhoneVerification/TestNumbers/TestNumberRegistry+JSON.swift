// JSON and file reading for the test-number registry (the reason it lives here, not in the Foundation-free PhoneNumbers).
import PhoneNumbers
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON form of a registry:
///
/// ```json
/// {
///   "capacity": 10,
///   "acceptedKinds": ["reserved-for-fiction"],
///   "entries": [
///     { "number": "+16505550134", "code": "654321" },
///     { "number": "(650) 555-0167", "region": "US", "code": "123456" }
///   ]
/// }
/// ```
///
/// `capacity` (default 10) and `acceptedKinds` (default: ``TestNumberRegistry/defaultAcceptedKinds``,
/// the ranges a regulator reserves for fiction) are optional. An entry's `number` may be
/// in any form the engine parses; `region` is the default region for national input. Every entry goes
/// through the same checks as ``TestNumberRegistry/add(_:code:defaultRegion:)``, so a file cannot smuggle
/// in a real number. Encoding writes numbers in E.164.
extension TestNumberRegistry: Codable {
    private enum CodingKeys: String, CodingKey {
        case capacity, acceptedKinds, entries
    }

    private struct StoredEntry: Codable {
        var number: String
        var region: String?
        var code: String
    }

    /// Decodes a registry, checking every entry as ``add(_:code:defaultRegion:)`` does.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` whose underlying error is the
    ///   ``TestNumberRegistryError`` of the first refused entry; the decoder's errors otherwise.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let capacity = try container.decodeIfPresent(Int.self, forKey: .capacity) ?? Self.defaultCapacity
        let kinds = try container.decodeIfPresent([FictionalKind].self, forKey: .acceptedKinds)
        let stored = try container.decodeIfPresent([StoredEntry].self, forKey: .entries) ?? []
        do throws(TestNumberRegistryError) {
            var registry = try TestNumberRegistry(
                capacity: capacity, acceptedKinds: kinds.map(Set.init) ?? Self.defaultAcceptedKinds)
            for (position, entry) in stored.enumerated() {
                var region: RegionCode?
                if let text = entry.region {
                    guard let code = RegionCode(text) else {
                        throw TestNumberRegistryError(
                            .invalidJSON, "entries[\(position)]: \"\(text.prefix(20))\" is not a region code such as \"US\".")
                    }
                    region = code
                }
                do {
                    try registry.add(entry.number, code: entry.code, defaultRegion: region)
                } catch {
                    throw TestNumberRegistryError(error.code, "entries[\(position)]: \(error.message)")
                }
            }
            self = registry
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message, underlyingError: error))
        }
    }

    /// Encodes the capacity, the accepted kinds (only when they are not the default, so that a file
    /// follows a stricter default later) and every entry as `{ "number": E.164, "code": ... }`.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(capacity, forKey: .capacity)
        if acceptedKinds != Self.defaultAcceptedKinds {
            try container.encode(FictionalKind.allCases.filter(acceptedKinds.contains), forKey: .acceptedKinds)
        }
        try container.encode(entries.map { StoredEntry(number: $0.e164, region: nil, code: $0.code) }, forKey: .entries)
    }

    /// Loads a registry from JSON (see the format above).
    ///
    /// ```swift
    /// let registry = try TestNumberRegistry(json: Data(#"{"entries":[{"number":"+16505550134","code":"654321"}]}"#.utf8))
    /// ```
    ///
    /// - Parameter json: UTF-8 JSON.
    /// - Throws: ``TestNumberRegistryError``: the error of the first refused entry (with its position),
    ///   `.invalidCapacity`, or `.invalidJSON` for malformed JSON or a wrong shape.
    public init(json: Data) throws(TestNumberRegistryError) {
        do {
            self = try JSONDecoder().decode(TestNumberRegistry.self, from: json)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, let refusal = context.underlyingError as? TestNumberRegistryError {
                throw refusal
            }
            throw TestNumberRegistryError(.invalidJSON, "The test-number JSON is not valid: \(Self.describe(error))")
        } catch {
            throw TestNumberRegistryError(.invalidJSON, "The test-number JSON is not valid: \(error)")
        }
    }

    /// The largest test-number file read: 1 MiB, thousands of entries.
    public static let maximumFileSize = 1 << 20

    /// Loads a registry from a JSON file.
    ///
    /// - Parameter path: The file's path.
    /// - Throws: ``TestNumberRegistryError`` with `.unreadableFile` when the file cannot be read, is
    ///   not a regular file or is larger than ``maximumFileSize``, and the errors of ``init(json:)``.
    public init(contentsOfFile path: String) throws(TestNumberRegistryError) {
        // Checked before reading: a huge file, /dev/zero or a pipe would otherwise be read to its
        // end (all memory, or never).
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TestNumberRegistryError(.unreadableFile, "Cannot read the test-number file \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TestNumberRegistryError(.unreadableFile, "Cannot read the test-number file \(path): it is not a regular file.")
        }
        let tooLarge = TestNumberRegistryError(
            .unreadableFile, "The test-number file \(path) is larger than \(Self.maximumFileSize >> 20) MiB; it holds a few numbers.")
        guard Int(info.st_size) <= Self.maximumFileSize else { throw tooLarge }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TestNumberRegistryError(.unreadableFile, "Cannot read the test-number file \(path): \(error)")
        }
        guard data.count <= Self.maximumFileSize else { throw tooLarge }
        do {
            try self.init(json: data)
        } catch {
            throw TestNumberRegistryError(error.code, "\(path): \(error.message)")
        }
    }

    /// The registry as pretty-printed JSON with sorted keys, which ``init(json:)`` reads back.
    ///
    /// - Returns: UTF-8 JSON.
    /// - Throws: The encoder's errors (none occur for a registry's own values).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys)"
        }
        switch error {
        case .typeMismatch(let type, let context): return "expected \(type)\(path(context)). \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "missing \(type)\(path(context))."
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(path(context))."
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}
