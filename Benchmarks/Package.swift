// swift-tools-version:6.1
// Benchmarks for SMSKit on ordo-one/benchmark. Kept as a nested package so the root build stays small.
// Run from this folder: swift package benchmark
import PackageDescription

let package = Package(
    name: "SMSKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "SMSKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .executableTarget(
            name: "PhoneNumbersBenchmarks",
            dependencies: [
                .product(name: "PhoneNumbers", package: "SMSKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PhoneNumbersBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Whole-corpus throughput for Benchmarks/compare.sh (same work as the C++ harness).
        .executableTarget(
            name: "PhoneNumbersThroughput",
            dependencies: [.product(name: "PhoneNumbers", package: "SMSKit")],
            path: "Benchmarks/PhoneNumbersThroughput"
        ),
        // PhoneNumberEngine.findNumbers over a 1 MB text (Benchmarks/matcher-benchmark.sh).
        .executableTarget(
            name: "MatcherThroughput",
            dependencies: [.product(name: "PhoneNumbers", package: "SMSKit")],
            path: "Benchmarks/MatcherThroughput"
        ),
        // The metadata's first use in a new process (Benchmarks/first-use.sh).
        .executableTarget(
            name: "MetadataFirstUse",
            dependencies: [.product(name: "PhoneNumbers", package: "SMSKit")],
            path: "Benchmarks/MetadataFirstUse"
        ),
        // Time zone, sending-window and carrier lookups (issue 27).
        .executableTarget(
            name: "PhoneNumberExtrasBenchmarks",
            dependencies: [
                .product(name: "PhoneNumbers", package: "SMSKit"),
                .product(name: "PhoneNumberTimeZones", package: "SMSKit"),
                .product(name: "PhoneNumberCarriers", package: "SMSKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PhoneNumberExtrasBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Passes of one lookup over a corpus, for extras-instructions.sh (cachegrind).
        .executableTarget(
            name: "ExtrasThroughput",
            dependencies: [
                .product(name: "PhoneNumbers", package: "SMSKit"),
                .product(name: "PhoneNumberTimeZones", package: "SMSKit"),
                .product(name: "PhoneNumberCarriers", package: "SMSKit"),
            ],
            path: "Benchmarks/ExtrasThroughput"
        ),
        // Passes of one short-number lookup over the short-number fixtures, for short-instructions.sh.
        .executableTarget(
            name: "ShortNumberThroughput",
            dependencies: [.product(name: "PhoneNumbers", package: "SMSKit")],
            path: "Benchmarks/ShortNumberThroughput"
        ),
        // Passes of one matching or dialling call over the match and dialling fixtures, for
        // match-benchmark.sh.
        .executableTarget(
            name: "MatchThroughput",
            dependencies: [.product(name: "PhoneNumbers", package: "SMSKit")],
            path: "Benchmarks/MatchThroughput"
        ),
        // The engine's first use with the time zone and carrier modules linked (extras-first-use.sh).
        .executableTarget(
            name: "ExtrasFirstUse",
            dependencies: [
                .product(name: "PhoneNumbers", package: "SMSKit"),
                .product(name: "PhoneNumberTimeZones", package: "SMSKit"),
                .product(name: "PhoneNumberCarriers", package: "SMSKit"),
            ],
            path: "Benchmarks/ExtrasFirstUse"
        ),
        // Phone verification: start+check pairs/s per store beside the databases' own speed
        // (Benchmarks/verify-benchmark.sh runs it with pgbench), and start latency without I/O.
        .executableTarget(
            name: "PhoneVerificationThroughput",
            dependencies: [
                .product(name: "PhoneNumbers", package: "SMSKit"),
                .product(name: "PhoneVerification", package: "SMSKit"),
                .product(name: "PhoneVerificationSQLite", package: "SMSKit"),
                .product(name: "PhoneVerificationPostgres", package: "SMSKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Benchmarks/PhoneVerificationThroughput"
        ),
        // submit_sm/s through the SMPP client beside the SMSC's own ceiling (smpp-benchmark.sh).
        .executableTarget(
            name: "SMPPThroughput",
            dependencies: [.product(name: "PhoneVerificationSMPP", package: "SMSKit")],
            path: "Benchmarks/SMPPThroughput"
        ),
        .executableTarget(
            name: "SMSEncodingBenchmarks",
            dependencies: [
                .product(name: "SMSEncoding", package: "SMSKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SMSEncodingBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // SMSEncoder calls for instruction counts (Benchmarks/encoder-instructions.sh).
        .executableTarget(
            name: "SMSEncodingThroughput",
            dependencies: [.product(name: "SMSEncoding", package: "SMSKit")],
            path: "Benchmarks/SMSEncodingThroughput"
        ),
        .executableTarget(
            name: "SMSTemplatesBenchmarks",
            dependencies: [
                .product(name: "SMSTemplates", package: "SMSKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SMSTemplatesBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
