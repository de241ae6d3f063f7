import NIOCore

/// Which addresses count as public for ``OutboundHTTPClient/DestinationPolicy/publicOnly``.
enum DestinationCheck {
    /// Whether an address is a public unicast address: not loopback, private (10/8, 172.16/12,
    /// 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10), carrier-grade NAT (100.64/10),
    /// "this network" (0/8, ::), multicast, broadcast or reserved (240/4). IPv6 addresses that
    /// carry an IPv4 address a gateway may forward to (IPv4-mapped and -compatible, NAT64's
    /// 64:ff9b::/96 and 64:ff9b:1::/48, 6to4's 2002::/16) are judged as that IPv4 address, or a
    /// name that resolves to 64:ff9b::a00:1 would reach 10.0.0.1 through the operator's NAT64.
    static func isPublic(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4):
            let value = UInt32(bigEndian: v4.address.sin_addr.s_addr)
            return isPublicV4(value)
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            return isPublicV6(bytes)
        default:
            return false
        }
    }

    static func isPublicV4(_ a: UInt32) -> Bool {
        func within(_ base: UInt32, _ bits: UInt32) -> Bool { (a >> (32 - bits)) == (base >> (32 - bits)) }
        let blocked: [(UInt32, UInt32)] = [
            (0x0000_0000, 8), (0x0A00_0000, 8), (0x6440_0000, 10), (0x7F00_0000, 8), (0xA9FE_0000, 16),
            (0xAC10_0000, 12), (0xC000_0000, 24), (0xC0A8_0000, 16), (0xC612_0000, 15), (0xE000_0000, 4),
            (0xF000_0000, 4),
        ]
        return !blocked.contains { within($0.0, $0.1) }
    }

    static func isPublicV6(_ b: [UInt8]) -> Bool {
        guard b.count == 16 else { return false }
        func v4(at i: Int) -> UInt32 {
            UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
        }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF { return isPublicV4(v4(at: 12)) }  // ::ffff:a.b.c.d
        if b[0..<12].allSatisfy({ $0 == 0 }) { return isPublicV4(v4(at: 12)) }  // ::a.b.c.d
        if b[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return isPublicV4(v4(at: 12)) }  // 64:ff9b::/96
        if b[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return false }  // 64:ff9b:1::/48, local NAT64
        if b[0] == 0x20, b[1] == 0x02 { return isPublicV4(v4(at: 2)) }  // 2002:a.b.c.d::/48, 6to4
        if b[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if b[0] == 0xFF { return false }  // multicast
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return false }  // documentation
        return true
    }
}
