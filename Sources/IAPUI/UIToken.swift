import IAPCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// The secret a server writes into the page it serves and wants back on every action
/// (`X-IAPCTL-Token`): 32 random bytes from the kernel, as 64 lowercase hex digits.
///
/// Another origin cannot read the page (the browser's same-origin policy), so it cannot learn the
/// token; a request that carries it came from the page. It is drawn anew by each server and
/// never written to disk. The comparison takes the same time whatever the guess, so the token
/// cannot be found one digit at a time.
package struct UIToken: Sendable, Equatable {
    package let hex: String

    package init(hex: String) {
        self.hex = hex
    }

    /// A new token from `/dev/urandom` (getrandom's source); nil if the kernel gives no
    /// randomness, in which case the server must not start the page.
    package static func random() -> UIToken? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            filled += n
        }
        return UIToken(hex: Hex.encode(bytes))
    }

    /// Whether `candidate` is this token, in time independent of where they first differ.
    package func matches(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let a = Array(hex.utf8)
        let b = Array(candidate.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<a.count { difference |= a[i] ^ (i < b.count ? b[i] : 0) }
        return difference == 0
    }
}
