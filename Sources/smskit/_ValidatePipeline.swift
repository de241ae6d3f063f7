import Dispatch
import PhoneNumbers
import SMSKitRecords

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The streaming core of `validate`.
///
/// The reader's records are copied into a chunk (one byte arena and one entry per record). A full
/// chunk is cut into contiguous slices that run on all cores; each slice extracts its fields,
/// checks the UTF-8, checks each number over its bytes and formats its output records into its
/// own buffer. The buffers are then written in slice order, so the output keeps the input
/// order. Only the record splitting and the writes are serial. Memory is bounded by one chunk,
/// one read buffer and the slice buffers, whatever the input size.
struct _ValidatePipeline {
    let engine: PhoneNumberEngine
    let formatter: _RecordFormatter
    let chunkSize: Int
    var progress = _Progress(enabled: false, totalBytes: nil)

    /// The number column and the optional region column (0-based) of the current file.
    var columns: (number: Int, region: Int?) = (0, nil)
    /// `--region`.
    var defaultRegion: RegionCode?

    private(set) var tally = _Tally()
    /// Bytes of the files already finished (for progress).
    var finishedBytes = 0
    /// The first region cell that was not a region code, and how many there were.
    private(set) var badRegion: String?
    private(set) var badRegionCount = 0

    private var arena: [UInt8] = []
    private var entries: [_ChunkEntry] = []
    private var chunkFormat: InputFormat = .lines
    private var output = _Output()
    private var wroteRecords = false
    private var recordsSeen = 0
    private let slices: Int
    private var results: [_SliceResult]
    private let regionTable = _RegionTable()

    init(engine: PhoneNumberEngine, formatter: _RecordFormatter, chunkSize: Int) {
        self.engine = engine
        self.formatter = formatter
        self.chunkSize = chunkSize
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        // More slices than cores, so that a slow slice does not leave a core idle.
        self.slices = max(1, min(cores, 64)) * 4
        self.results = Array(repeating: _SliceResult(), count: slices)
        entries.reserveCapacity(chunkSize)
        arena.reserveCapacity(chunkSize * 32)
    }

    var isChunkFull: Bool { entries.count >= chunkSize }

    mutating func begin() throws {
        try output.write(formatter.prologue)
    }

    mutating func end() throws {
        try flushChunk(bytesRead: 0)
        try output.write(formatter.epilogue(wroteRecords: wroteRecords))
        try output.flush()
    }

    /// Copies one record into the current chunk.
    mutating func add(_ record: RecordReader.Record, format: InputFormat) throws {
        if entries.isEmpty { chunkFormat = format }
        let start = arena.count
        if !record.isTooLong { arena.append(contentsOf: record.bytes) }
        entries.append(_ChunkEntry(line: record.line, start: start, count: arena.count - start, isTooLong: record.isTooLong))
    }

    /// Checks, formats and writes the records collected so far.
    mutating func flushChunk(bytesRead: Int) throws {
        guard !entries.isEmpty else { return }
        let count = entries.count
        let parts = count >= 1024 ? slices : 1
        let setup = _SliceSetup(
            engine: engine, formatter: formatter, format: chunkFormat, columns: columns,
            defaultRegion: defaultRegion, regionTable: regionTable, parts: parts, count: count)
        arena.withUnsafeBytes { arenaBytes in
            entries.withUnsafeBufferPointer { entryBuffer in
                results.withUnsafeMutableBufferPointer { resultBuffer in
                    let work = _SliceWork(setup: setup, arena: arenaBytes, entries: entryBuffer, results: resultBuffer)
                    if parts == 1 {
                        work.run(slice: 0)
                    } else {
                        DispatchQueue.concurrentPerform(iterations: parts) { work.run(slice: $0) }
                    }
                }
            }
        }
        for part in 0..<parts {
            tally.merge(results[part].tally)
            if let bad = results[part].badRegion, badRegion == nil { badRegion = bad }
            badRegionCount += results[part].badRegionCount
            guard !results[part].output.isEmpty else { continue }
            if formatter.format == .json && !wroteRecords {
                // Drop the separator before the first record of the output.
                try results[part].output.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[1...])) }
            } else {
                try output.write(results[part].output)
            }
            wroteRecords = true
        }
        recordsSeen += count
        entries.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
        progress.update(records: recordsSeen, bytes: finishedBytes + bytesRead)
        if let signal = _Interrupt.received { try stop(signal) }
    }

    /// Ends the output after the records written so far (with the format's epilogue, so that a
    /// JSON array is closed) and throws ``CLIError/interrupted(_:records:)``.
    private mutating func stop(_ signal: Int32) throws -> Never {
        try output.write(formatter.epilogue(wroteRecords: wroteRecords))
        try output.flush()
        throw CLIError.interrupted(signal, records: recordsSeen)
    }
}

/// One record of a chunk: its line and its bytes in the chunk's arena.
struct _ChunkEntry {
    var line: Int
    var start: Int
    var count: Int
    var isTooLong: Bool
}

/// What one slice produced.
struct _SliceResult {
    var output: [UInt8] = []
    var tally = _Tally()
    var badRegion: String?
    var badRegionCount = 0
}

/// The immutable parameters of one chunk's slices.
struct _SliceSetup: @unchecked Sendable {
    let engine: PhoneNumberEngine
    let formatter: _RecordFormatter
    let format: InputFormat
    let columns: (number: Int, region: Int?)
    let defaultRegion: RegionCode?
    let regionTable: _RegionTable
    let parts: Int
    let count: Int
}

