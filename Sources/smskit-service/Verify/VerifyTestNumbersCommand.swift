import ArgumentParser
import SMSKitCommandLine
import Foundation
import PhoneNumbers
import PhoneVerification
import SMSKitJSON

/// `smskit verify test-numbers add|list|remove`: the fictional numbers with fixed codes.
struct VerifyTestNumbersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-numbers",
        abstract: "Register fictional test numbers with fixed 6-digit codes (no SMS, rate limited as other numbers; at most 10).",
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct FileOptions: ParsableArguments {
        @Option(name: .long, help: "The test-number file (default: $SMSKIT_VERIFY_TEST_NUMBERS or ./smskit-test-numbers.json).")
        var testNumbers: String?

        @Option(name: .long, help: "The region national numbers are dialled from (e.g. US).")
        var region: String?

        var path: String { _VerifyEnvironment.testNumbersPath(testNumbers) }

        func defaultRegion() throws -> RegionCode? {
            guard let region else { return nil }
            guard let code = RegionCode(region) else { throw CLIError.usage("--region \(region) is not a region code") }
            return code
        }

        func save(_ registry: TestNumberRegistry) throws {
            do {
                let data = try registry.jsonData()
                let temporary = path + ".tmp"
                // A leftover from an interrupted save would keep its old mode: start afresh, 0600.
                _ = unlink(temporary)
                try PrivateFile.create(temporary)
                guard let handle = FileHandle(forWritingAtPath: temporary) else { throw CLIError.failure("cannot write \(temporary)") }
                defer { try? handle.close() }
                try handle.write(contentsOf: data)
                if rename(temporary, path) != 0 { throw CLIError.failure("cannot replace \(path)") }
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError.failure("cannot write \(path)")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a fictional number with its fixed code.")

        @Argument(help: "The number, e.g. \"+1 650-555-0100\".")
        var number: String

        @Argument(help: "Its code: exactly 6 ASCII digits.")
        var code: String

        @OptionGroup var options: FileOptions

        func run() throws {
            var registry = try _VerifyEnvironment.registry(path: options.path)
            do {
                let entry = try registry.add(number, code: code, defaultRegion: try options.defaultRegion())
                try options.save(registry)
                print(entry.e164)
            } catch let error as TestNumberRegistryError {
                throw CLIError.failure("\(error.code.name): \(error.message)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the test numbers and their codes.")

        @Option(name: .long, help: "Output format: text or json.")
        var format: VerifyFormat = .text

        @OptionGroup var options: FileOptions

        func run() throws {
            let registry = try _VerifyEnvironment.registry(path: options.path)
            switch format {
            case .json:
                print(JSONValue.array(registry.entries.map {
                    .object([("e164", .string($0.e164)), ("code", .string($0.code)),
                             ("kind", .string($0.fictionalRange.kind.rawValue))])
                }).rendered, terminator: "")
            case .text:
                for entry in registry.entries { print("\(entry.e164)\t\(entry.code)") }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a test number.")

        @Argument(help: "The number, in any form.")
        var number: String

        @OptionGroup var options: FileOptions

        func run() throws {
            var registry = try _VerifyEnvironment.registry(path: options.path)
            guard let removed = registry.remove(number, defaultRegion: try options.defaultRegion()) else {
                throw CLIError.failure("\(number) is not a registered test number")
            }
            try options.save(registry)
            print(removed.e164)
        }
    }
}
