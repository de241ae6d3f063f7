#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import NIOCore
import PhoneNumbers
import SMSKitJSON

/// `POST /v1/numbers/check-stream`: NDJSON in, NDJSON out, one output line per input line in
/// order, streamed both ways.
///
/// Memory stays bounded whatever the body's size: the request body is read chunk by chunk with
/// the server's backpressure, a line is held only up to `maxLineBytes` (a longer line is skipped
/// to its end and answered with a `line_too_long` error line), and the output is flushed every
/// 32 KiB and at the end of every input chunk.
struct CheckStream: Sendable {
    let engine: PhoneNumberEngine
    let maxLineBytes: Int
    let metrics: ServiceMetrics

    static let flushThreshold = 32 * 1024

    func response(for request: Request) -> Response {
        let body = ResponseBody { [self] writer in
            var splitter = LineSplitter(maxLineBytes: maxLineBytes)
            var output = ByteBuffer()
            var pending: [ByteBuffer] = []
            var checked = 0
            for try await chunk in request.body {
                splitter.feed(chunk) { line in
                    answer(line, into: &output)
                    if output.readableBytes >= Self.flushThreshold {
                        pending.append(output)
                        output = ByteBuffer()
                    }
                }
                checked += splitter.drainCount()
                for buffer in pending { try await writer.write(buffer) }
                pending.removeAll(keepingCapacity: true)
                if output.readableBytes > 0 {
                    try await writer.write(output)
                    output.clear()
                }
            }
            splitter.finish { line in answer(line, into: &output) }
            checked += splitter.drainCount()
            if output.readableBytes > 0 { try await writer.write(output) }
            metrics.numbersChecked(checked, endpoint: "check-stream")
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/x-ndjson"
        return Response(status: .ok, headers: headers, body: body)
    }

    /// One output line for one input line.
    func answer(_ line: LineSplitter.Line, into output: inout ByteBuffer) {
        switch line.content {
        case .tooLong:
            Self.errorLine(line.number, "line_too_long", "The line is longer than \(maxLineBytes) bytes.").write(to: &output)
        case .bytes(let bytes):
            answer(bytes, number: line.number, into: &output)
        }
        output.writeInteger(UInt8(ascii: "\n"))
    }

    func answer(_ bytes: [UInt8], number: Int, into output: inout ByteBuffer) {
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
            Self.errorLine(number, "empty_line", "The line is empty; send one JSON object a line.").write(to: &output)
            return
        }
        do {
            let query = try bytes.withUnsafeBytes { try NumberQuery.decode($0) }
            NumberChecks.write(engine, query, line: number, to: &output)
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

/// Splits a byte stream into lines (LF, with an optional CR before it), holding at most
/// `maxLineBytes` of one line; a longer line is reported as `.tooLong` once its end arrives.
struct LineSplitter {
    struct Line {
        enum Content { case bytes([UInt8]), tooLong }
        var number: Int
        var content: Content
    }

    let maxLineBytes: Int
    private var current: [UInt8] = []
    private var overflowed = false
    private var lineNumber = 0
    private var emitted = 0

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
        current.reserveCapacity(min(maxLineBytes, 1024))
    }

    /// The lines emitted since the last call.
    mutating func drainCount() -> Int {
        defer { emitted = 0 }
        return emitted
    }

    mutating func feed(_ chunk: ByteBuffer, _ emit: (Line) -> Void) {
        chunk.withUnsafeReadableBytes { bytes in
            var start = 0
            while start < bytes.count {
                if let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    append(bytes, start..<newline)
                    finishLine(emit)
                    start = newline + 1
                } else {
                    append(bytes, start..<bytes.count)
                    start = bytes.count
                }
            }
        }
    }

    /// Emits the last line if the stream did not end with a newline.
    mutating func finish(_ emit: (Line) -> Void) {
        if !current.isEmpty || overflowed { finishLine(emit) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
        guard !overflowed else { return }
        if current.count + range.count > maxLineBytes + 1 {  // + 1: a CR before the LF
            overflowed = true
            current.removeAll(keepingCapacity: true)
            return
        }
        current.append(contentsOf: bytes[range])
    }

    private mutating func finishLine(_ emit: (Line) -> Void) {
        lineNumber += 1
        emitted += 1
        if current.last == UInt8(ascii: "\r") { current.removeLast() }
        if overflowed || current.count > maxLineBytes {
            emit(Line(number: lineNumber, content: .tooLong))
        } else {
            emit(Line(number: lineNumber, content: .bytes(current)))
        }
        overflowed = false
        current.removeAll(keepingCapacity: true)
    }
}
