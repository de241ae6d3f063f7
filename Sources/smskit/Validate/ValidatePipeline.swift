import PhoneNumbers
import SMSKitCommandLine
import SMSKitBatch
import SMSKitJSON
import SMSKitRecords
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The streaming core of `validate`.
///
/// The reader's records are copied into a chunk (one byte arena and one entry per record). A full
/// chunk is submitted to an ``OrderedBatchLoop``, which cuts it into contiguous slices that run on
/// the cores while this thread fills the next chunk; each slice reads its fields in place, checks
/// the UTF-8, checks each number over its bytes and formats its output records into its own
/// buffer. This thread takes the chunks back in input order and writes their buffers in slice
/// order, so the output keeps the input order. Memory is bounded by ``depth`` chunks, one read
/// buffer and the slice buffers, whatever the input size.
struct _ValidatePipeline {
    let engine: PhoneNumberEngine
    /// Whether the records are counted for `--summary`.
    let tallies: Bool
    let chunkSize: Int
    var progress = _Progress(enabled: false, totalBytes: nil)

    /// The number column and the optional region column (0-based) of the current file.
    var columns: (number: Int, region: Int?) = (0, nil)
    /// The number columns (0-based) of the current file when there is a ``plan``.
    var numberColumns: [Int] = [0]
    /// The current file's name (the `file` field).
    var fileName = ""
    /// Whether ``plan`` is still to be made from the first file's header (its column names and
    /// number columns); until then, the plan given at the start, which is also the output of no
    /// records at all.
    var planFromHeader = false
    /// What was found in each file, for the summary.
    var fileFacts: [_Summary.FileFacts] = []
    /// Records read (the header rows not included), whether written or not.
    var recordsRead: Int { recordsSeen }
    /// The physical lines of those records (more than ``recordsRead`` when quoted fields hold
    /// line breaks).
    var linesRead: Int { linesSeen }
    /// What is written for the records. Set before the first record is added.
    var plan: _OutputPlan {
        didSet { if plan.unique { sink.enableUnique() } }
    }
    /// `--region`.
    var defaultRegion: RegionCode?

    private(set) var tally = _Tally()
    /// Bytes of the files already finished (for progress).
    var finishedBytes = 0
    /// The first region cell that was not a region code, and how many there were.
    private(set) var badRegion: String?
    private(set) var badRegionCount = 0

    /// Chunks in use at once: one being filled while the other is checked. Two are enough:
    /// filling a chunk takes a tenth of the time to check it, and a full chunk's slices queue
    /// up behind the ones running, so the workers do not wait between chunks.
    static let depth = 2
    /// Chunks smaller than this are checked on this thread, as one slice.
    static let smallChunk = 1024

    private let sink: _Sink
    private var filling: _Chunk
    /// Chunks handed to the workers, given back oldest first.
    private let loop = OrderedBatchLoop<_Chunk>(window: Self.depth)
    private var idle: [_Chunk] = []
    private var chunksMade = 1
    private var recordsSeen = 0
    private var linesSeen = 0
    private let slices: Int
    private let regionTable = _RegionTable()
    private var begun = false

    init(engine: PhoneNumberEngine, plan: _OutputPlan, tallies: Bool, chunkSize: Int) {
        self.engine = engine
        self.plan = plan
        self.tallies = tallies
        self.chunkSize = chunkSize
        self.slices = OrderedBatchLoop<_Chunk>.slices(for: .max, minimumPerSlice: 1)
        self.sink = _Sink(format: plan.format)
        self.filling = _Chunk(capacity: chunkSize, slices: slices)
        if plan.unique { sink.enableUnique() }
    }

    /// Full at `chunkSize` records or at 4 MiB of record bytes, whichever comes first: memory
    /// is bounded by bytes, not only records (16,384 records of 64 KiB would be 1 GiB, and
    /// their JSON six times that).
    var isChunkFull: Bool { filling.count >= chunkSize || filling.arena.count >= Self.chunkByteLimit }

    /// The record bytes one chunk holds before it is flushed.
    static let chunkByteLimit = 4 << 20

