import Foundation

extension KannelSender {
    /// Where Kannel's smsbox listens, who the sender is to it, timeouts and retries.
    ///
    /// ```swift
    /// var configuration = try KannelSender.Configuration(
    ///     url: "http://smskit:secret@127.0.0.1:13013/cgi-bin/sendsms?from=Acme&dlr-mask=31")
    /// configuration.responseTimeout = .seconds(5)
    /// configuration.redactedURL   // "http://smskit:***@127.0.0.1:13013/cgi-bin/sendsms?from=Acme&dlr-mask=31"
    /// ```
    public struct Configuration: Sendable, CustomStringConvertible {
        /// smsbox's host (`sendsms-interface`).
        public var host: String
        /// smsbox's `sendsms-port`.
        public var port: Int
        /// The path of the interface, `/cgi-bin/sendsms` by default.
        public var path: String
        /// The `sendsms-user` group's `username`.
        public var username: String
        /// The `sendsms-user` group's `password`; never logged and never in an error or ``description``.
        public var password: String
        /// Further `sendsms` parameters sent with every part, in order: `from`, `smsc`, `dlr-mask`,
        /// `dlr-url`, `mclass`, `validity`, `priority`, ... The sender sets `username`, `password`,
        /// `to`, `text`, `coding`, `charset` and `udh` itself.
        public var parameters: [(name: String, value: String)]
        /// How long to wait for a connection; a connection that is not made sends nothing and is retried.
        public var connectTimeout: Duration = .seconds(2)
        /// How long to wait for the answer to one part once the request left; never retried.
        public var responseTimeout: Duration = .seconds(10)
        /// Attempts per part when a retry is safe (no connection, or 503), the first included.
        public var maxAttempts: Int = 3
        /// The pause before the first retry; each further one doubles, up to ``maximumBackoff``,
        /// and is shortened by a random jitter of up to half.
        public var initialBackoff: Duration = .milliseconds(200)
        /// The longest pause between attempts.
        public var maximumBackoff: Duration = .seconds(2)
        /// Where Kannel fetches each part's delivery reports: the service's report endpoint, e.g.
        /// `https://gateway.example/v1/delivery-reports/kannel`, or `nil` for no reports. Each part
        /// then goes with ``deliveryReportMask`` and a `dlr-url` that adds the message's token, the
        /// part's number and Kannel's escapes for the report type, the SMS centre's answer (the
        /// receipt text), the SMSC's ID and the time (see ``KannelDeliveryReport``).
        public var deliveryReportURL: String?
        /// The `dlr-mask` asked for: 1 delivered, 2 failed, 4 buffered, 8 accepted by the SMSC,
        /// 16 rejected by the SMSC; 27 (1 + 2 + 8 + 16) by default.
        public var deliveryReportMask: Int = 27

        /// The parameters the sender sets itself.
        static let reservedParameters: Set<String> = [
            "username", "password", "user", "pass", "to", "text", "coding", "charset", "udh",
        ]

        /// A configuration from its parts.
        ///
        /// - Throws: ``KannelError/Code/invalidConfiguration`` for a reserved parameter name, a port
        ///   outside 1...65535, an empty host or a path that does not start with `/`.
        public init(host: String, port: Int = 13013, path: String = "/cgi-bin/sendsms", username: String,
                    password: String, parameters: [(name: String, value: String)] = []) throws(KannelError) {
            guard !host.isEmpty else { throw KannelError(.invalidConfiguration, "the Kannel URL has no host") }
            guard (1...65535).contains(port) else {
                throw KannelError(.invalidConfiguration, "the Kannel port must be 1 to 65535, not \(port)")
            }
            guard path.hasPrefix("/") else {
                throw KannelError(.invalidConfiguration, "the Kannel path must start with /")
            }
            for parameter in parameters where Self.reservedParameters.contains(parameter.name.lowercased()) {
                throw KannelError(.invalidConfiguration,
                    "the sendsms parameter \(parameter.name) is set by the sender; remove it from the URL")
            }
            self.host = host
            self.port = port
            self.path = path
            self.username = username
            self.password = password
            self.parameters = parameters
        }

        /// A configuration from smsbox's `sendsms` URL,
        /// e.g. `http://user:pass@127.0.0.1:13013/cgi-bin/sendsms?from=Acme`.
        ///
        /// The user and password of the URL are the `sendsms-user`'s; `username` and `password`
        /// replace them (e.g. from the environment, so that the password is not on a command line).
        /// The query's parameters go with every part. The default port is 13013, the default path
        /// `/cgi-bin/sendsms`.
        ///
        /// - Throws: ``KannelError/Code/invalidConfiguration``: not an `http` URL, no credentials, a
        ///   reserved parameter. The message never holds the password.
        public init(url: String, username: String? = nil, password: String? = nil) throws(KannelError) {
            guard url.utf8.count <= 4096, let components = URLComponents(string: url) else {
                throw KannelError(.invalidConfiguration, "the Kannel URL is not a URL")
            }
            guard components.scheme?.lowercased() == "http" else {
                throw KannelError(.invalidConfiguration,
                    "the Kannel URL must start with http:// (put smsbox on loopback or a private network)")
            }
            guard let user = username ?? components.user, !user.isEmpty,
                  let secret = password ?? components.password else {
                throw KannelError(.invalidConfiguration,
                    "the Kannel URL needs the sendsms-user's username and password (http://USER:PASSWORD@HOST:PORT/...)")
            }
            var host = components.host ?? ""
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            try self.init(
                host: host, port: components.port ?? 13013,
                path: components.path.isEmpty ? "/cgi-bin/sendsms" : components.path,
                username: user, password: secret,
                parameters: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        }

        /// The URL with the password replaced by `***`, for logs and messages.
        public var redactedURL: String {
            let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            var url = "http://\(Self.percentEncoded(username)):***@\(authority)\(path)"
            if !parameters.isEmpty {
                url += "?" + parameters.map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))" }
                    .joined(separator: "&")
            }
            return url
        }

        public var description: String { redactedURL }

        /// `bytes` percent-encoded for a query: everything but RFC 3986's unreserved characters
        /// (so `+` is `%2B`, which Kannel would otherwise read as a space).
        static func percentEncoded<Bytes: Sequence<UInt8>>(bytes: Bytes) -> String {
            let hex = Array("0123456789ABCDEF".utf8)
            var out: [UInt8] = []
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                     UInt8(ascii: "_"), UInt8(ascii: "~"):
                    out.append(byte)
                default:
                    out.append(UInt8(ascii: "%"))
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0x0F)])
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        static func percentEncoded(_ string: String) -> String { percentEncoded(bytes: string.utf8) }
    }
}
