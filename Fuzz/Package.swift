// swift-tools-version:6.1
// libFuzzer targets for SMSKit. A nested package, so the root build never links them.
// Build and run with Fuzz/run.sh (see the README's Reliability section).
import PackageDescription

let package = Package(
    name: "SMSKitFuzz",
    dependencies: [.package(name: "SMSKit", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "PhoneNumbersFuzz",
            dependencies: ["FuzzDriver", .product(name: "PhoneNumbers", package: "SMSKit")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "SMSEncodingFuzz",
            dependencies: ["FuzzDriver", .product(name: "SMSEncoding", package: "SMSKit")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "SMSTemplatesFuzz",
            dependencies: ["FuzzDriver", .product(name: "SMSTemplates", package: "SMSKit")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "RecordReaderFuzz",
            dependencies: ["FuzzDriver", .product(name: "SMSKitRecords", package: "SMSKit")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "TelURIFuzz",
            dependencies: ["FuzzDriver", .product(name: "PhoneNumbers", package: "SMSKit")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "TemplateCatalogFuzz",
            dependencies: ["FuzzDriver", .product(name: "SMSTemplates", package: "SMSKit")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