    /// Writes the header row or `[` once, before the first records (or at the end, when there
    /// are none): the header of a ``plan`` may be known only once the first file's header is read.
    private mutating func begin() throws {
        guard !begun else { return }
        begun = true
        try sink.write(plan.prologue)
    }

    /// Records dropped by `--unique`.
    var duplicates: Int { sink.duplicates }

    mutating func end() throws {
        try begin()
        try flushChunk(bytesRead: 0)
        while try collectOldest() {}
        // A signal that ended the input early (see `_Interrupt.waitForInput`) still says so.
        if let signal = _Interrupt.received { try stop(signal) }
        try sink.finish(epilogue: plan.epilogue)
    }

    /// Whether records were read whose output is not yet written out: in the chunk being
    /// filled, in flight, or buffered in the output.
    var hasPendingOutput: Bool { filling.count > 0 || !loop.isEmpty || sink.hasBuffered }

    /// Hands over the records collected so far, waits until every chunk is written, and writes
    /// out the buffered output (`--strict-lines`, before a read that would wait for input).
    mutating func drain(bytesRead: Int) throws {
        try flushChunk(bytesRead: bytesRead)
        while try collectOldest() {}
        try sink.flush()
    }

    /// Waits for the chunks in flight, without writing anything more (on an error).
    mutating func abandon() {
        while let chunk = loop.next() { absorb(chunk) }
    }

    /// Copies one record into the current chunk.
    mutating func add(_ record: RecordReader.Record, dialect: CSVDialect?) throws {
        filling.add(record, dialect: dialect)
    }

    /// Hands the records collected so far to the workers, and takes a chunk to fill next.
    mutating func flushChunk(bytesRead: Int) throws {
        guard filling.count > 0 else { return }
        try begin()
        let chunk = filling
        // Small chunks are checked on this thread, as one slice: no hand-off for small inputs.
        let parts = chunk.count >= Self.smallChunk ? slices : 1
        chunk.parts = parts
        chunk.progressBytes = finishedBytes + bytesRead
        let work = _SliceWork(
            engine: engine, tallies: tallies, dialect: chunk.dialect, columns: columns,
            defaultRegion: defaultRegion, regionTable: regionTable, plan: plan, numberColumns: numberColumns,
            file: Array(fileName.utf8))
        let loop = self.loop
        try loop.submit(chunk, slices: parts, work: { chunk, slice in work.run(chunk, slice: slice) },
                        whenFull: { try collect($0) })
        if let spare = idle.popLast() {
            filling = spare
        } else if chunksMade < Self.depth {
            filling = _Chunk(capacity: chunkSize, slices: slices)
            chunksMade += 1
        } else {
            // The workers go on with the chunk just submitted while this one is written.
            try collectOldest()
            filling = idle.removeLast()
        }
    }

    /// Takes the oldest chunk in flight once checked and writes it; `false` when none is in flight.
    @discardableResult
    private mutating func collectOldest() throws -> Bool {
        guard let chunk = loop.next() else { return false }
        try collect(chunk)
        return true
    }

    /// Writes a checked chunk (nothing after a write error) and adds its counts, then stops on a
    /// write error or a signal.
    private mutating func collect(_ chunk: _Chunk) throws {
        sink.write(chunk)
        absorb(chunk)
        if let failure = sink.failure {
            abandon()
            throw failure
        }
        if let signal = _Interrupt.received {
            // The chunks in flight are written whole: count them before ending the output.
            while let chunk = loop.next() {
                sink.write(chunk)
                absorb(chunk)
            }
            if let failure = sink.failure { throw failure }
            try stop(signal)
        }
    }

    /// Waits for a chunk and adds its counts; the chunk can be filled again.
    private mutating func absorb(_ chunk: _Chunk) {
        for part in 0..<chunk.parts {
            let result = chunk.results[part]
            tally.merge(result.tally)
            if let bad = result.badRegion, badRegion == nil { badRegion = bad }
            badRegionCount += result.badRegionCount
        }
        recordsSeen += chunk.count
        linesSeen += chunk.lines
        chunk.reset()
        idle.append(chunk)
        progress.update(records: recordsSeen, bytes: chunk.progressBytes)
    }

