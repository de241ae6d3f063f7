import Foundation
import PhoneVerification
import SMSEncoding
import SMPPCodec

/// An ``PhoneVerification/SMSSender`` that submits each part SMSKit computed as one `submit_sm`
/// through an ``SMPPClient``: the user data header as computed (concatenation, national language
/// shift information elements) with `esm_class` UDHI, `data_coding` 0 (GSM 7-bit, packed or one
/// septet per octet as the SMSC expects) or 8 (UCS-2), and TON/NPI from ``SMPPAddressing``.
///
/// Parts go in order; the send returns once the SMSC accepted every part. A part that fails is not
/// sent again unless the SMSC provably did not take it (see ``SMPPClient``); the error's
/// ``SMPPError/acceptedParts`` says how many went before it.
///
/// ```swift
/// let client = SMPPClient(configuration: try .init(url: "smpp://esme:secret@127.0.0.1:2775"))
/// await client.start()
/// let sender = SMPPSender(client: client, options: try .init(source: "Acme"))
/// let verifier = try PhoneVerifier(store: store, sender: sender, secret: secret)
/// ```
public struct SMPPSender: SMSSender {
    /// What every `submit_sm` carries besides the message.
    public struct Options: Sendable, Hashable {
        /// The source address (from the sender ID).
        public var source: SMPPAddress
        /// `registered_delivery`: 1 (a receipt on final outcome) by default.
        public var registeredDelivery: UInt8 = 1
        /// `data_coding` for GSM 7-bit parts: 0, the SMSC's default alphabet, by default.
        public var gsmDataCoding: UInt8 = 0

        /// Options with the source address chosen from `source` by ``SMPPAddressing/source(_:)``.
        public init(source: String, registeredDelivery: UInt8 = 1) throws(SMPPError) {
            self.source = try SMPPAddressing.source(source)
            self.registeredDelivery = registeredDelivery
        }

        /// Options from an `smpp://` location's `source=` (required) and `registered_delivery=` (0 or 1).
        public init(url: String) throws(SMPPError) {
            let items = URLComponents(string: url)?.queryItems ?? []
            guard let source = items.first(where: { $0.name == "source" })?.value else {
                throw SMPPError(.invalidConfiguration, "the SMPP location needs source= (the sender ID)")
            }
            var delivery: UInt8 = 1
            if let value = items.first(where: { $0.name == "registered_delivery" })?.value {
                guard let number = UInt8(value), number <= 1 else {
                    throw SMPPError(.invalidConfiguration, "registered_delivery must be 0 or 1")
                }
                delivery = number
            }
            try self.init(source: source, registeredDelivery: delivery)
        }
    }

    public let client: SMPPClient
    public let options: Options

    /// A sender through `client` (which the caller starts and shuts down).
    public init(client: SMPPClient, options: Options) {
        self.client = client
        self.options = options
    }

    /// The `submit_sm` bodies of an SMS, one per part, in order.
    ///
    /// - Throws: ``SMPPError/Code/unsupportedMessage`` for a recipient not in E.164 or an SMS with no parts.
    public static func messages(for sms: OutgoingSMS, options: Options, gsmPacking: SMPPGSMPacking) throws(SMPPError) -> [SMPPShortMessage] {
        guard !sms.parts.isEmpty else { throw SMPPError(.unsupportedMessage, "the SMS has no parts") }
        let destination = try SMPPAddressing.destination(sms.to)
        var messages: [SMPPShortMessage] = []
        for part in sms.parts {
            let shortMessage: [UInt8]
            switch (sms.encoding, gsmPacking) {
            case (.gsm7, .unpacked):
                let header = part.userDataHeader
                let septets: [UInt8]
                do {
                    septets = try GSM7.unpack(part.userData.dropFirst(header.count), septetCount: part.length, fillBits: part.fillBits)
                } catch {
                    throw SMPPError(.unsupportedMessage, "a GSM 7-bit part cannot be unpacked")
                }
                shortMessage = header + septets
            case (.gsm7, .packed), (.ucs2, _):
                shortMessage = part.userData
            }
            messages.append(SMPPShortMessage(
                source: options.source, destination: destination,
                esmClass: part.userDataHeader.isEmpty ? 0 : 0x40, registeredDelivery: options.registeredDelivery,
                dataCoding: sms.encoding == .ucs2 ? 0x08 : options.gsmDataCoding, shortMessage: shortMessage))
        }
        return messages
    }

    /// Submits the SMS's parts in order and returns the message ID the SMSC gave each
    /// (`submit_sm_resp`), which the verifier stores so that receipts find their part.
    ///
    /// - Throws: ``SMPPError`` with ``SMPPError/acceptedParts``.
    public func submit(_ sms: OutgoingSMS) async throws -> SubmittedSMS {
        let messages = try Self.messages(for: sms, options: options, gsmPacking: client.configuration.gsmPacking)
        let client = self.client
        // On the client's thread, the parts go one after another without crossing threads between them.
        let ids = try await withTaskExecutorPreference(client.taskExecutor) { () async throws(SMPPError) -> [String?] in
            var ids: [String?] = []
            for (index, message) in messages.enumerated() {
                do throws(SMPPError) {
                    let id = try await client.submit(message, reference: SMPPPartReference(
                        verificationID: sms.verificationID, part: index + 1, partCount: messages.count))
                    ids.append(id.isEmpty ? nil : id)
                } catch {
                    throw error.with(acceptedParts: index)
                }
            }
            return ids
        }
        return SubmittedSMS(providerMessageIDs: ids)
    }
}
