import Foundation
import PhoneVerification
import SMPPCodec

extension SMPPMessageState {
    /// The delivery state it means: `enroute` and `accepted` are `accepted`; `deleted`,
    /// `undeliverable` and `rejected` are `failed`.
    public var deliveryState: DeliveryState {
        switch self {
        case .enroute, .accepted: return .accepted
        case .delivered: return .delivered
        case .expired: return .expired
        case .deleted, .undeliverable, .rejected: return .failed
        case .unknown: return .unknown
        }
    }
}

/// A delivery receipt read from a `deliver_sm`: the receipt text as ``PhoneVerification/DeliveryReceipt``
/// reads it (`id:… sub:… dlvrd:… submit date:… done date:… stat:… err:… text:…`), and the PDU's
/// own optional parameters.
///
/// The `receipted_message_id` and `message_state` TLVs win over the text when both are present.
///
/// ```swift
/// if let receipt = try SMPPDeliveryReceipt(message) {
///     receipt.messageID        // "1000"
///     receipt.state            // .delivered
///     receipt.receipt.doneAt   // the text's done date
/// }
/// ```
public struct SMPPDeliveryReceipt: Sendable, Hashable {
    /// The receipt text, read by the one reader of receipt texts.
    public let receipt: DeliveryReceipt
    /// The `receipted_message_id` TLV, when present.
    public let receiptedMessageID: String?
    /// The `message_state` TLV, when present.
    public let messageState: SMPPMessageState?
    /// The `network_error_code` TLV, when present.
    public let networkErrorCode: SMPPNetworkErrorCode?

    /// The SMSC's ID of the message: `receipted_message_id`, else the text's `id:` (decimal or hex:
    /// see ``SMPPMessageIDIndex``).
    public var messageID: String { receiptedMessageID ?? receipt.messageID ?? "" }

    /// The state: `message_state`, else the text's `stat:`.
    public var state: SMPPMessageState {
        messageState ?? receipt.stat.flatMap(SMPPMessageState.init(stat:)) ?? .unknown
    }

    /// Reads a receipt from a `deliver_sm` body; nil when `esm_class` does not mark a receipt.
    ///
    /// - Throws: ``SMPPError/Code/malformedPDU`` for a receipt with no message ID or no known state
    ///   (in neither the TLVs nor the text).
    public init?(_ message: SMPPShortMessage) throws(SMPPError) {
        guard message.isDeliveryReceipt else { return nil }
        let receipt = DeliveryReceipt(bytes: message.userData)
        let receiptedMessageID = message.tlvs.receiptedMessageID.flatMap { $0.isEmpty ? nil : $0 }
        guard let id = receiptedMessageID ?? receipt.messageID else {
            throw SMPPError(.malformedPDU, "the delivery receipt has no message ID (no receipted_message_id, no id:)")
        }
        let messageState = message.tlvs.messageState
        guard messageState != nil || receipt.stat.flatMap(SMPPMessageState.init(stat:)) != nil else {
            throw SMPPError(.malformedPDU, "the delivery receipt for \(id) has no known state (no message_state, no stat:)")
        }
        self.receipt = receipt
        self.receiptedMessageID = receiptedMessageID
        self.messageState = messageState
        self.networkErrorCode = message.tlvs.networkErrorCode
    }

    /// The receipt as a delivery report for the part the SMS centre's message ID names.
    public func deliveryReport(receivedAt: Date) -> DeliveryReport {
        // The receipt's err: first; a network_error_code TLV alone as "type-code".
        let error = receipt.error ?? networkErrorCode.map { "\($0.networkType)-\($0.errorCode)" }
        let failed = state.deliveryState == .failed || state.deliveryState == .expired
        return DeliveryReport(target: .providerMessageID(messageID), state: state.deliveryState,
                              errorCode: failed ? error : nil, receivedAt: receivedAt, doneAt: receipt.doneAt)
    }
}

/// Message IDs the SMSC gave (`submit_sm_resp`), found again from a receipt's ID whether the SMSC
/// writes it in the same form, in decimal where it answered in hex, or in hex where it answered in
/// decimal. Bounded: past `capacity` IDs the oldest are forgotten.
///
/// ```swift
/// var index = SMPPMessageIDIndex<String>(capacity: 100_000)
/// index.insert("3e8", value: "verification-1/part-1")
/// index.value(forReceiptID: "1000")  // "verification-1/part-1"
/// ```
public struct SMPPMessageIDIndex<Value: Sendable>: Sendable {
    private var values: [String: Value] = [:]
    private var aliases: [String: String] = [:]
    private var order: [String] = []
    private var head = 0
    /// The most IDs remembered.
    public let capacity: Int

    /// An empty index.
    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The number of IDs remembered.
    public var count: Int { values.count }

    /// Remembers `value` for the message ID `id`.
    public mutating func insert(_ id: String, value: Value) {
        let key = id.lowercased()
        if values.updateValue(value, forKey: key) == nil { order.append(key) }
        for alias in Self.otherBases(of: key) where aliases[alias] == nil { aliases[alias] = key }
        while values.count > capacity, head < order.count {
            let oldest = order[head]
            head += 1
            values[oldest] = nil
            for alias in Self.otherBases(of: oldest) where aliases[alias] == oldest { aliases[alias] = nil }
        }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }

    /// The value of the ID a receipt names: the same ID, or the same number in the other base.
    public func value(forReceiptID id: String) -> Value? {
        let key = id.lowercased()
        if let value = values[key] { return value }
        if let original = aliases[key] { return values[original] }
        // A receipt may pad a decimal ID with zeros ("id:0000001000").
        if let number = UInt64(key, radix: 10) {
            let decimal = String(number)
            if let value = values[decimal] { return value }
            if let original = aliases[decimal] { return values[original] }
        }
        return nil
    }

    /// Forgets an ID.
    public mutating func remove(_ id: String) {
        let key = id.lowercased()
        values[key] = nil
        for alias in Self.otherBases(of: key) where aliases[alias] == key { aliases[alias] = nil }
    }

    /// The same number written in the other base: a decimal ID's hex form and a hex ID's decimal form.
    private static func otherBases(of key: String) -> [String] {
        var result: [String] = []
        if let decimal = UInt64(key, radix: 10) { result.append(String(decimal, radix: 16)) }
        if let hex = UInt64(key, radix: 16) { result.append(String(hex)) }
        return result.filter { $0 != key }
    }
}