    /// Ends the output after the records written so far (with the format's epilogue, so that a
    /// JSON array is closed) and throws ``CLIError/interrupted(_:records:)``.
    private mutating func stop(_ signal: Int32) throws -> Never {
        try begin()
        try sink.finish(epilogue: plan.epilogue)
        throw CLIError.interrupted(signal, records: recordsSeen)
    }
}

/// One record of a chunk: its line and its bytes in the chunk's arena.
struct _ChunkEntry {
    var line: Int
    var record: Int
    var start: Int
    var count: Int
    var isTooLong: Bool
    var isUnclosedQuote: Bool
}

/// What one slice produced.
final class _SliceResult: @unchecked Sendable {
    let output = _ByteBuffer(capacity: 1 << 16)
    var tally = _Tally()
    var badRegion: String?
    var badRegionCount = 0
    /// With `--unique`: where each output record ends, and the keys of its numbers.
    var marks: [_UniqueMark] = []
    var keys: [_UniqueKey] = []
}

/// Records to check, and what their slices produced. Filled by the pipeline's thread, then read
/// by the slices and the writer only, until the pipeline waits for ``done`` and fills it again.
final class _Chunk: @unchecked Sendable {
    let arena: _ByteBuffer
    let entries: UnsafeMutablePointer<_ChunkEntry>
    let capacity: Int
    /// Written by the pipeline's thread only (see ``_ByteBuffer`` for the unchecked exclusivity).
    @exclusivity(unchecked) private(set) var count = 0
    /// The physical lines of the records added.
    @exclusivity(unchecked) private(set) var lines = 0
    @exclusivity(unchecked) private(set) var dialect: CSVDialect?
    let results: [_SliceResult]
    var parts = 1
    /// Where progress stands once this chunk is written.
    var progressBytes = 0

    init(capacity: Int, slices: Int) {
        self.capacity = capacity
        entries = .allocate(capacity: capacity)
        arena = _ByteBuffer(capacity: min(capacity, 1 << 16) * 32)
        results = (0..<slices).map { _ in _SliceResult() }
    }

    deinit { entries.deallocate() }

    func add(_ record: RecordReader.Record, dialect: CSVDialect?) {
        precondition(count < capacity, "a full chunk must be flushed first")
        if count == 0 { self.dialect = dialect }
        let start = arena.count
        if !record.isTooLong { arena.append(record.bytes) }
        (entries + count).initialize(to: _ChunkEntry(line: record.line, record: record.record, start: start, count: arena.count - start, isTooLong: record.isTooLong,
                                                           isUnclosedQuote: record.problem == .unclosedQuote))
        count += 1
        lines += record.lineCount
    }

    func reset() {
        count = 0
        lines = 0
        arena.removeAll()
    }
}

/// The output: each chunk written whole, in the order the pipeline takes them back.
final class _Sink: @unchecked Sendable {
    private struct State {
        var output = _Output()
        var wroteRecords = false
        var failure: (any Error)?
        var unique: _UniqueFilter?
    }

    private let state = Mutex(State())
    private let format: RecordFormat

    init(format: RecordFormat) {
        self.format = format
    }

    /// Turns `--unique` on (before the first chunk).
    func enableUnique() {
        state.withLock { if $0.unique == nil { $0.unique = _UniqueFilter() } }
    }

    /// Records dropped by `--unique`.
    var duplicates: Int { state.withLock { $0.unique?.dropped ?? 0 } }

    /// The first write error, after which nothing more is written.
    var failure: (any Error)? { state.withLock { $0.failure } }

    func write(_ text: String) throws {
        try state.withLock { try $0.output.write(text) }
    }

    /// Writes a checked chunk, unless an earlier write failed (the failure is kept).
    func write(_ chunk: _Chunk) {
        state.withLock { state in
            guard state.failure == nil else { return }
            do { try Self.write(chunk, format: format, to: &state) } catch { state.failure = error }
        }
    }

