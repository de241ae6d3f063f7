/// The state of a message (`message_state`, SMPP 3.4 section 5.2.28), and the `stat:` word of a
/// receipt's text (appendix B).
public enum SMPPMessageState: UInt8, Sendable, Hashable, CaseIterable {
    case enroute = 1
    case delivered = 2
    case expired = 3
    case deleted = 4
    case undeliverable = 5
    case accepted = 6
    case unknown = 7
    case rejected = 8

    /// The state named by a receipt's `stat:` word (`DELIVRD`, `EXPIRED`, `DELETED`, `UNDELIV`,
    /// `ACCEPTD`, `UNKNOWN`, `REJECTD`, `ENROUTE`), case-insensitive.
    public init?(stat: String) {
        switch stat.uppercased() {
        case "ENROUTE": self = .enroute
        case "DELIVRD", "DELIVERED": self = .delivered
        case "EXPIRED": self = .expired
        case "DELETED": self = .deleted
        case "UNDELIV", "UNDELIVERABLE": self = .undeliverable
        case "ACCEPTD", "ACCEPTED": self = .accepted
        case "UNKNOWN": self = .unknown
        case "REJECTD", "REJECTED": self = .rejected
        default: return nil
        }
    }

    /// Whether the state is final: only `enroute` and `accepted` may still change.
    public var isFinal: Bool { self != .enroute && self != .accepted }
}
