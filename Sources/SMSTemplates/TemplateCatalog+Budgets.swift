import SMSEncoding

extension TemplateCatalog {
    /// The worst case a segment budget is checked against at load: a 12-character app name,
    /// a 6-digit code, every number from 1 to 120 (expiry minutes go to 120, other numbers to 60),
    /// 12-character text for other arguments and, on every message with a `{code}`, the WebOTP
    /// line for an 11-character origin (`example.com`), which web sign-in and two-step pages add.
    static let worstCaseAppName = "Acme Example"
    static let worstCaseCode = "123456"
    static let worstCaseNumbers = 1...120
    static let worstCaseOrigin = "example.com"

    /// The UTF-16 units (GSM-7 septets) the WebOTP line adds in the worst case:
    /// `"\n@" + origin + " #" + code`.
    public static var worstCaseWebOTPLineUnits: Int { 4 + worstCaseOrigin.utf8.count + worstCaseCode.utf8.count }

    /// What a translator may write for a message of `segments` SMS segments: the units of the
    /// whole text before the WebOTP line, arguments included, in each encoding.
    ///
    /// A single GSM-7 SMS holds 160 septets and a UCS-2 one 70 units; a concatenated one 153 and 67
    /// per part. The WebOTP line (``worstCaseWebOTPLineUnits``) comes off the last part.
    ///
    /// ```swift
    /// TemplateCatalog.unitBudget(segments: 1)  // (gsm7: 139, ucs2: 49)
    /// ```
    ///
    /// - Parameter segments: The message's `# @budget`.
    /// - Returns: The septets (GSM-7) and UTF-16 units (UCS-2) before the WebOTP line.
    public static func unitBudget(segments: Int) -> (gsm7: Int, ucs2: Int) {
        let line = worstCaseWebOTPLineUnits
        if segments <= 1 { return (160 - line, 70 - line) }
        return (153 * segments - line, 67 * segments - line)
    }

    /// The largest rendering of a message in the worst case: its text (with the WebOTP line when
    /// the message has a `{code}`), segments and units (the whole text's).
    ///
    /// - Parameters:
    ///   - id: The message.
    ///   - encoder: The encoder that counts segments. Default `SMSEncoder()` (no national tables).
    /// - Returns: The rendering with the most segments (then units), or nil when the catalog has
    ///   no such message.
    /// - Throws: `TemplateError` when the message cannot be rendered at all.
    public func worstCaseRendering(of id: MessageID, encoder: SMSEncoder = SMSEncoder()) throws(TemplateError)
        -> (text: String, segments: Int, units: Int)? {
        guard let message = messages[id] else { return nil }
        let compiled: _CompiledMessage
        do {
            compiled = try _CompiledMessage(pattern: message.pattern, localeID: localeID)
        } catch {
            throw Self.compileError(error, message: message, id: id)
        }
        var single = self
        single.messages = [id: message]
        let renderer = try SMSTemplateRenderer(catalogs: [single], includeBundled: false, defaultLocale: locale,
                                               caching: .disabled, encoder: encoder)
        let numeric = compiled.arguments.contains { $0.isNumeric }
        let hasCode = compiled.arguments.contains { $0.name == "code" && !$0.isNumeric }
        let options = RenderOptions(webOTPOrigin: hasCode ? Self.worstCaseOrigin : nil, encodingAnalysis: .full)
        var worst: (text: String, segments: Int, units: Int)?
        for number in numeric ? Array(Self.worstCaseNumbers) : [1] {
            var values: [String: TemplateValue] = [:]
            for argument in compiled.arguments {
                switch argument.name {
                case "code": values["code"] = .text(Self.worstCaseCode)
                case "appName": values["appName"] = .text(Self.worstCaseAppName)
                default: values[argument.name] = argument.isNumeric ? .integer(number) : .text(Self.worstCaseAppName)
                }
            }
            let rendered = try renderer.render(id, locale: locale, arguments: values, options: options)
            let units = rendered.encoding?.length ?? 0
            if worst == nil || rendered.segmentCount > worst!.segments || (rendered.segmentCount == worst!.segments && units > worst!.units) {
                worst = (rendered.text, rendered.segmentCount, units)
            }
        }
        return worst
    }

    /// Checks every declared `# @budget` against the worst case; throws `.overBudget` for the first
    /// message that needs more segments.
    func checkBudgets(file: String) throws(TemplateError) {
        try checkBudgets(segmentBudgets, file: file)
    }

    /// Checks every message against its budget: the catalog's own `# @budget`, else the one the
    /// source catalog declares, as a translation inherits the bundled English budgets.
    ///
    /// ```swift
    /// let english = try SMSTemplateRenderer().catalog(for: "en")
    /// try reviewed.checkBudgets(inheritingFrom: english)  // throws .overBudget when a reviewer's edit is too long
    /// ```
    ///
    /// - Parameters:
    ///   - source: The catalog whose budgets apply where this one declares none, or nil.
    ///   - file: The file name errors carry.
    /// - Throws: `TemplateError` `.overBudget` naming the message, its worst text and the budget in
    ///   units before the WebOTP line.
    public func checkBudgets(inheritingFrom source: TemplateCatalog?, file: String = "") throws(TemplateError) {
        var budgets = segmentBudgets
        for id in messages.keys where budgets[id] == nil {
            if let inherited = source?.segmentBudget(for: id) { budgets[id] = inherited }
        }
        try checkBudgets(budgets, file: file.isEmpty ? locale + ".txt" : file)
    }

    private func checkBudgets(_ budgets: [MessageID: Int], file: String) throws(TemplateError) {
        for (id, budget) in budgets.sorted(by: { $0.key < $1.key }) {
            guard let worst = try worstCaseRendering(of: id), worst.segments > budget, let message = messages[id] else { continue }
            let units = Self.unitBudget(segments: budget)
            throw TemplateError(code: .overBudget,
                message: "needs \(worst.segments) SMS segments (\(worst.units) units) in the worst case (a 12-character app name, a 6-digit code, numbers 1 to 120 and the WebOTP line for an 11-character origin); its budget is \(budget), which leaves \(units.gsm7) GSM-7 or \(units.ucs2) UCS-2 units before that line: '\(worst.text)'",
                file: file, messageID: id, line: message.line, column: message.column)
        }
    }
}
