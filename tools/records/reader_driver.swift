// Reads a file (or - for stdin) with RecordReader, locating field 2 of each record; prints totals.
// Compiled with the SMSKitRecords sources by tools/records/measure.sh.
#if canImport(Glibc)
import Glibc
#endif
let path = CommandLine.arguments[1]
let format: InputFormat = CommandLine.arguments.count > 2 && CommandLine.arguments[2] == "lines" ? .lines : .csv
let fd = path == "-" ? 0 : open(path, O_RDONLY)
let reader = RecordReader(fd: fd, name: path, format: format)
var records = 0, bytes = 0, fields = 0, tooLong = 0
while let record = try reader.next() {
    records += 1
    if record.isTooLong { tooLong += 1; continue }
    bytes += record.bytes.count
    switch RecordFields.locate(1, in: record.bytes, format: format) {
    case .bytes(let range): fields += range.count
    case .quoted: fields += 1
    case .missing: break
    }
}
print("records \(records) bytes \(bytes) field-bytes \(fields) too-long \(tooLong)")
