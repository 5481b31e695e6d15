import Foundation
import IAPKit

/// The `iapctl serve` figures of issue 7: requests per second and p99 latency with 16 concurrent
/// keep-alive loopback clients (the bench's own load generator), for `GET /health` (HTTP alone),
/// a transaction lookup (a store read under the shared lock), and `POST /verifyReceipt` once a
/// receipt engine answers it; then the same while a CLI process buys in a loop on the same store,
/// with the writer's own rate and how often it found the store busy (its lock timeout is the
/// default 10 s, so any busy exit means the server starved it).
enum ServerBenchmarks {
    static let clients = 16

    static func run(binary: String, scratch: String, quick: Bool) throws -> [Figure] {
        let store = scratch + "/serve"
        _ = Benchmark.spawn(binary, ["--store", store, "init", "--force"])
        _ = Benchmark.spawn(binary, ["--store", store, "buy", "com.x.vip2"])
        let server = try Server(binary: binary, store: store)
        defer { server.stop() }
        let duration = quick ? 1.5 : 5
        let token = bearerToken()
        let first = TransactionID.first.description
        var targets: [(name: String, request: [UInt8])] = [
            ("GET /health", request("GET /health")),
            (
                "GET /inApps/v1/transactions/{id}",
                request("GET /inApps/v1/transactions/\(first)", headers: ["Authorization: Bearer \(token)"])
            ),
        ]
        // verifyReceipt is measured once a receipt engine answers it (HTTP 200); until then the
        // server answers 501 after the request checks, which says nothing about verification.
        let receiptBody = #"{"receipt-data":"\#(Data(repeating: 0x30, count: 3000).base64EncodedString())"}"#
        let receipt = request("POST /verifyReceipt", headers: ["Content-Type: application/json"], body: receiptBody)
        var probe = LoadGenerator.Connection(port: server.port)
        let receiptStatus = probe.exchange(receipt)
        probe.close()
        if receiptStatus == 200 { targets.append(("POST /verifyReceipt", receipt)) }

        var figures: [Figure] = []
        for (name, bytes) in targets {
            _ = LoadGenerator(port: server.port, request: bytes, clients: clients, duration: 0.3).run()
            let r = LoadGenerator(port: server.port, request: bytes, clients: clients, duration: duration).run()
            figures += describe(r, "serve \(name), \(clients) clients")
        }
        let alone = Writer(binary: binary, store: store)
        alone.start()
        Thread.sleep(forTimeInterval: duration)  // the measurement window, not a synchronization
        let baseline = alone.stop()
        figures.append(Figure("CLI buys on the served store, no clients", Double(baseline.commits) / baseline.seconds, "buys/s"))
        for (name, bytes) in targets {
            let writer = Writer(binary: binary, store: store)
            writer.start()
            let r = LoadGenerator(port: server.port, request: bytes, clients: clients, duration: duration).run()
            let w = writer.stop()
            figures += describe(r, "serve \(name), \(clients) clients + CLI writer")
            figures.append(Figure("  CLI buys alongside (\(name))", Double(w.commits) / w.seconds, "buys/s"))
            figures.append(Figure("  CLI buys that found the store busy (\(name))", Double(w.busy), "exits", atMost: 0))
        }
        if receiptStatus != 200 {
            figures.append(Figure("serve POST /verifyReceipt (no receipt engine yet: HTTP \(receiptStatus ?? 0))", 0, "-"))
        }
        return figures
    }

    static func describe(_ r: LoadGenerator.Result, _ name: String) -> [Figure] {
        let statuses = r.statuses.keys.sorted().map { "\($0)" }.joined(separator: "/")
        return [
            Figure("\(name) [HTTP \(statuses)\(r.errors > 0 ? ", \(r.errors) errors" : "")]", r.requestsPerSecond, "req/s"),
            Figure("\(name): p99 latency", r.percentile(0.99) * 1000, "ms"),
        ]
    }

    static func request(_ line: String, headers: [String] = [], body: String = "") -> [UInt8] {
        var text = "\(line) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for h in headers { text += h + "\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.utf8.count)\r\n" }
        return Array((text + "\r\n" + body).utf8)
    }

    /// A well-formed App Store Server API token, valid for 20 minutes.
    static func bearerToken() -> String {
        func b64(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let now = Int(Date().timeIntervalSince1970)
        return b64(Array(#"{"alg":"ES256","kid":"BENCH00001","typ":"JWT"}"#.utf8)) + "."
            + b64(
                Array(#"{"iss":"bench","iat":\#(now),"exp":\#(now + 1200),"aud":"appstoreconnect-v1","bid":"com.x.demo"}"#.utf8))
            + "."
            + b64([UInt8](repeating: 1, count: 64))
    }

    /// `iapctl serve --port 0` in the background.
    final class Server {
        let process = Process()
        let port: UInt16

        init(binary: String, store: String) throws {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["--store", store, "serve", "--port", "0"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var line: [UInt8] = []
            while !line.contains(0x0A) {
                let data = out.fileHandleForReading.availableData
                if data.isEmpty { break }
                line += data
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.lastIndex(of: ":"),
                let port = UInt16(text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
            else {
                process.terminate()
                throw BenchmarkFailure("iapctl serve did not print its address: '\(text)'")
            }
            self.port = port
        }

        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
    }

    /// A CLI process after another buying on the store (and finishing every 10th time, so the
    /// queue stays short), from its own thread, until stopped.
    final class Writer: @unchecked Sendable {
        let binary: String
        let store: String
        private let lock = NSLock()
        private var running = true
        private var commits = 0
        private var busy = 0
        private let done = DispatchSemaphore(value: 0)
        private var started = 0.0

        init(binary: String, store: String) {
            self.binary = binary
            self.store = store
        }

        func start() {
            started = Benchmark.now()
            Thread { [self] in
                var n = 0
                while true {
                    lock.lock()
                    let go = running
                    lock.unlock()
                    guard go else { break }
                    n += 1
                    let arguments =
                        n % 10 == 0 ? ["--store", store, "finish", "--all"] : ["--store", store, "buy", "com.x.coin42"]
                    let status = Benchmark.spawn(binary, arguments).status
                    lock.lock()
                    if status == 0 { commits += 1 } else if status == 75 { busy += 1 }
                    lock.unlock()
                }
                done.signal()
            }.start()
        }

        func stop() -> (commits: Int, busy: Int, seconds: Double) {
            lock.lock()
            running = false
            lock.unlock()
            done.wait()
            lock.lock()
            defer { lock.unlock() }
            return (commits, busy, Benchmark.now() - started)
        }
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
