#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import NIOCore
import PhoneNumbers
import SMSKitBatch
import SMSKitJSON
import SMSKitRecords

/// `POST /v1/numbers/check-stream`: NDJSON in, NDJSON out, one output line per input line in
/// order, streamed both ways.
///
/// Memory stays bounded whatever the body's size: the request body is read chunk by chunk with
/// the server's backpressure and split into lines by a fed ``RecordReader``, which holds at most
/// a buffer of twice `maxLineBytes` (a longer line is skipped to its end and answered with a
/// `line_too_long` error line), and the lines are answered a
/// request body chunk at a time (NIO reads at most 64 KiB at once), so that a stream trickling
/// in is answered as it arrives.
///
/// The chunks' lines are answered concurrently, on as many tasks as there are cores
/// (`inFlight`, at least two), and written in input order: reading waits for the oldest
/// chunk's answer when that many are in flight, so at most `inFlight` chunks and their answers
/// are held, and a client that stops reading the response stops the reading of its request.
///
/// A stream is bounded in size and time as a whole: past `maxBytes` of body, or `timeout` after
/// it started, reading stops and the answer ends with one error line (`body_too_large` or
/// `stream_timeout`: the status line went out with the first answers) after the answers of the
/// lines read so far; a declared Content-Length over `maxBytes` is a 413 before anything.
struct CheckStream: Sendable {
    let engine: PhoneNumberEngine
    let maxLineBytes: Int
    /// The most body bytes read.
    let maxBytes: Int
    /// How long the request may last, from the head to the last answer.
    let timeout: Duration
    /// Whether answers carry the national and international formats (`?formats=false`: null).
    let formats: Bool
    let metrics: ServiceMetrics

    static let inFlight = max(2, OrderedBatchLoop<Answer>.activeProcessorCount)

    func response(for request: Request) -> Response {
        let body = ResponseBody { [self] writer in
            // The reader (a child task) submits each chunk's lines to the loop, which answers them
            // on the cores; the writer (this task) takes the answers back in order. The reader
            // waits for room when `inFlight` answers are pending.
            let loop = OrderedBatchLoop<Answer>(window: Self.inFlight)
            var written = 0
            let stopped: ServiceError? = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { [self] in
                    defer { loop.finish() }
                    return try await withDeadline(timeout, timeoutError: .streamTimeout(timeout)) {
                        try await read(request.body, to: loop)
                    }
                }
                while let answer = await loop.next() {
                    try await writer.write(answer.output)
                    written += answer.lines.count
                }
                do {
                    metrics.numbersChecked(try await group.next() ?? 0, endpoint: "check-stream")
                    return nil
                } catch let error as ServiceError {
                    metrics.numbersChecked(written, endpoint: "check-stream")
                    metrics.refusal(error.code)
                    return error
                }
            }
            if let stopped {
                var line = ByteBuffer()
                Self.errorLine(written + 1, stopped.code, stopped.message).write(to: &line)
                line.writeInteger(UInt8(ascii: "\n"))
                try await writer.write(line)
            }
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/x-ndjson"
        return Response(status: .ok, headers: headers, body: body)
    }

    /// A chunk's lines and, once the loop hands it back, their answers.
    final class Answer: @unchecked Sendable {
        let lines: LineBatch
        /// Written by the loop's one slice, read once the loop hands the answer back.
        var output = ByteBuffer()

        init(_ lines: LineBatch) { self.lines = lines }
    }

    /// Reads the body's lines and submits each chunk's lines to `loop`, waiting for room when
    /// `inFlight` answers are unwritten; returns the number of lines.
    func read(_ body: RequestBody, to loop: OrderedBatchLoop<Answer>) async throws -> Int {
        // Plain locals, captured by no closure: a captured variable would be boxed and checked
        // for exclusive access at every line.
        // No line is longer than the body limit, so a line limit over it would only size the
        // reader's buffer for lines that cannot come.
        let reader = RecordReader(name: "request body", dialect: nil, maximumRecordBytes: min(maxLineBytes, maxBytes))
        var batch = LineBatch()
        var lines = 0
        var iterator = body.makeAsyncIterator()
        var ended = false
        var received = 0
        while !ended {
            // The stream's deadline cancels this task; a body that ends or goes on after that
            // must not look like a complete one.
            try Task.checkCancellation()
            if let chunk = try await iterator.next() {
                received += chunk.readableBytes
                // The lines of earlier chunks are answered; this chunk and the rest are not.
                if received > maxBytes { throw ServiceError.bodyTooLarge(limit: maxBytes) }
                chunk.withUnsafeReadableBytes { bytes in reader.feed(bytes) { batch.append($0) } }
            } else {
                try Task.checkCancellation()
                reader.finish { batch.append($0) }
                ended = true
            }
            guard !batch.isEmpty else { continue }
            let answer = Answer(batch)
            batch = LineBatch()
            lines += answer.lines.count
            try await loop.submit(answer, slices: 1) { [self] answer, _ in answer.output = self.answer(answer.lines) }
        }
        return lines
    }

    /// The answers to a batch of lines, one output line each, in order.
    func answer(_ batch: LineBatch) -> ByteBuffer {
        var output = ByteBufferAllocator().buffer(capacity: batch.count * 320)
        batch.bytes.withUnsafeBytes { bytes in
            for line in batch.lines {
                if line.end < 0 {
                    Self.errorLine(line.number, "line_too_long", "The line is longer than \(maxLineBytes) bytes.")
                        .write(to: &output)
                } else {
                    answer(UnsafeRawBufferPointer(rebasing: bytes[line.start..<line.end]), number: line.number, into: &output)
                }
                output.writeInteger(UInt8(ascii: "\n"))
            }
        }
        return output
    }

    /// The answer to one line (without its newline).
    func answer(_ bytes: UnsafeRawBufferPointer, number: Int, into output: inout ByteBuffer) {
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
            Self.errorLine(number, "empty_line", "The line is empty; send one JSON object a line.").write(to: &output)
            return
        }
        do {
            let query = try NumberQuery.decode(bytes)
            NumberChecks.write(engine, query, line: number, formats: formats, to: &output)
        } catch let error as ServiceError {
            Self.errorLine(number, error.code, error.message).write(to: &output)
        } catch {
            Self.errorLine(number, "invalid_request", "The line is not a JSON object with a 'number' string.").write(to: &output)
        }
    }

    static func errorLine(_ number: Int, _ code: String, _ message: String) -> JSONValue {
        .object([("line", .int(number)), ("ok", .bool(false)), ("error", .string(code)), ("error_message", .string(message))])
    }
}

/// Lines to answer together: their bytes one after another, and where each is.
struct LineBatch: Sendable {
    struct Entry: Sendable {
        var number: Int
        /// The line's bytes in `bytes`; `end` is -1 for a line over the limit.
        var start: Int
        var end: Int
    }

    var bytes: [UInt8] = []
    var lines: [Entry] = []

    var count: Int { lines.count }
    var isEmpty: Bool { lines.isEmpty }

    mutating func append(_ line: RecordReader.Record) {
        if line.isTooLong {
            lines.append(Entry(number: line.line, start: 0, end: -1))
        } else {
            let start = bytes.count
            bytes.append(contentsOf: line.bytes)
            lines.append(Entry(number: line.line, start: start, end: bytes.count))
        }
    }
}

extension ServiceError {
    static func streamTimeout(_ timeout: Duration) -> ServiceError {
        ServiceError(.requestTimeout, "stream_timeout",
                     "The stream lasted longer than \(timeout.components.seconds) seconds; send the rest in another request.")
    }
}
