import PhoneVerification
import SMSEncoding

extension KannelSender {
    /// The request targets (`path?query`) of the SMS's parts, one per part.
    ///
    /// - Throws: ``KannelError/Code/unsupportedMessage`` when `sendsms` cannot carry the SMS as SMSKit
    ///   encoded it: no parts, more than 255 parts, a multipart part without a header, or GSM 7-bit
    ///   with national language tables (smsbox takes 7-bit text as characters and its SMSC drivers
    ///   map them to the default alphabet, which has no `ş` or `ğ`; render with the default tables,
    ///   which picks UCS-2 for such text).
    static func requestTargets(for sms: OutgoingSMS, configuration: Configuration) throws(KannelError) -> [String] {
        let parts = sms.parts
        guard !parts.isEmpty else {
            throw KannelError(.unsupportedMessage, "the SMS has no parts; render it with the full encoding analysis")
        }
        guard parts.count <= 255 else {
            throw KannelError(.unsupportedMessage, "the SMS needs \(parts.count) parts; a concatenated SMS has at most 255")
        }
        try KannelDeliveryReport.validate(configuration)
        var targets: [String] = []
        targets.reserveCapacity(parts.count)
        for part in parts {
            if parts.count > 1, part.userDataHeader.isEmpty {
                throw KannelError(.unsupportedMessage, "a part of a multipart SMS has no concatenation header")
            }
            if sms.encoding == .gsm7, usesNationalLanguageTables(part.userDataHeader) {
                throw KannelError(.unsupportedMessage,
                    "the SMS uses GSM 7-bit national language tables, which Kannel's sendsms cannot carry")
            }
            var query: [(String, String)] = [
                ("username", Configuration.percentEncoded(configuration.username)),
                ("password", Configuration.percentEncoded(configuration.password)),
                ("to", Configuration.percentEncoded(sms.to)),
            ]
            switch sms.encoding {
            case .gsm7:
                query.append(("text", Configuration.percentEncoded(part.text)))
                query.append(("coding", "0"))
                query.append(("charset", "UTF-8"))
            case .ucs2:
                // The part's UTF-16BE units as they go over the air (no charset: smsbox takes them as UCS-2).
                query.append(("text", Configuration.percentEncoded(bytes: part.userData.dropFirst(part.userDataHeader.count))))
                query.append(("coding", "2"))
            }
            if !part.userDataHeader.isEmpty {
                query.append(("udh", Configuration.percentEncoded(bytes: part.userDataHeader)))
            }
            for parameter in configuration.parameters {
                query.append((Configuration.percentEncoded(parameter.name), Configuration.percentEncoded(parameter.value)))
            }
            if let reportURL = try KannelDeliveryReport.url(configuration: configuration, token: sms.deliveryToken,
                                                            part: targets.count + 1) {
                query.append(("dlr-mask", String(configuration.deliveryReportMask)))
                query.append(("dlr-url", Configuration.percentEncoded(reportURL)))
            }
            targets.append(configuration.path + "?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))
        }
        return targets
    }

    /// Whether a user data header holds a national language single or locking shift (IEI 0x24, 0x25).
    static func usesNationalLanguageTables(_ header: [UInt8]) -> Bool {
        guard let length = header.first, header.count >= Int(length) + 1 else { return false }
        var index = 1
        while index + 1 <= Int(length) {
            let identifier = header[index], dataLength = Int(header[index + 1])
            if identifier == 0x24 || identifier == 0x25 { return true }
            index += 2 + dataLength
        }
        return false
    }
}
