import ArgumentParser
import PhoneNumbers
import SMSKitCommandLine
import SMSKitJSON

/// `smskit match A B`: whether two inputs are the same phone number (libphonenumber's isNumberMatch).
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Tell whether two inputs are the same phone number: exact, NSN, short NSN, no match.",
        discussion: """
            Compares A and B as libphonenumber's isNumberMatch does. Without --region both are \
            texts: an input with a country code (+44 ...) is read first and the other is read in \
            its region when it has none; when neither has one, their digits are compared. With \
            --region, A is parsed in that region first (so 020 7031 3000 --region GB is +44) and \
            B is compared with it.

            MATCHES: exact_match (same country code, national number and extension), nsn_match \
            (one side had no country code; the national numbers and extensions agree), \
            short_nsn_match (one national number ends the other, as a number kept without its \
            area code, or only one side has an extension), no_match, not_a_number (an input is \
            not a phone number).

            JSON FIELDS: first, second, region, match, is_match, first_key, second_key (the dedupe \
            keys of the inputs parsed with --region or none: E.164 and ;ext=, null when an input \
            does not parse so).

            EXIT CODES (match):
              0   a match of any kind (exact_match, nsn_match, short_nsn_match)
              1   no_match or not_a_number (the result is still printed on stdout)
              64  usage error: missing argument, bad region or option

            EXAMPLES:
              smskit match "+1 650-253-0000" "(650) 253-0000"       # nsn_match
              smskit match "020 7031 3000" "+44 20 7031 3000" --region GB --format json
            """
    )

    @Argument(help: "The first number, as written.")
    var first: String

    @Argument(help: "The second number, as written.")
    var second: String

    @Option(help: ArgumentHelp("Region the first number is dialled in: ISO 3166-1 code such as US or gb; ZZ for none.", valueName: "XX"))
    var region: RegionArgument?

    @Option(help: "Output format: text or json.")
    var format: DetailFormat = .text

    func run() throws {
        let result = NumberMatchResult(first: first, second: second, region: region?.code, engine: PhoneNumberEngine())
        var output = _Output()
        switch format {
        case .text: try output.write(result.text)
        case .json: try output.write(result.json.rendered)
        }
        try output.flush()
        if !result.match.isMatch {
            throw CLIError.failure("no match: \(result.match.rawValue)")
        }
    }
}
