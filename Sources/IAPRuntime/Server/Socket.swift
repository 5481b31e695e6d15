#if canImport(Glibc)
    import Glibc
#endif

/// Thin wrappers over the socket calls the server and the webhook client make, with errno
/// turned into text. Descriptors are close-on-exec, so `iapctl serve` never leaks a client
/// socket into a process it starts.
package enum Socket {
    package struct Failure: Error, CustomStringConvertible {
        package let call: String
        package let code: Int32

        package var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    package static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    package static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    package static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var v = value
        _ = setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size))
    }

    /// SO_SNDTIMEO or SO_RCVTIMEO.
    package static func setTimeout(_ fd: Int32, _ name: Int32, seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, name, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A stream socket bound to `address` and listening; returns it and the bound port (the
    /// kernel's choice when `address.port` is 0).
    package static func listen(on address: SocketAddress, backlog: Int32 = 128) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(address.domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if case .v6 = address.family { setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1) }
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "bind \(address)", code: code)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "listen", code: code)
        }
        setNonBlocking(fd)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let family = Int32(storage.ss_family)
        let port: UInt16 = withUnsafePointer(to: &storage) { p in
            if family == AF_INET6 {
                return p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        return (fd, port)
    }

    /// A blocking stream socket connected to `address`, or the failure.
    package static func connect(to address: SocketAddress, timeout: Double) throws -> Int32 {
        let fd = socket(address.domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        setTimeout(fd, SO_SNDTIMEO, seconds: timeout)
        setTimeout(fd, SO_RCVTIMEO, seconds: timeout)
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "connect \(address)", code: code)
        }
        return fd
    }

    /// Writes all of `bytes` (retrying short writes and EINTR); false when the peer is gone or
    /// the send timeout passed. MSG_NOSIGNAL: a vanished client must not raise SIGPIPE.
    package static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            done += n
        }
        return true
    }

    /// Waits until one of `fds` is readable (or has hung up), at most `timeout` seconds (nil:
    /// forever). Returns the readable descriptors; empty on timeout.
    package static func waitReadable(_ fds: [Int32], timeout: Double?) -> [Int32] {
        var set = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ms: Int32 = timeout.map { Int32(max(0, min($0 * 1000, Double(Int32.max))).rounded(.up)) } ?? -1
        while true {
            let n = poll(&set, nfds_t(set.count), ms)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return [] }
            return set.filter { $0.revents != 0 }.map(\.fd)
        }
    }

    /// The monotonic clock in seconds: for timeouts only, never for data.
    package static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