    private static func write(_ chunk: _Chunk, format: RecordFormat, to state: inout State) throws {
        if state.unique != nil {
            try writeUnique(chunk, format: format, to: &state)
            return
        }
        for part in 0..<chunk.parts {
            let output = chunk.results[part].output
            guard output.count > 0 else { continue }
            if format == .json && !state.wroteRecords {
                // Drop the separator before the first record of the output.
                try state.output.write(UnsafeRawBufferPointer(rebasing: output.bytes[1...]))
            } else {
                try state.output.write(output.bytes)
            }
            state.wroteRecords = true
        }
    }

    /// Writes the records of `chunk` whose numbers were not all written before.
    private static func writeUnique(_ chunk: _Chunk, format: RecordFormat, to state: inout State) throws {
        for part in 0..<chunk.parts {
            let result = chunk.results[part]
            var start = 0
            var keysStart = 0
            for mark in result.marks {
                defer { start = mark.end; keysStart = mark.keysEnd }
                guard state.unique!.admit(result.keys[keysStart..<mark.keysEnd]) else { continue }
                var record = UnsafeRawBufferPointer(rebasing: result.output.bytes[start..<mark.end])
                if format == .json && !state.wroteRecords { record = UnsafeRawBufferPointer(rebasing: record[1...]) }
                try state.output.write(record)
                state.wroteRecords = true
            }
        }
    }

    /// Whether output is buffered, not yet written.
    var hasBuffered: Bool { state.withLock { $0.output.hasBuffered } }

    /// Writes everything buffered (nothing after a write error).
    func flush() throws {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            try state.output.flush()
        }
    }

    /// Writes the format's epilogue and everything buffered.
    func finish(epilogue: (Bool) -> String) throws {
        try state.withLock { state in
            try state.output.write(epilogue(state.wroteRecords))
            try state.output.flush()
        }
    }
}

/// One chunk's work, split into slices that run on separate threads. Each slice reads the shared
/// arena and entries and writes only its own result.
private struct _SliceWork: @unchecked Sendable {
    let engine: PhoneNumberEngine
    let tallies: Bool
    let dialect: CSVDialect?
    let columns: (number: Int, region: Int?)
    let defaultRegion: RegionCode?
    let regionTable: _RegionTable
    let plan: _OutputPlan
    let numberColumns: [Int]
    let file: [UInt8]

