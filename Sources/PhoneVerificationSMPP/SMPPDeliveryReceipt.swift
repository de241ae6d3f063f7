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

/// A delivery receipt read from a `deliver_sm`: its message ID, state and the fields of the receipt
/// text (`id:… sub:… dlvrd:… submit date:… done date:… stat:… err:… text:…`).
///
/// The `receipted_message_id` and `message_state` TLVs win over the text when both are present.
///
/// ```swift
/// if let receipt = try SMPPDeliveryReceipt(message) {
///     receipt.messageID  // "1000"
///     receipt.state      // .delivered
/// }
/// ```
public struct SMPPDeliveryReceipt: Sendable, Hashable {
    /// The SMSC's ID of the message, as the receipt writes it (decimal or hex: see
    /// ``SMPPMessageIDIndex``).
    public var messageID: String
    /// The state.
    public var state: SMPPMessageState
    /// `sub:`, the number of messages submitted, when given.
    public var submitted: Int?
    /// `dlvrd:`, the number delivered, when given.
    public var delivered: Int?
    /// `submit date:` (YYMMDDhhmm[ss]), as written.
    public var submitDate: String?
    /// `done date:` (YYMMDDhhmm[ss]), as written.
    public var doneDate: String?
    /// `err:`, the network or SMSC error, as written.
    public var error: String?
    /// `text:`, the first characters of the message, as written.
    public var text: String?
    /// The `network_error_code` TLV, when present.
    public var networkErrorCode: SMPPNetworkErrorCode?

    /// Reads a receipt from a `deliver_sm` body; nil when `esm_class` does not mark a receipt.
    ///
    /// - Throws: ``SMPPError/Code/malformedPDU`` for a receipt with no message ID or no state.
    public init?(_ message: SMPPShortMessage) throws(SMPPError) {
        guard message.isDeliveryReceipt else { return nil }
        let fields = Self.fields(of: message.userData)
        guard let id = message.tlvs.receiptedMessageID ?? fields["id"], !id.isEmpty else {
            throw SMPPError(.malformedPDU, "the delivery receipt has no message ID (no receipted_message_id, no id:)")
        }
        guard let state = message.tlvs.messageState ?? fields["stat"].flatMap(SMPPMessageState.init(stat:)) else {
            throw SMPPError(.malformedPDU, "the delivery receipt for \(id) has no known state (no message_state, no stat:)")
        }
        self.messageID = id
        self.state = state
        self.submitted = fields["sub"].flatMap { Int($0) }
        self.delivered = fields["dlvrd"].flatMap { Int($0) }
        self.submitDate = fields["submit date"]
        self.doneDate = fields["done date"]
        self.error = fields["err"]
        self.text = fields["text"]
        self.networkErrorCode = message.tlvs.networkErrorCode
    }

    /// The receipt text's fields, read by ``PhoneVerification/DeliveryReceipt`` (the one reader of receipt texts).
    static func fields(of userData: [UInt8]) -> [String: String] {
        DeliveryReceipt.fields(of: userData)
    }

    /// The receipt as a delivery report for the part the SMS centre's message ID names.
    public func deliveryReport(receivedAt: Date) -> DeliveryReport {
        // The receipt's err: first; a network_error_code TLV alone as "type-code".
        let error = self.error ?? networkErrorCode.map { "\($0.networkType)-\($0.errorCode)" }
        let failed = state.deliveryState == .failed || state.deliveryState == .expired
        return DeliveryReport(target: .providerMessageID(messageID), state: state.deliveryState,
                              errorCode: failed ? error : nil, receivedAt: receivedAt,
                              doneAt: doneDate.flatMap(DeliveryReceipt.date))
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
