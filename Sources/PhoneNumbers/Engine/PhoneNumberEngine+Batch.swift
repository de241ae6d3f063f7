#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

extension PhoneNumberEngine {
    /// Parses and checks one input: everything a validator reports about it.
    ///
    /// ```swift
    /// let check = engine.check("07700 900123", defaultRegion: "GB")
    /// check.isValid            // false
    /// check.fictional?.kind    // .reservedForFiction
    /// ```
    public func check(_ text: String, defaultRegion: RegionCode?) -> PhoneNumberCheck {
        // Strict E.164 that the word path takes (nearly all E.164 input, whatever the default
        // region): the input is already the number's E.164 form, exactly, so it is the result's
        // `e164`, shared, instead of a new String.
        if let word = text.utf8.withContiguousStorageIfAvailable({ _parseE164WordParts($0) }), let parts = word {
            let number = PhoneNumber(parts)
            assert(formatE164(number) == text, "the word path's input is not its E.164 form")
            return _check(number, e164: text)
        }
        let number: PhoneNumber
        do {
            number = try parse(text, defaultRegion: defaultRegion)
        } catch {
            return PhoneNumberCheck(number: nil, error: error, possibility: nil, isValid: false, type: .unknown,
                                    region: nil, fictional: nil, e164: nil)
        }
        return _check(number, input: text)
    }

    /// Checks a number already parsed.
    public func check(_ number: PhoneNumber) -> PhoneNumberCheck {
        _check(number, input: nil)
    }

    /// ``check(_:)``.
    @inline(__always)
    func _check(_ number: PhoneNumber, input: String?) -> PhoneNumberCheck {
        _check(number, e164: formatE164(number))
    }

    /// ``check(_:)`` of a number whose E.164 form is known: one pass over the national significant
    /// number's digits for everything else. The closure captures the calling code, not the number
    /// (which it would copy, extension and all).
    @inline(__always)
    func _check(_ number: PhoneNumber, e164: String) -> PhoneNumberCheck {
        let countryCode = number.countryCode
        let (region, type, possibility) = number.withNationalSignificantNumber { _classification(countryCode, $0) }
        return PhoneNumberCheck(
            number: number, error: nil, possibility: possibility, isValid: type != .unknown,
            type: type, region: region, fictional: fictionalRange(of: number), e164: e164)
    }

    /// Region, type and possibility of a parsed number from its national significant number's
    /// digits: what ``check(_:)`` and the CLI's record check report.
    @inline(__always)
    func _classification(
        _ countryCode: Int, _ digits: UnsafeBufferPointer<UInt8>
    ) -> (region: RegionCode?, type: PhoneNumberType, possibility: PhoneNumberPossibility) {
        var region: RegionCode? = nil
        var type = PhoneNumberType.unknown
        if let (index, found) = _classify(countryCode, digits) {
            region = tables.regionCodes[index]
            type = found
        }
        let possibility = tables.mainRegion(forCallingCode: countryCode).map {
            _possibility(length: digits.count, region: tables.core[$0])
        } ?? .invalidCountryCode
        return (region, type, possibility)
    }

    /// Parses and checks many inputs on all cores; one result per input, in input order. Failures
    /// are results (with ``PhoneNumberCheck/error``), never dropped.
    ///
    /// ```swift
    /// let results = engine.checkBatch(lines.map { PhoneNumberInput($0, defaultRegion: "US") })
    /// ```
    /// - Parameter concurrency: Threads to use; by default one per active processor.
    /// - Complexity: O(n) work split into contiguous chunks across threads.
    public func checkBatch(_ inputs: [PhoneNumberInput], concurrency: Int? = nil) -> [PhoneNumberCheck] {
        let empty = PhoneNumberCheck(number: nil, error: nil, possibility: nil, isValid: false, type: .unknown,
                                     region: nil, fictional: nil, e164: nil)
        var results = [PhoneNumberCheck](repeating: empty, count: inputs.count)
        let threads = max(1, min(concurrency ?? Self.activeProcessorCount, inputs.count / 256 + 1))
        if threads == 1 {
            for i in inputs.indices { results[i] = check(inputs[i].text, defaultRegion: inputs[i].defaultRegion) }
            return results
        }
        let chunk = (inputs.count + threads - 1) / threads
        results.withUnsafeMutableBufferPointer { buffer in
            let out = _SendableBuffer(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                let start = t * chunk
                let end = min(start + chunk, inputs.count)
                guard start < end else { return }
                for i in start..<end {
                    out.base[i] = check(inputs[i].text, defaultRegion: inputs[i].defaultRegion)
                }
            }
        }
        return results
    }

    /// The number of processors this process may use.
    static var activeProcessorCount: Int {
        #if canImport(Glibc)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        return 4
        #endif
    }
}

/// Disjoint writes from worker threads into one result buffer.
private struct _SendableBuffer: @unchecked Sendable {
    let base: UnsafeMutablePointer<PhoneNumberCheck>
}