    /// The slice's records through the ``_OutputPlan``: kept cells, each number column (each
    /// number of each cell with `--split`), one output record per input record (per number
    /// with `--split`).
    func run(_ chunk: _Chunk, slice: Int) {
        let parts = chunk.parts
        let lower = chunk.count * slice / parts
        let upper = chunk.count * (slice + 1) / parts
        let result = chunk.results[slice]
        result.output.removeAll()
        // A JSON record of the mixed corpus is about 175 bytes: room enough not to grow.
        result.output.reserve((upper - lower) * 192)
        result.marks.removeAll(keepingCapacity: true)
        result.keys.removeAll(keepingCapacity: true)
        var tally = _Tally()
        var badRegion: String?
        var badRegionCount = 0
        let writer = _PlanWriter(plan: plan, leading: plan.leading.view, numberRows: plan.numberGroups.map { ($0.slot, $0.row.view) },
                                 engine: engine, out: result.output, result: result, file: file)
        var scratch: [UInt8] = []
        var kept: [UInt8] = []
        var keptRanges: [Range<Int>] = []
        // The number cells of a record, copied first: pointers into it stay valid while the
        // record's numbers are written.
        let cells = _ByteBuffer(capacity: 1024)
        var cellRanges: [Range<Int>] = []
        var numbers: [_CheckedNumber] = []
        let arena = chunk.arena.base
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        // One number column, one number per cell: the cell is checked and written in place.
        let oneNumber = numberColumns.count == 1 && !plan.split
        func add(_ number: _CheckedNumber) {
            if tallies { tally.count(problem: number.problem, check: number.check) }
            numbers.append(number)
        }
        for position in lower..<upper {
            let entry = chunk.entries[position]
            if entry.isTooLong {
                if tallies { tally.count(problem: .lineTooLong, check: NumberAnswer.unchecked) }
                writer.write(line: entry.line, record: entry.record, kept: nil, input: empty, problem: .lineTooLong,
                             check: NumberAnswer.unchecked, tally: &tally)
                continue
            }
            let record = UnsafeRawBufferPointer(start: arena + entry.start, count: entry.count)
            let region = self.region(of: record, scratch: &scratch, badRegion: &badRegion, badRegionCount: &badRegionCount)
            kept.removeAll(keepingCapacity: true)
            keptRanges.removeAll(keepingCapacity: true)
            if plan.keptCount > 0 {
                var cut = false
                RecordFields.forEachField(of: record, dialect: dialect, scratch: &scratch) { index, field in
                    guard index < plan.keptCount else {
                        cut = true
                        return
                    }
                    let start = kept.count
                    kept.append(contentsOf: field)
                    keptRanges.append(start..<kept.count)
                }
                if cut { tally.cutRecords += 1 }
            }
            // Nil without --keep: no arrays to hand over (and retain) per record.
            let keptCells = plan.keptCount > 0 ? _KeptCells(bytes: kept, ranges: keptRanges) : nil
            if oneNumber {
                withField(numberColumns[0], of: record, scratch: &scratch) { cell in
                    withChecked(cell, region: region, isUnclosedQuote: entry.isUnclosedQuote) { problem, check in
                        if tallies { tally.count(problem: problem, check: check) }
                        writer.write(line: entry.line, record: entry.record, kept: keptCells, input: cell, problem: problem,
                                     check: check, tally: &tally)
                    }
                }
                continue
            }
            numbers.removeAll(keepingCapacity: true)
            cells.removeAll()
            cellRanges.removeAll(keepingCapacity: true)
            for column in numberColumns {
                withField(column, of: record, scratch: &scratch) { field in
                    let start = cells.count
                    cells.append(UnsafeRawBufferPointer(field))
                    cellRanges.append(start..<cells.count)
                }
            }
            for (slot, cellRange) in cellRanges.enumerated() {
                let cell = UnsafeBufferPointer(start: cells.base + cellRange.lowerBound, count: cellRange.count)
                if plan.split {
                    for piece in NumberCellSplitter.split(UnsafeRawBufferPointer(cell)) {
                        let input = UnsafeBufferPointer(rebasing: cell[piece])
                        withChecked(input, region: region, isUnclosedQuote: entry.isUnclosedQuote) { problem, check in
                            add(_CheckedNumber(input: input, problem: problem, check: check, slot: slot))
                        }
                    }
                } else {
                    withChecked(cell, region: region, isUnclosedQuote: entry.isUnclosedQuote) { problem, check in
                        add(_CheckedNumber(input: cell, problem: problem, check: check, slot: slot))
                    }
                }
            }
            if plan.split {
                // A record without any number still gets its output record.
                if numbers.isEmpty {
                    withChecked(empty, region: region, isUnclosedQuote: entry.isUnclosedQuote) { problem, check in
                        add(_CheckedNumber(input: empty, problem: problem, check: check, slot: 0))
                    }
                }
                for index in numbers.indices {
                    writer.write(line: entry.line, record: entry.record, kept: keptCells, numbers: numbers[index...index],
                                 tally: &tally)
                }
            } else {
                writer.write(line: entry.line, record: entry.record, kept: keptCells, numbers: numbers[...], tally: &tally)
            }
        }
        result.tally = tally
        result.badRegion = badRegion
        result.badRegionCount = badRegionCount
    }

    /// Checks one number field and calls `body` with the result: why it cannot be checked (a NUL
    /// byte, bytes that are not UTF-8 in it or in the region cell, a quote never closed), else the
    /// engine's answer, unless the number did not parse and is in scientific notation (Excel's
    /// 4.47911E+11: the digits are lost, which not_a_number would hide). With a problem, the check
    /// is ``SMSKitJSON/NumberAnswer/unchecked``. The check is lent to `body`, not returned: a
    /// check returned or put in a tuple is copied out, for every record.
    @inline(__always)
    private func withChecked<R>(_ input: UnsafeBufferPointer<UInt8>, region: (code: RegionCode?, invalidUTF8: Bool), isUnclosedQuote: Bool,
                                _ body: (_RecordProblem?, borrowing PhoneNumberCheck) -> R) -> R {
        var problem = Self.problem(input)
        if problem == nil, region.invalidUTF8 { problem = .invalidUTF8 }
        if problem == nil, isUnclosedQuote { problem = .unclosedQuote }
        if let problem { return body(problem, NumberAnswer.unchecked) }
        let check = engine.check(utf8: input, defaultRegion: region.code)
        if check.number == nil, SpreadsheetMangling.isScientificNotation(UnsafeRawBufferPointer(input)) {
            return body(.spreadsheetNumber, NumberAnswer.unchecked)
        }
        return body(nil, check)
    }

