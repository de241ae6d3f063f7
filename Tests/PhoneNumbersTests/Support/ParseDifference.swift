import PhoneNumbers

/// Where two parses of the same input disagree, as one line of a test's report, or nil when they
/// give equal numbers or errors of the same code (the messages may differ).
func parseDifference(
    _ a: Result<PhoneNumber, PhoneNumberError>, _ b: Result<PhoneNumber, PhoneNumberError>, input: String
) -> String? {
    switch (a, b) {
    case (.success(let x), .success(let y)): x == y ? nil : "\(input): \(x) vs \(y)"
    case (.failure(let x), .failure(let y)): x.code == y.code ? nil : "\(input): \(x.code) vs \(y.code)"
    default: "\(input): \(a) vs \(b)"
    }
}
