// Fuzzes the encoder and segmenter with arbitrary Unicode. The first byte picks the options.
// Properties checked on every input:
// - analysis never traps; segmentCount(_:) agrees with analyze(_:).segmentCount;
// - the parts joined give the analysed text back;
// - GSM 7-bit parts pack and unpack to the same septets.
import FuzzDriver
import SMSEncoding

private let encoders: [SMSEncoder] = [
    SMSEncoder(),
    SMSEncoder(options: .init(nationalLanguageTables: .all)),
    SMSEncoder(options: .init(nationalLanguageTables: .only([.turkish, .hindi]))),
    { var o = SMSEncoder.Options(); o.smartEncoding = true; o.normalizesToNFC = true; return SMSEncoder(options: o) }(),
    { var o = SMSEncoder.Options(); o.splitsAtGraphemeClusterBoundaries = true; return SMSEncoder(options: o) }(),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let encoder = encoders[Int(data[0]) % encoders.count]
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let analysis = encoder.analyze(text)
    precondition(encoder.segmentCount(text) == analysis.segmentCount, "segmentCount disagrees with analyze")
    precondition(analysis.parts.map(\.text).joined() == analysis.text, "parts do not join to the text")
    if analysis.encoding == .gsm7 {
        for part in analysis.parts {
            let header = part.userDataHeader.count
            let packed = Array(part.userData.dropFirst(header))
            let septets = try! GSM7.unpack(packed, septetCount: part.length, fillBits: part.fillBits)
            let again = try! GSM7.pack(septets, fillBits: part.fillBits)
            precondition(again == packed, "septet pack/unpack is not the identity")
        }
    }
    return 0
}

@_cdecl("SMSEncodingFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
