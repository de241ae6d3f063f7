// Calls SMSEncoder.segmentCount or analyze N times on one text, for instruction counts
// (Benchmarks/encoder-instructions.sh runs it under cachegrind). The texts are those of
// SMSEncodingBenchmarks plus three multipart ones.
//
//   SMSEncodingThroughput count|analyze TEXT N
import SMSEncoding

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Exactly `count` characters of `pattern`, repeated.
func text(_ pattern: String, count: Int) -> String {
    String(String(repeating: pattern, count: count / pattern.count + 1).prefix(count))
}

let otp = "Your verification code is 654321. It expires in 10 minutes. Do not share it with anyone. "
let chinese = "您的验证码是654321,十分钟内有效,请勿泄露给他人。"
let texts: KeyValuePairs<String, String> = [
    "gsm160": text(otp, count: 160),
    "latin160": text("Café crème à 5€ {ok} Müller ", count: 145),
    "escapes157": text("Your code is {654321} [ok] ~ \\ | ^ € done. ", count: 130),
    "ucs70": text(chinese, count: 70),
    "hindi": "आपका सत्यापन कोड 654321 है। इसे किसी के साथ साझा न करें।",
    "gsm459": text(otp, count: 459),
    "latin459": text("Café crème à 5 Müller ñandú ", count: 459),
    "ucs200": text(chinese, count: 200),
]

let arguments = CommandLine.arguments
guard arguments.count == 4, ["count", "analyze"].contains(arguments[1]),
      let message = texts.first(where: { $0.key == arguments[2] })?.value, let n = Int(arguments[3]) else {
    print("usage: SMSEncodingThroughput count|analyze \(texts.map(\.key).joined(separator: "|")) N")
    fatalError("bad arguments")
}
// Hindi with every national table enabled, as in SMSEncodingBenchmarks.
let encoder = arguments[2] == "hindi" ? SMSEncoder(options: .init(nationalLanguageTables: .all)) : SMSEncoder()
var total = 0
for _ in 0..<n {
    if arguments[1] == "count" {
        total &+= encoder.segmentCount(message)
    } else {
        let analysis = encoder.analyze(message)
        total &+= analysis.segmentCount
        blackHole(analysis)
    }
}
print(total)
