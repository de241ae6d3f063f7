import SMSEncoding

/// How the SMSC writes GSM 7-bit user data (`data_coding` 0) in `short_message`: one septet per
/// octet (most SMSCs) or packed as on the air interface.
public enum SMPPGSMPacking: String, Sendable, Hashable, CaseIterable {
    /// One septet per octet.
    case unpacked
    /// Seven bits per septet, packed (3GPP TS 23.038), with fill bits after a user data header.
    case packed
}

/// One incoming message part decoded from a `deliver_sm` that is not a receipt.
public struct SMPPIncomingPart: Sendable, Hashable {
    /// Who sent it.
    public var source: SMPPAddress
    /// To whom.
    public var destination: SMPPAddress
    /// `data_coding`.
    public var dataCoding: UInt8
    /// The text, for GSM 7-bit (with the national tables the header names), IA5, Latin-1 and UCS-2;
    /// nil for 8-bit data.
    public var text: String?
    /// The user data after the header (for 8-bit data, the message).
    public var data: [UInt8]
    /// The concatenation: reference number, part count and this part's number (from 1), from the
    /// header (IE 0x00 or 0x08) or the `sar_*` TLVs; nil for a one-part message.
    public var concatenation: (reference: UInt16, count: UInt8, number: UInt8)?

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.source == rhs.source && lhs.destination == rhs.destination && lhs.dataCoding == rhs.dataCoding
            && lhs.text == rhs.text && lhs.data == rhs.data
            && lhs.concatenation?.reference == rhs.concatenation?.reference
            && lhs.concatenation?.count == rhs.concatenation?.count
            && lhs.concatenation?.number == rhs.concatenation?.number
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(data)
        hasher.combine(concatenation?.reference)
        hasher.combine(concatenation?.number)
    }

    /// Decodes a `deliver_sm` body.
    ///
    /// - Parameter gsmPacking: How `data_coding` 0 user data is written.
    /// - Throws: ``SMPPError/Code/malformedPDU`` for a header that overruns the user data, septets
    ///   that are not in the tables, or UCS-2 of an odd length.
    public init(_ message: SMPPShortMessage, gsmPacking: SMPPGSMPacking = .unpacked) throws(SMPPError) {
        let userData = message.userData
        var headerLength = 0
        var tables = SMSNationalLanguageTables.default
        var concatenation: (UInt16, UInt8, UInt8)?
        if message.hasUserDataHeader {
            guard let udhl = userData.first, Int(udhl) + 1 <= userData.count else {
                throw SMPPError(.malformedPDU, "the user data header overruns the user data")
            }
            headerLength = Int(udhl) + 1
            var index = 1
            while index < headerLength {
                guard index + 1 < headerLength, index + 2 + Int(userData[index + 1]) <= headerLength else {
                    throw SMPPError(.malformedPDU, "an information element overruns the user data header")
                }
                let iei = userData[index], length = Int(userData[index + 1])
                let value = userData[(index + 2)..<(index + 2 + length)]
                switch (iei, length) {
                case (0x00, 3):
                    concatenation = (UInt16(value[value.startIndex]), value[value.startIndex + 1], value[value.startIndex + 2])
                case (0x08, 4):
                    let reference = UInt16(value[value.startIndex]) << 8 | UInt16(value[value.startIndex + 1])
                    concatenation = (reference, value[value.startIndex + 2], value[value.startIndex + 3])
                case (0x24, 1):  // national language single shift (3GPP TS 23.040 9.2.3.24.15)
                    tables.singleShift = NationalLanguage(rawValue: value[value.startIndex])
                case (0x25, 1):  // national language locking shift (9.2.3.24.16)
                    tables.lockingShift = NationalLanguage(rawValue: value[value.startIndex])
                default:
                    break
                }
                index += 2 + length
            }
        } else if let reference = message.tlvs.integer(.sarMessageReferenceNumber),
                  let count = message.tlvs.integer(.sarTotalSegments),
                  let number = message.tlvs.integer(.sarSegmentSequenceNumber) {
            concatenation = (UInt16(truncatingIfNeeded: reference), UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: number))
        }
        if let (_, count, number) = concatenation, count == 0 || number == 0 || number > count {
            throw SMPPError(.malformedPDU, "concatenation part \(number) of \(count)")
        }

        self.source = message.source
        self.destination = message.destination
        self.dataCoding = message.dataCoding
        self.concatenation = concatenation.map { (reference: $0.0, count: $0.1, number: $0.2) }
        let body = Array(userData[headerLength...])
        switch message.dataCoding {
        case 0x00, 0x10, 0xF0:
            let septets: [UInt8]
            switch gsmPacking {
            case .unpacked:
                septets = body
            case .packed:
                let headerBits = headerLength * 8
                let fillBits = (7 - headerBits % 7) % 7
                let count = (userData.count * 8 - headerBits - fillBits) / 7
                do {
                    septets = try GSM7.unpack(body, septetCount: count, fillBits: fillBits)
                } catch {
                    throw SMPPError(.malformedPDU, "the packed GSM 7-bit user data cannot be unpacked")
                }
            }
            guard septets.allSatisfy({ $0 < 0x80 }) else {
                throw SMPPError(.malformedPDU, "GSM 7-bit user data holds an octet over 0x7F (is it packed?)")
            }
            do {
                self.text = try GSM7.decode(septets, tables: tables)
            } catch {
                throw SMPPError(.malformedPDU, "the GSM 7-bit user data has septets outside its tables")
            }
            self.data = septets
        case 0x01:
            self.text = String(decoding: body.map { $0 & 0x7F }, as: UTF8.self)
            self.data = body
        case 0x03:
            self.text = String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
            self.data = body
        case 0x08:
            guard body.count % 2 == 0 else { throw SMPPError(.malformedPDU, "UCS-2 user data of an odd length") }
            let units = stride(from: 0, to: body.count, by: 2).map { UInt16(body[$0]) << 8 | UInt16(body[$0 + 1]) }
            self.text = String(decoding: units, as: UTF16.self)
            self.data = body
        default:
            self.text = nil
            self.data = body
        }
    }
}