/// One chunk's work, split into slices that run on separate threads. Each slice reads the shared
/// arena and entries and writes only its own result; the pointers outlive the concurrent call.
private struct _SliceWork: @unchecked Sendable {
    let setup: _SliceSetup
    let arena: UnsafeRawBufferPointer
    let entries: UnsafeBufferPointer<_ChunkEntry>
    let results: UnsafeMutableBufferPointer<_SliceResult>

    func run(slice: Int) {
        let lower = setup.count * slice / setup.parts
        let upper = setup.count * (slice + 1) / setup.parts
        // Moved out, not copied: with a second reference to its buffer, the first append would
        // copy the output buffer (a fresh allocation per slice and chunk, on whichever thread).
        var result = (results.baseAddress! + slice).move()
        defer { (results.baseAddress! + slice).initialize(to: result) }
        result.output.removeAll(keepingCapacity: true)
        result.tally = _Tally()
        result.badRegion = nil
        result.badRegionCount = 0

        var numberScratch: [UInt8] = []
        numberScratch.reserveCapacity(256)
        var regionScratch: [UInt8] = []
        regionScratch.reserveCapacity(16)
        result.output.reserveCapacity((upper - lower) * 160)

        for position in lower..<upper {
            let entry = entries[position]
            let (problem, region) = readFields(entry, numberScratch: &numberScratch, regionScratch: &regionScratch, result: &result)
            if let problem {
                // Shown as read, with U+FFFD for bytes that are not UTF-8; never checked.
                var shown = entry.isTooLong ? "" : String(decoding: numberScratch, as: UTF8.self)
                shown.withUTF8 { input in
                    setup.formatter.append(line: entry.line, input: input, problem: problem, check: nil,
                                           to: &result.output, tally: &result.tally)
                }
            } else {
                numberScratch.withUnsafeBufferPointer { input in
                    let check = _Checker.checkRecord(setup.engine, utf8: input, defaultRegion: region)
                    setup.formatter.append(line: entry.line, input: input, problem: nil, check: check,
                                           to: &result.output, tally: &result.tally)
                }
            }
        }
    }

    /// Extracts the record's number field into `numberScratch` and reads its region cell; returns
    /// why the record cannot be checked (if so) and its default region.
    private func readFields(_ entry: _ChunkEntry, numberScratch: inout [UInt8], regionScratch: inout [UInt8],
                            result: inout _SliceResult) -> (_RecordProblem?, RegionCode?) {
        if entry.isTooLong { return (.lineTooLong, nil) }
        let record = UnsafeRawBufferPointer(rebasing: arena[entry.start..<(entry.start + entry.count)])
        _ = RecordFields.extract(setup.columns.number, from: record, format: setup.format, into: &numberScratch)
        var problem: _RecordProblem?
        var ascii = true
        for byte in numberScratch where byte == 0 || byte >= 0x80 { ascii = false; break }
        if !ascii {
            if numberScratch.contains(0) {
                problem = .nulByte
            } else if String(validating: numberScratch, as: UTF8.self) == nil {
                problem = .invalidUTF8
            }
        }
        var region = setup.defaultRegion
        if let regionIndex = setup.columns.region,
           RecordFields.extract(regionIndex, from: record, format: setup.format, into: &regionScratch) {
            switch setup.regionTable.cell(regionScratch) {
            case .useDefault: break
            case .region(let code): region = code
            case .invalidUTF8: if problem == nil { problem = .invalidUTF8 }
            case .notARegion(let text):
                region = nil
                result.badRegionCount += 1
                if result.badRegion == nil { result.badRegion = String(text.prefix(32)) }
            }
        }
        return (problem, region)
    }
}

/// Region cells to region codes: every two-letter code is made once, up front, so that slices
/// share one immutable table.
final class _RegionTable: @unchecked Sendable {
    enum Cell {
        /// Empty: the default region applies.
        case useDefault
        /// A code, or `nil` for ZZ (no default region).
        case region(RegionCode?)
        case invalidUTF8
        /// Not a region code: the row has no default region.
        case notARegion(String)
    }

    private let twoLetter: [RegionCode?]

    init() {
        var table: [RegionCode?] = []
        table.reserveCapacity(26 * 26)
        for first in UInt8(ascii: "A")...UInt8(ascii: "Z") {
            for second in UInt8(ascii: "A")...UInt8(ascii: "Z") {
                table.append(first == UInt8(ascii: "Z") && second == UInt8(ascii: "Z")
                    ? nil : RegionCode(String(decoding: [first, second], as: UTF8.self)))
            }
        }
        twoLetter = table
    }

    /// Reads a cell: spaces trimmed; empty -> the default, ZZ -> none, a code -> the code.
    func cell(_ bytes: [UInt8]) -> Cell {
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") { upper -= 1 }
        if lower == upper { return .useDefault }
        if upper - lower == 2 {
            let first = bytes[lower] | 0x20
            let second = bytes[lower + 1] | 0x20
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(second) {
                return .region(twoLetter[Int(first - UInt8(ascii: "a")) * 26 + Int(second - UInt8(ascii: "a"))])
            }
        }
        let cell = Array(bytes[lower..<upper])
        guard let text = String(validating: cell, as: UTF8.self) else { return .invalidUTF8 }
        if let code = RegionCode(text) { return .region(code) }
        return .notARegion(text)
    }
}
