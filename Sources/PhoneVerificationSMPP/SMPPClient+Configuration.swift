import Foundation
import SMPPCodec

extension SMPPClient {
    /// How the client binds: as a transceiver (submits and receives on one session), as a
    /// transmitter + receiver pair (two connections: submits on the transmitter, receipts and
    /// incoming messages on the receiver, each reconnected with the same backoff), or as a
    /// lone transmitter or receiver.
    public enum BindType: String, Sendable, Hashable, CaseIterable {
        case transceiver
        /// Submits only; receipts then need a receiver session of their own (see ``pair``).
        case transmitter
        /// Receives only; submits fail with ``SMPPError/Code/notBound``.
        case receiver
        /// A transmitter and a receiver session, for SMSCs without transceiver binds.
        case pair
    }

    /// Where the SMSC is, the credentials, the window, rates and timers.
    public struct Configuration: Sendable {
        /// The SMSC's host name or address.
        public var host: String
        /// The SMSC's port (2775 by default).
        public var port: Int
        /// `system_id` (at most 15 characters).
        public var systemID: String
        /// `password` (at most 8 characters).
        public var password: String
        /// `system_type` (empty unless the SMSC asks for one).
        public var systemType: String = ""
        /// Transceiver by default.
        public var bindType: BindType = .transceiver
        /// The most `submit_sm` waiting for their response at once.
        public var window: Int = 10
        /// The most `submit_sm` per second on the connection; nil for no limit.
        public var maximumSubmitRate: Double?
        /// How long a response may take after its request left.
        public var responseTimeout: Duration = .seconds(10)
        /// How long a TCP connection may take to open.
        public var connectTimeout: Duration = .seconds(5)
        /// How long `submit` waits for a bound session before it gives up (nothing sent).
        public var bindWaitTimeout: Duration = .seconds(10)
        /// The pause between `enquire_link`s; an unanswered one closes the connection (a silent SMSC).
        public var enquireLinkInterval: Duration = .seconds(30)
        /// The first and the longest pause before reconnecting (doubling, with jitter).
        public var reconnectInitialBackoff: Duration = .milliseconds(200)
        /// The longest pause before reconnecting.
        public var reconnectMaximumBackoff: Duration = .seconds(30)
        /// The pause after `ESME_RTHROTTLED` / `ESME_RMSGQFUL` (doubling per attempt) and how many
        /// attempts a part gets.
        public var throttleBackoff: Duration = .milliseconds(200)
        /// How many attempts a part gets while the SMSC throttles (5 by default).
        public var throttleAttempts: Int = 5
        /// The largest PDU read; a longer `command_length` closes the connection.
        public var maximumPDULength: Int = SMPPPDU.defaultMaximumLength
        /// How the SMSC writes GSM 7-bit user data, in both directions.
        public var gsmPacking: SMPPGSMPacking = .unpacked
        /// How long the parts of an incoming message may take to arrive.
        public var reassemblyWindow: Duration = .seconds(300)
        /// How many submitted message IDs are remembered to match receipts.
        public var receiptIndexCapacity: Int = 100_000
        /// TLS to the SMSC, or nil for plain TCP (the default).
        public var tls: TLS?

        /// TLS settings: the server's certificate is always verified, against the system's
        /// trust roots or the given CA file, and so is its name (``Configuration/host``, an IP
        /// address included).
        public struct TLS: Sendable, Hashable {
            /// PEM file of the certificate authorities to trust instead of the system's.
            public var caFile: String?
            /// The name the certificate must carry, when it is not ``Configuration/host`` (an SMSC
            /// reached by address whose certificate names it).
            public var serverName: String?

            public init(caFile: String? = nil, serverName: String? = nil) {
                self.caFile = caFile
                self.serverName = serverName
            }
        }

        /// A configuration with the defaults above.
        public init(host: String, port: Int = 2775, systemID: String, password: String) {
            self.host = host
            self.port = port
            self.systemID = systemID
            self.password = password
        }