/// A whole incoming message: one part, or every part of a concatenated one in order.
public struct SMPPIncomingMessage: Sendable, Hashable {
    public var source: SMPPAddress
    public var destination: SMPPAddress
    public var dataCoding: UInt8
    /// The text of the parts joined; nil when a part is 8-bit data.
    public var text: String?
    /// The parts' data joined.
    public var data: [UInt8]
    /// How many parts it came in.
    public var partCount: Int
}

/// Joins concatenated incoming parts by source, destination and reference number, within a time
/// window: parts of a message that do not all arrive within `window` of the first are dropped,
/// and at most `capacity` messages are pending (past it the oldest is dropped), so a peer cannot
/// make it hold unbounded memory.
///
/// ```swift
/// var reassembler = SMPPReassembler(window: .seconds(60))
/// if let message = reassembler.add(part, at: .now) { deliver(message) }
/// ```
public struct SMPPReassembler: Sendable {
    private struct Key: Hashable {
        var source: String
        var destination: String
        var reference: UInt16
        var count: UInt8
    }
    private struct Pending {
        var firstSeen: ContinuousClock.Instant
        var parts: [UInt8: SMPPIncomingPart]
    }
    private var pending: [Key: Pending] = [:]
    /// How long the parts of one message may take to arrive.
    public let window: Duration
    /// The most messages pending at once.
    public let capacity: Int

    /// A reassembler.
    public init(window: Duration = .seconds(300), capacity: Int = 1024) {
        self.window = window
        self.capacity = max(1, capacity)
    }

    /// The messages waiting for parts.
    public var pendingCount: Int { pending.count }

    /// Adds a part; returns the message once it is whole (at once for a one-part message).
    public mutating func add(_ part: SMPPIncomingPart, at now: ContinuousClock.Instant) -> SMPPIncomingMessage? {
        expire(now: now)
        guard let concatenation = part.concatenation, concatenation.count > 1 else {
            return SMPPIncomingMessage(source: part.source, destination: part.destination, dataCoding: part.dataCoding,
                                       text: part.text, data: part.data, partCount: 1)
        }
        let key = Key(source: part.source.address, destination: part.destination.address,
                      reference: concatenation.reference, count: concatenation.count)
        var entry = pending[key] ?? Pending(firstSeen: now, parts: [:])
        entry.parts[concatenation.number] = part
        guard entry.parts.count == Int(concatenation.count) else {
            if pending[key] == nil, pending.count >= capacity,
               let oldest = pending.min(by: { $0.value.firstSeen < $1.value.firstSeen })?.key {
                pending[oldest] = nil
            }
            pending[key] = entry
            return nil
        }
        pending[key] = nil
        let parts = (1...concatenation.count).compactMap { entry.parts[$0] }
        let texts = parts.map(\.text)
        return SMPPIncomingMessage(
            source: part.source, destination: part.destination, dataCoding: parts[0].dataCoding,
            text: texts.contains(where: { $0 == nil }) ? nil : texts.map { $0! }.joined(),
            data: parts.flatMap(\.data), partCount: parts.count)
    }

    /// Drops the messages whose first part is older than the window.
    public mutating func expire(now: ContinuousClock.Instant) {
        pending = pending.filter { now - $0.value.firstSeen <= window }
    }
}
