import NIOHTTP1

/// An `http` or `https` URL as the client sends to it: scheme, host, port and request target.
public struct OutboundURL: Sendable, Hashable, CustomStringConvertible {
    /// `https` (TLS) or `http`.
    public let isTLS: Bool
    /// The host name or IP address (without brackets).
    public let host: String
    /// The port.
    public let port: Int
    /// The path and query, from `/`.
    public let target: String

    /// Parses `http://host[:port][/path][?query]` or `https://...`; user information and
    /// fragments are refused (a URL with credentials belongs in a secret file, not in flags).
    ///
    /// - Returns: `nil` when the string is not such a URL.
    public init?(_ string: String) {
        guard string.utf8.count <= 2048, !string.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else { return nil }
        let lower = string.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { isTLS = true; rest = string.dropFirst(8) }
        else if lower.hasPrefix("http://") { isTLS = false; rest = string.dropFirst(7) }
        else { return nil }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        guard !authority.contains("@"), !path.contains("#") else { return nil }
        if path.isEmpty { path = "/" } else if path.hasPrefix("?") { path = "/" + path }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { return nil }
        if let portText {
            guard let port = Int(portText), (1...65_535).contains(port) else { return nil }
            self.port = port
        } else {
            port = isTLS ? 443 : 80
        }
        self.host = String(host)
        target = path
    }

    /// Whether the host is an IP address literal (no SNI is sent for one).
    public var isIPAddress: Bool { host.contains(":") || host.allSatisfy { $0 == "." || $0.isNumber } }

    /// The `Host` header's value.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return (port == (isTLS ? 443 : 80)) ? name : "\(name):\(port)"
    }

    /// The URL without its query (which may hold tokens): for logs and errors.
    public var redacted: String {
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        return "\(isTLS ? "https" : "http")://\(hostHeader)\(path)"
    }

    public var description: String { redacted }
}

/// One request.
public struct OutboundHTTPRequest: Sendable {
    /// The method (`GET`, `POST`).
    public var method: HTTPMethod
    /// Where to.
    public var url: OutboundURL
    /// Extra headers (the client sets `Host`, `User-Agent`, `Connection` and `Content-Length`).
    public var headers: [(String, String)]
    /// The body.
    public var body: [UInt8]

    /// A request.
    public init(method: HTTPMethod, url: OutboundURL, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One response: status, headers and the body (at most the configured bytes).
public struct OutboundHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, in order.
    public var headers: [(String, String)]
    /// The body.
    public var body: [UInt8]

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The first header of that name (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// Why an exchange failed, with what a caller's retry decision needs: whether the server may have
/// received the request.
public struct OutboundHTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The host has no address.
        case unresolvable
        /// The destination policy refuses the host's address (private, loopback, link-local...).
        case destinationRefused = "destination_refused"
        /// Nothing listens there (ECONNREFUSED): nothing was sent.
        case connectionRefused = "connection_refused"
        /// The connection was not made within the connect timeout: nothing was sent.
        case connectTimeout = "connect_timeout"
        /// The connection failed otherwise before anything was sent.
        case connectFailed = "connect_failed"
        /// The TLS handshake failed (untrusted certificate, wrong name): nothing was sent.
        case tlsHandshake = "tls_handshake"
        /// The TLS configuration is invalid.
        case tlsConfiguration = "tls_configuration"
        /// No complete response within the total timeout.
        case timeout
        /// The connection closed before a complete response.
        case connectionLost = "connection_lost"
        /// The bytes that came back are not HTTP/1.1.
        case malformedResponse = "malformed_response"
        /// The response body is longer than the configured maximum.
        case responseTooLarge = "response_too_large"
    }

    /// What went wrong.
    public let kind: Kind
    /// Whether any of the request left: when `false`, the server provably did not get it.
    public let requestWritten: Bool
    /// More for the operator (never a query string or a secret).
    public let detail: String?

    /// An error.
    public init(_ kind: Kind, requestWritten: Bool, detail: String? = nil) {
        self.kind = kind
        self.requestWritten = requestWritten
        self.detail = detail
    }

    public var description: String { detail.map { "\(kind.rawValue): \($0)" } ?? kind.rawValue }
}
