import Dispatch
import PhoneNumbers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The streaming core of `validate`: records are collected into chunks; each chunk is checked
/// with the engine's batch API (all cores), formatted in parallel slices, and written in order.
/// Memory is bounded by one chunk and one read buffer, whatever the input size.
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

    private var rows: [_Row] = []
    private var numberScratch: [UInt8] = []
    private var regionScratch: [UInt8] = []
    private var regionCache: [RegionCode?] = Array(repeating: nil, count: 26 * 26)
    private var output = _Output()
    private var wroteRecords = false
    private var recordsSeen = 0
    private let workers: Int
    private var buffers: [[UInt8]]
    private var partTallies: [_Tally]

    init(engine: PhoneNumberEngine, formatter: _RecordFormatter, chunkSize: Int) {
        self.engine = engine
        self.formatter = formatter
        self.chunkSize = chunkSize
        let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        self.workers = max(1, min(cores, 16))
        self.buffers = Array(repeating: [], count: workers)
        self.partTallies = Array(repeating: _Tally(), count: workers)
        rows.reserveCapacity(chunkSize)
        numberScratch.reserveCapacity(256)
        regionScratch.reserveCapacity(16)
    }

    var isChunkFull: Bool { rows.count >= chunkSize }

    mutating func begin() throws {
        try output.write(formatter.prologue)
    }

    mutating func end() throws {
        try flushChunk(bytesRead: 0)
        try output.write(formatter.epilogue(wroteRecords: wroteRecords))
        try output.flush()
    }

    /// Turns one record into a row of the current chunk.
    mutating func add(_ record: _RecordReader.Record, format: InputFormat) throws {
        if record.isTooLong {
            rows.append(_Row(line: record.line, input: "", problem: .lineTooLong, region: nil))
            return
        }
        _ = _Fields.extract(columns.number, from: record.bytes, format: format, into: &numberScratch)
        var problem: _RecordProblem?
        let input: String
        if numberScratch.contains(0) {
            problem = .nulByte
            input = String(decoding: numberScratch, as: UTF8.self)
        } else if let text = String(validating: numberScratch, as: UTF8.self) {
            input = text
        } else {
            problem = .invalidUTF8
            input = String(decoding: numberScratch, as: UTF8.self)
        }
        var region = defaultRegion
        if let regionIndex = columns.region,
           _Fields.extract(regionIndex, from: record.bytes, format: format, into: &regionScratch) {
            switch regionCell() {
            case .useDefault: break
            case .region(let code): region = code
            case .invalidUTF8: if problem == nil { problem = .invalidUTF8 }
            }
        }
        rows.append(_Row(line: record.line, input: input, problem: problem, region: region))
    }

    private enum RegionCell {
        case useDefault
        case region(RegionCode?)
        case invalidUTF8
    }

    /// Reads `regionScratch`: empty -> the default, ZZ -> none, a code -> the code.
    private mutating func regionCell() -> RegionCell {
        var lower = 0
        var upper = regionScratch.count
        while lower < upper, regionScratch[lower] == UInt8(ascii: " ") || regionScratch[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, regionScratch[upper - 1] == UInt8(ascii: " ") || regionScratch[upper - 1] == UInt8(ascii: "\t") { upper -= 1 }
        if lower == upper { return .useDefault }
        if upper - lower == 2 {
            let first = regionScratch[lower] | 0x20
            let second = regionScratch[lower + 1] | 0x20
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(second) {
                if first == UInt8(ascii: "z") && second == UInt8(ascii: "z") { return .region(nil) }
                let slot = Int(first - UInt8(ascii: "a")) * 26 + Int(second - UInt8(ascii: "a"))
                if let cached = regionCache[slot] { return .region(cached) }
                let code = RegionCode(String(decoding: [first - 32, second - 32], as: UTF8.self))
                regionCache[slot] = code
                return .region(code)
            }
        }
        let cell = Array(regionScratch[lower..<upper])
        guard let text = String(validating: cell, as: UTF8.self) else { return .invalidUTF8 }
        if let code = RegionCode(text) { return .region(code) }
        badRegionCount += 1
        if badRegion == nil { badRegion = String(text.prefix(32)) }
        return .region(nil)
    }

    /// Checks, formats and writes the rows collected so far.
    mutating func flushChunk(bytesRead: Int) throws {
        guard !rows.isEmpty else { return }
        var inputs: [PhoneNumberInput] = []
        inputs.reserveCapacity(rows.count)
        var resultIndex = [Int32](repeating: -1, count: rows.count)
        for (position, row) in rows.enumerated() where row.problem == nil {
            resultIndex[position] = Int32(inputs.count)
            inputs.append(PhoneNumberInput(row.input, defaultRegion: row.region))
        }
        let results = _Checker.checkBatch(engine, inputs)
        precondition(results.count == inputs.count, "the engine must return one result per input")

        let parts = rows.count >= 2048 ? workers : 1
        let count = rows.count
        rows.withUnsafeBufferPointer { rowBuffer in
            resultIndex.withUnsafeBufferPointer { indexBuffer in
                results.withUnsafeBufferPointer { resultBuffer in
                    buffers.withUnsafeMutableBufferPointer { outBuffers in
                        partTallies.withUnsafeMutableBufferPointer { tallies in
                            let work = _FormatWork(
                                formatter: formatter, parts: parts, count: count, rows: rowBuffer,
                                resultIndex: indexBuffer, results: resultBuffer, outputs: outBuffers, tallies: tallies)
                            if parts == 1 {
                                work.run(part: 0)
                            } else {
                                DispatchQueue.concurrentPerform(iterations: parts) { work.run(part: $0) }
                            }
                        }
                    }
                }
            }
        }
        for part in 0..<parts {
            tally.merge(partTallies[part])
            guard !buffers[part].isEmpty else { continue }
            if formatter.format == .json && !wroteRecords {
                // Drop the separator before the first record of the output.
                try buffers[part].withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[1...])) }
            } else {
                try output.write(buffers[part])
            }
            wroteRecords = true
        }
        recordsSeen += rows.count
        rows.removeAll(keepingCapacity: true)
        progress.update(records: recordsSeen, bytes: finishedBytes + bytesRead)
    }
}

/// One chunk's formatting, split into `parts` slices that run on separate threads. Each slice
/// writes only its own output buffer and tally; the pointers outlive the concurrent call.
private struct _FormatWork: @unchecked Sendable {
    let formatter: _RecordFormatter
    let parts: Int
    let count: Int
    let rows: UnsafeBufferPointer<_Row>
    let resultIndex: UnsafeBufferPointer<Int32>
    let results: UnsafeBufferPointer<PhoneNumberCheck>
    let outputs: UnsafeMutableBufferPointer<[UInt8]>
    let tallies: UnsafeMutableBufferPointer<_Tally>

    func run(part: Int) {
        let lower = count * part / parts
        let upper = count * (part + 1) / parts
        outputs[part].removeAll(keepingCapacity: true)
        tallies[part] = _Tally()
        formatter.append(
            rows: UnsafeBufferPointer(rebasing: rows[lower..<upper]),
            resultIndex: UnsafeBufferPointer(rebasing: resultIndex[lower..<upper]),
            results: results, to: &outputs[part], tally: &tallies[part])
    }
}