    /// Calls `body` with field `index` of `record`: in place, or unquoted into `scratch`; empty
    /// when the record has fewer fields.
    @inline(__always)
    private func withField(_ index: Int, of record: UnsafeRawBufferPointer, scratch: inout [UInt8],
                           _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        RecordFields.withField(index, of: record, dialect: dialect, scratch: &scratch) { field in
            body(field ?? UnsafeBufferPointer(start: record.baseAddress?.assumingMemoryBound(to: UInt8.self), count: 0))
        }
    }

    /// Why a number field cannot be checked: a NUL byte, or bytes that are not UTF-8.
    @inline(__always)
    private static func problem(_ input: UnsafeBufferPointer<UInt8>) -> _RecordProblem? {
        if _Scan.isASCIIWithoutNUL(input) { return nil }
        if input.contains(0) { return .nulByte }
        // Validated in place: String(validating:) would allocate a String per such record.
        if (try? UTF8Span(validating: input.span)) == nil { return .invalidUTF8 }
        return nil
    }

    /// The record's default region: `--region`, or its region cell when there is a region column.
    private func region(of record: UnsafeRawBufferPointer, scratch: inout [UInt8], badRegion: inout String?,
                        badRegionCount: inout Int) -> (code: RegionCode?, invalidUTF8: Bool) {
        guard let regionIndex = columns.region else { return (defaultRegion, false) }
        // A missing cell reads as an empty one: the default region.
        var cell = _RegionTable.Cell.useDefault
        withField(regionIndex, of: record, scratch: &scratch) { cell = regionTable.cell($0) }
        switch cell {
        case .useDefault: return (defaultRegion, false)
        case .region(let code): return (code, false)
        case .invalidUTF8: return (defaultRegion, true)
        case .notARegion(let text):
            badRegionCount += 1
            if badRegion == nil { badRegion = String(text.prefix(32)) }
            return (nil, false)
        }
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
    private let names = RegionNames()

    init() {
        var table: [RegionCode?] = []
        table.reserveCapacity(26 * 26)
        for first in UInt8(ascii: "A")...UInt8(ascii: "Z") {
            for second in UInt8(ascii: "A")...UInt8(ascii: "Z") {
                // Only ISO 3166-1 (and CLDR) codes: UK or XX are not regions.
                let text = String(decoding: [first, second], as: UTF8.self)
                table.append(names.match(text)?.kind == .alpha2 ? RegionCode(text) : nil)
            }
        }
        twoLetter = table
    }

    /// Reads a cell: spaces trimmed; empty -> the default, ZZ -> none, a code -> the code.
    func cell(_ bytes: UnsafeBufferPointer<UInt8>) -> Cell {
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") { upper -= 1 }
        if lower == upper { return .useDefault }
        if upper - lower == 2 {
            let first = bytes[lower] | 0x20
            let second = bytes[lower + 1] | 0x20
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(second) {
                if first == UInt8(ascii: "z") && second == UInt8(ascii: "z") { return .region(nil) }
                if let code = twoLetter[Int(first - UInt8(ascii: "a")) * 26 + Int(second - UInt8(ascii: "a"))] { return .region(code) }
            }
        }
        let cell = Array(UnsafeBufferPointer(rebasing: bytes[lower..<upper]))
        guard let text = String(validating: cell, as: UTF8.self) else { return .invalidUTF8 }
        // Codes (GBR, UK), English and local names (Germany, Deutschland, 中国).
        if let match = names.match(text), let code = RegionCode(match.code) { return .region(code) }
        return .notARegion(text)
    }
}
