// Benchmarks for SMSTemplates: renders per second of a cached verification message against
// building an ICU MessageFormat per render (Caching.disabled), each with the full SMS encoding
// analysis (SMSEncoder.analyze) and with the segment count only (SMSEncoder.segmentCount). Renderers and arguments are built outside the measured closures; each
// fixture is checked once before measuring.
// Run from Benchmarks/: swift package benchmark --target SMSTemplatesBenchmarks
import Benchmark
import SMSTemplates

let benchmarks: @Sendable () -> Void = {
    let cached = try! SMSTemplateRenderer()
    let uncached = try! SMSTemplateRenderer(caching: .disabled)
    let code = "042917"
    let appName = "Acme"

    // Fixtures: English (GSM 7-bit, no plural) and Arabic (plural, Arabic-Indic digits, bidi
    // isolates, UCS-2), plus a WebOTP line.
    let english = try! cached.render(.verificationCode, locale: "en", code: code, appName: appName)
    precondition(english.text == "042917 is your Acme verification code." && english.encoding?.segmentCount == 1)
    let arabic = try! cached.render(.verificationCodeWithExpiry, locale: "ar-EG", code: code, appName: appName, minutes: 5)
    precondition(arabic.text.contains("5 دقائق") && arabic.locale == "ar")
    let webOTP = RenderOptions(webOTPOrigin: "example.com", segmentBudget: 1)
    precondition(try! cached.render(.verificationCode, locale: "en", code: code, appName: appName, options: webOTP)
        .text.hasSuffix("\n@example.com #042917"))

    let countOnly = RenderOptions(encodingAnalysis: .segmentCountOnly)
    precondition(try! cached.render(.verificationCode, locale: "en", code: code, appName: appName, options: countOnly).segmentCount == 1)

    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2)
    )

    Benchmark("SMSTemplates.render-verification-en-cached", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? cached.render(.verificationCode, locale: "en", code: code, appName: appName))
        }
    }
    Benchmark("SMSTemplates.render-verification-en-new-MessageFormat", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? uncached.render(.verificationCode, locale: "en", code: code, appName: appName))
        }
    }
    Benchmark("SMSTemplates.render-verification-en-cached-segmentCountOnly", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? cached.render(.verificationCode, locale: "en", code: code, appName: appName, options: countOnly))
        }
    }
    Benchmark("SMSTemplates.render-verification-en-new-MessageFormat-segmentCountOnly", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? uncached.render(.verificationCode, locale: "en", code: code, appName: appName, options: countOnly))
        }
    }
    Benchmark("SMSTemplates.render-expiry-ar-EG-plural-cached-segmentCountOnly", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? cached.render(.verificationCodeWithExpiry, locale: "ar-EG", code: code, appName: appName, minutes: 5, options: countOnly))
        }
    }
    Benchmark("SMSTemplates.render-expiry-ar-EG-plural-new-MessageFormat-segmentCountOnly", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? uncached.render(.verificationCodeWithExpiry, locale: "ar-EG", code: code, appName: appName, minutes: 5, options: countOnly))
        }
    }
    Benchmark("SMSTemplates.render-verification-en-webOTP-cached", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? cached.render(.verificationCode, locale: "en", code: code, appName: appName, options: webOTP))
        }
    }
    Benchmark("SMSTemplates.render-expiry-ar-EG-plural-cached", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? cached.render(.verificationCodeWithExpiry, locale: "ar-EG", code: code, appName: appName, minutes: 5))
        }
    }
    Benchmark("SMSTemplates.render-expiry-ar-EG-plural-new-MessageFormat", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? uncached.render(.verificationCodeWithExpiry, locale: "ar-EG", code: code, appName: appName, minutes: 5))
        }
    }
}
