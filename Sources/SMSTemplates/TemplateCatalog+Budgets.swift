import SMSEncoding

extension TemplateCatalog {
    /// The worst case a segment budget is checked against at load: a 12-character app name,
    /// a 6-digit code, every plural value from 1 to 60 and 12-character text for other arguments.
    static let worstCaseAppName = "Acme Example"
    static let worstCaseCode = "123456"
    static let worstCaseNumbers = 1...60

    /// The largest rendering of a message in the worst case: its text, segments and units.
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
            let rendered = try renderer.render(id, locale: locale, arguments: values,
                                               options: RenderOptions(encodingAnalysis: .full))
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
        for (id, budget) in segmentBudgets.sorted(by: { $0.key < $1.key }) {
            guard let worst = try worstCaseRendering(of: id), worst.segments > budget, let message = messages[id] else { continue }
            throw TemplateError(code: .overBudget,
                message: "needs \(worst.segments) SMS segments (\(worst.units) units) in the worst case (a 12-character app name, a 6-digit code, values 1 to 60); its budget is \(budget): '\(worst.text)'",
                file: file, messageID: id, line: message.line, column: message.column)
        }
    }
}
