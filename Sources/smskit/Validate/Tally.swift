import PhoneNumbers

/// Counts for `--summary`.
struct _Tally {
    var records = 0
    var parsed = 0
    var valid = 0
    var fictional = 0
    var written = 0
    /// Parsed numbers per region (keyed by code: no String per record) and without a region.
    var byRegionCode: [RegionCode: Int] = [:]
    var withoutRegion = 0
    var byType: [PhoneNumberType: Int] = [:]
    var byFictionalKind: [String: Int] = [:]
    var errors: [String: Int] = [:]
    /// Records with more cells than the kept columns (`--keep`): the extra cells are not written.
    var cutRecords = 0

    mutating func merge(_ other: _Tally) {
        records += other.records
        parsed += other.parsed
        valid += other.valid
        fictional += other.fictional
        written += other.written
        byRegionCode.merge(other.byRegionCode, uniquingKeysWith: +)
        withoutRegion += other.withoutRegion
        byType.merge(other.byType, uniquingKeysWith: +)
        byFictionalKind.merge(other.byFictionalKind, uniquingKeysWith: +)
        errors.merge(other.errors, uniquingKeysWith: +)
        cutRecords += other.cutRecords
    }

    /// Counts one number: why it was not checked (`problem`), or the engine's `check`.
    mutating func count(problem: _RecordProblem?, check: PhoneNumberCheck) {
        records += 1
        if let problem {
            errors[problem.errorName.description, default: 0] += 1
            return
        }
        if let error = check.error { errors[error.code.name, default: 0] += 1 }
        guard check.number != nil else { return }
        parsed += 1
        if check.isValid { valid += 1 }
        countRegion(check.region)
        byType[check.type, default: 0] += 1
        if let fictional = check.fictional {
            self.fictional += 1
            byFictionalKind[fictional.kind.rawValue, default: 0] += 1
        }
    }

    mutating func countRegion(_ region: RegionCode?) {
        if let region { byRegionCode[region, default: 0] += 1 } else { withoutRegion += 1 }
    }

    /// Parsed numbers per region identifier, "no region" for numbers without one.
    var byRegion: [String: Int] {
        var counts = Dictionary(uniqueKeysWithValues: byRegionCode.map { ($0.key.identifier, $0.value) })
        if withoutRegion > 0 { counts["no region"] = withoutRegion }
        return counts
    }
}
