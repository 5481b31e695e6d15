import Foundation

/// A closed-loop HTTP/1.1 load generator: `clients` threads, each with one keep-alive connection
/// to 127.0.0.1:`port`, sending the same request back to back for `duration` seconds and timing
/// each answer on the monotonic clock.
struct LoadGenerator {
    let port: UInt16
    let request: [UInt8]
    let clients: Int
    let duration: Double

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
        for _ in 0..<clients {
            group.enter()
            let thread = Thread { [self] in
                var latencies: [Double] = []
                latencies.reserveCapacity(100_000)
                var failed = 0
                var seen: [Int: Int] = [:]
                var connection = Connection(port: port)
                while Benchmark.now() < deadline {
                    let t0 = Benchmark.now()
                    guard let status = connection.exchange(request) else {
                        failed += 1
                        connection = Connection(port: port)
                        continue
                    }
                    latencies.append(Benchmark.now() - t0)
                    seen[status, default: 0] += 1
                }
                connection.close()
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

        /// The response's status code, or nil when the connection failed. The client shares the
        /// machine's cores with the server it measures, so it reads into one buffer kept for the
        /// connection and parses each head once, from bytes: what it spends per response is
        /// latency it would otherwise add to every figure (at 16 clients on 2 cores, a client
        /// that rescanned and re-decoded its buffer per `recv` cost as much as the server).
        mutating func exchange(_ request: [UInt8]) -> Int? {
            guard fd >= 0 else { return nil }
            var sent = 0
            while sent < request.count {
                let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { return nil }
                sent += n
            }
            var scanned = 0
            var parsed: (status: Int, length: Int)?
            while true {
                if parsed == nil {
                    parsed = Self.head(buffer, from: scanned)
                    scanned = max(0, buffer.count - 3)
                }
                if let (status, length) = parsed, buffer.count >= length {
                    if buffer.count == length {
                        buffer.removeAll(keepingCapacity: true)
                    } else {
                        buffer.removeFirst(length)
                    }
                    return status
                }
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { return nil }
                buffer.append(contentsOf: chunk[0..<n])
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
