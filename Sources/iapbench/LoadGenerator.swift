import Foundation

/// A closed-loop HTTP/1.1 load generator: `clients` keep-alive connections to
/// 127.0.0.1:`port`, each sending the same request again as soon as its answer is in, for
/// `duration` seconds, each answer timed on the monotonic clock.
///
/// The connections are driven by `threads` event-loop threads with `poll` (as `wrk -t2 -c16`
/// drives 16 connections from 2 threads), not a thread each: on a 2-core machine 16 client
/// threads were 16 more runnable threads competing with the server's for the same cores, and
/// the scheduler's time slices they took showed up as the server's p99.
struct LoadGenerator {
    let port: UInt16
    let request: [UInt8]
    let clients: Int
    let duration: Double
    var threads = 2

    struct Result {
        let requests: Int
        let errors: Int
        let seconds: Double
        /// Seconds per request, sorted.
        let latencies: [Double]
        /// The status codes seen, with counts.
        let statuses: [Int: Int]

        var requestsPerSecond: Double { Double(requests) / seconds }

        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            return latencies[min(latencies.count - 1, Int((p * Double(latencies.count - 1)).rounded(.up)))]
        }
    }

    func run() -> Result {
        let lock = NSLock()
        nonisolated(unsafe) var all: [Double] = []
        nonisolated(unsafe) var errors = 0
        nonisolated(unsafe) var statuses: [Int: Int] = [:]
        let group = DispatchGroup()
        let start = Benchmark.now()
        let deadline = start + duration
        let loops = max(1, min(threads, clients))
        for loop in 0..<loops {
            // Connections loop, loop + loops, ...: as even a share as `clients` allows.
            let count = (clients - loop + loops - 1) / loops
            group.enter()
            let thread = Thread { [self] in
                var latencies: [Double] = []
                latencies.reserveCapacity(200_000)
                var failed = 0
                var seen: [Int: Int] = [:]
                var connections = (0..<count).map { _ in Connection(port: port) }
                var sentAt = [Double](repeating: 0, count: count)
                /// Sends the next request on connection `i`, reconnecting first if it failed.
                func send(_ i: Int) {
                    while Benchmark.now() < deadline {
                        sentAt[i] = Benchmark.now()
                        if connections[i].send(request) { return }
                        failed += 1
                        connections[i].close()
                        connections[i] = Connection(port: port)
                    }
                }
                for i in 0..<count { send(i) }
                var fds = [pollfd](repeating: pollfd(), count: count)
                while Benchmark.now() < deadline {
                    for i in 0..<count { fds[i] = pollfd(fd: connections[i].descriptor, events: Int16(POLLIN), revents: 0) }
                    guard poll(&fds, nfds_t(count), 100) > 0 else { continue }
                    for i in 0..<count where fds[i].revents != 0 {
                        switch connections[i].receive() {
                        case .incomplete: continue
                        case .answered(let status):
                            latencies.append(Benchmark.now() - sentAt[i])
                            seen[status, default: 0] += 1
                        case .failed:
                            failed += 1
                            connections[i].close()
                            connections[i] = Connection(port: port)
                        }
                        send(i)
                    }
                }
                for c in connections { c.close() }
                lock.lock()
                all += latencies
                errors += failed
                for (k, v) in seen { statuses[k, default: 0] += v }
                lock.unlock()
                group.leave()
            }
            thread.start()
        }
        group.wait()
        let seconds = Benchmark.now() - start
        return Result(requests: all.count, errors: errors, seconds: seconds, latencies: all.sorted(), statuses: statuses)
    }

    /// One keep-alive connection: send a request, read exactly one response.
    struct Connection {
        private var fd: Int32 = -1
        private var buffer: [UInt8] = []
        private var chunk = [UInt8](repeating: 0, count: 64 << 10)
        /// The head of the response being read, once parsed, and how far the blank line that
        /// ends a head was looked for.
        private var parsed: (status: Int, length: Int)?
        private var scanned = 0

        init(port: UInt16) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            var tv = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var sin = sockaddr_in()
            sin.sin_family = sa_family_t(AF_INET)
            sin.sin_port = port.bigEndian
            sin.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            let ok = withUnsafePointer(to: &sin) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if ok != 0 {
                Glibc.close(fd)
                fd = -1
            }
        }

        func close() { if fd >= 0 { Glibc.close(fd) } }

        /// The socket, for `poll` (-1 when the connection could not be made).
        var descriptor: Int32 { fd }

        /// What one `recv` on a readable connection came to.
        enum Step {
            case incomplete
            case answered(Int)
            case failed
        }

        /// Sends a whole request; false when the connection failed.
        func send(_ request: [UInt8]) -> Bool {
            guard fd >= 0 else { return false }
            var sent = 0
            while sent < request.count {
                let n = request.withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL))
                }
                guard n > 0 else { return false }
                sent += n
            }
            return true
        }

        /// One `recv`, then the response's status if it is now whole. The connection reads into
        /// one buffer kept for it and parses each head once, from bytes: the client shares the
        /// cores with the server it measures, so what it spends per response is latency added to
        /// every figure.
        mutating func receive() -> Step {
            guard fd >= 0 else { return .failed }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return .failed }
            buffer.append(contentsOf: chunk[0..<n])
            return answered().map(Step.answered) ?? .incomplete
        }

        /// The status of the response now whole in the buffer, which is then dropped from it.
        private mutating func answered() -> Int? {
            if parsed == nil {
                parsed = Self.head(buffer, from: scanned)
                scanned = max(0, buffer.count - 3)
            }
            guard let (status, length) = parsed, buffer.count >= length else { return nil }
            if buffer.count == length {
                buffer.removeAll(keepingCapacity: true)
            } else {
                buffer.removeFirst(length)
            }
            parsed = nil
            scanned = 0
            return status
        }

        /// The response's status code, or nil when the connection failed: `send`, then
        /// `receive` until the answer is whole (blocking; for probes, not for the timed load).
        mutating func exchange(_ request: [UInt8]) -> Int? {
            guard send(request) else { return nil }
            if let status = answered() { return status }
            while true {
                switch receive() {
                case .incomplete: continue
                case .answered(let status): return status
                case .failed: return nil
                }
            }
        }

        /// The status and the whole response length, once the head is in: the blank line is
        /// looked for from `from` on (bytes before it were scanned by an earlier call).
        static func head(_ b: [UInt8], from: Int) -> (status: Int, length: Int)? {
            guard b.count >= 12 else { return nil }
            var end = -1
            var i = from
            while i + 4 <= b.count {
                if b[i] == 13 && b[i + 1] == 10 && b[i + 2] == 13 && b[i + 3] == 10 {
                    end = i + 4
                    break
                }
                i += 1
            }
            guard end > 0 else { return nil }
            func digit(_ c: UInt8) -> Int { c >= 48 && c <= 57 ? Int(c - 48) : 0 }
            let status = digit(b[9]) * 100 + digit(b[10]) * 10 + digit(b[11])
            // Each header line: "content-length:" in any case, then the digits.
            let name = Array("content-length:".utf8)
            var length = 0
            var line = 0
            while line < end {
                var next = line
                while next < end && b[next] != 10 { next += 1 }
                if next - line > name.count {
                    var matches = true
                    // Every byte of the name has bit 0x20 set, so OR-ing it in lowercases a letter.
                    for k in 0..<name.count where b[line + k] | 0x20 != name[k] {
                        matches = false
                        break
                    }
                    if matches {
                        var j = line + name.count
                        while j < next && b[j] == 32 { j += 1 }
                        while j < next, b[j] >= 48 && b[j] <= 57 {
                            length = length * 10 + Int(b[j] - 48)
                            j += 1
                        }
                    }
                }
                line = next + 1
            }
            return (status, end + length)
        }
    }
}