        /// A configuration from an `smpp://system_id:password@host:port?...` location.
        ///
        /// `smpps://` (or `tls=1`) connects with TLS, verifying the certificate and the host name;
        /// `ca_file=PATH` trusts that PEM file's authorities instead of the system's, and
        /// `tls_server_name=NAME` expects that name in the certificate instead of the host.
        ///
        /// Query parameters: `bind=trx|pair` (`trx`, a transceiver, by default; `pair`, a
        /// transmitter and a receiver session; `transceiver` and `transmitter` are accepted too), `window=N`, `rate=N` (submits per
        /// second), `system_type=`, `response_timeout=S`, `enquire_link=S` (seconds), `gsm=packed|unpacked`.
        /// The parameters of ``SMPPSender/Options`` (`source=`, `registered_delivery=`) are read by
        /// ``SMPPSender/Options/init(url:)``.
        ///
        /// - Throws: ``SMPPError/Code/invalidConfiguration`` for another scheme, no host, no system_id
        ///   or a bad value.
        public init(url: String) throws(SMPPError) {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                  scheme == "smpp" || scheme == "smpps" else {
                throw SMPPError(.invalidConfiguration, "the SMPP location must look like smpp://system_id:password@host:port")
            }
            guard let host = components.host, !host.isEmpty else {
                throw SMPPError(.invalidConfiguration, "the SMPP location has no host")
            }
            guard let user = components.user, !user.isEmpty else {
                throw SMPPError(.invalidConfiguration, "the SMPP location has no system_id (smpp://system_id:password@host)")
            }
            self.init(host: host, port: components.port ?? 2775, systemID: user, password: components.password ?? "")
            if scheme == "smpps" { tls = TLS() }
            var caFile: String?
            var serverName: String?
            for item in components.queryItems ?? [] {
                let value = item.value ?? ""
                func seconds() throws(SMPPError) -> Duration {
                    guard let number = Double(value), number > 0, number <= 86_400 else {
                        throw SMPPError(.invalidConfiguration, "\(item.name) must be a number of seconds")
                    }
                    return .milliseconds(Int64(number * 1000))
                }
                switch item.name {
                case "bind":
                    switch value {
                    case "trx", "transceiver": bindType = .transceiver
                    case "pair": bindType = .pair
                    case "tx", "transmitter": bindType = .transmitter
                    default: throw SMPPError(.invalidConfiguration, "bind must be trx (a transceiver) or pair (a transmitter and a receiver)")
                    }
                case "window":
                    guard let number = Int(value), (1...10_000).contains(number) else {
                        throw SMPPError(.invalidConfiguration, "window must be 1 to 10000")
                    }
                    window = number
                case "rate":
                    guard let number = Double(value), number > 0 else {
                        throw SMPPError(.invalidConfiguration, "rate must be a positive number of submits per second")
                    }
                    maximumSubmitRate = number
                case "system_type": systemType = value
                case "response_timeout": responseTimeout = try seconds()
                case "enquire_link": enquireLinkInterval = try seconds()
                case "gsm":
                    guard let packing = SMPPGSMPacking(rawValue: value) else {
                        throw SMPPError(.invalidConfiguration, "gsm must be packed or unpacked")
                    }
                    gsmPacking = packing
                case "tls":
                    switch value {
                    case "1", "true": tls = tls ?? TLS()
                    case "0", "false":
                        guard scheme == "smpp" else { throw SMPPError(.invalidConfiguration, "smpps:// always uses TLS") }
                        tls = nil
                    default: throw SMPPError(.invalidConfiguration, "tls must be 1 or 0")
                    }
                case "ca_file":
                    guard !value.isEmpty else { throw SMPPError(.invalidConfiguration, "ca_file must name a PEM file") }
                    caFile = value
                case "tls_server_name":
                    guard !value.isEmpty else { throw SMPPError(.invalidConfiguration, "tls_server_name must not be empty") }
                    serverName = value
                case "source", "registered_delivery":
                    break
                default:
                    throw SMPPError(.invalidConfiguration, "unknown SMPP parameter \(item.name)")
                }
            }
            if caFile != nil || serverName != nil {
                guard tls != nil else {
                    throw SMPPError(.invalidConfiguration, "ca_file and tls_server_name need TLS (smpps:// or tls=1)")
                }
                tls = TLS(caFile: caFile, serverName: serverName)
            }
            guard systemID.utf8.count <= 15, password.utf8.count <= 8 else {
                throw SMPPError(.invalidConfiguration, "system_id is at most 15 characters and password at most 8")
            }
        }

        /// The location without the password, for logs.
        public var redactedLocation: String { "\(tls == nil ? "smpp" : "smpps")://\(systemID)@\(host):\(port)" }
    }
}
