#if canImport(Glibc)
    import Glibc
#endif

/// A numeric IPv4 or IPv6 address with a port, for binding, connecting and printing.
///
/// Host names are not resolved (no DNS in a test server), except `localhost`, which means
/// 127.0.0.1 as RFC 6761 section 6.3 lets a program assume.
package struct SocketAddress: Equatable, CustomStringConvertible {
    package enum Family: Equatable {
        case v4(in_addr_t)
        /// The 16 address bytes.
        case v6([UInt8])
    }

    package let family: Family
    package var port: UInt16

    /// Parses `127.0.0.1`, `::1`, `[::1]` or `localhost`; nil for anything else.
    package init?(host: String, port: UInt16) {
        self.port = port
        var text = host
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.lowercased() == "localhost" { text = "127.0.0.1" }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            family = .v4(v4.s_addr)
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            family = .v6(withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    /// 127.0.0.0/8 or ::1: reachable from this machine only.
    package var isLoopback: Bool {
        switch family {
        case .v4(let a): return UInt32(bigEndian: a) >> 24 == 127
        case .v6(let bytes): return bytes == [UInt8](repeating: 0, count: 15) + [1]
        }
    }

    /// `127.0.0.1` or `[::1]`: the host part of a URL.
    package var hostText: String {
        switch family {
        case .v4(let a):
            let h = UInt32(bigEndian: a)
            return "\(h >> 24).\(h >> 16 & 0xFF).\(h >> 8 & 0xFF).\(h & 0xFF)"
        case .v6(var bytes):
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            _ = bytes.withUnsafeMutableBytes { inet_ntop(AF_INET6, $0.baseAddress, &text, socklen_t(text.count)) }
            let length = text.firstIndex(of: 0) ?? text.count
            return "[" + String(decoding: text[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) + "]"
        }
    }

    package var description: String { "\(hostText):\(port)" }

    package var domain: Int32 {
        switch family {
        case .v4: return AF_INET
        case .v6: return AF_INET6
        }
    }

    /// Calls `body` with the C socket address.
    package func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch family {
        case .v4(let a):
            var sin = sockaddr_in()
            sin.sin_family = sa_family_t(AF_INET)
            sin.sin_port = port.bigEndian
            sin.sin_addr = in_addr(s_addr: a)
            return withUnsafePointer(to: &sin) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .v6(let bytes):
            var sin6 = sockaddr_in6()
            sin6.sin6_family = sa_family_t(AF_INET6)
            sin6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &sin6.sin6_addr) { raw in
                for i in 0..<16 { raw[i] = bytes[i] }
            }
            return withUnsafePointer(to: &sin6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }
}
