import Foundation
import IAPCrypto
import IAPKit

/// The `iapctl serve` figures of issues 7 and 13: requests per second and p99 latency with 16
/// concurrent keep-alive loopback clients (the bench's own load generator), for `GET /health`
/// (HTTP alone), one endpoint of each App Store Server API family (issue 13 point 6, goal p99
/// <= 5 ms; bearer tokens ES256-signed and verified against `serve --api-key`), and
/// `POST /verifyReceipt`; then health, a transaction lookup and verifyReceipt while a CLI process
/// buys in a loop on the same store, with the writer's own rate and how often it found the store
/// busy (its lock timeout is the default 10 s, so any busy exit means the server starved it);
/// last, notifications signed per second.
enum ServerBenchmarks {
    static let clients = 16

    static func run(binary: String, scratch: String, quick: Bool) throws -> [Figure] {
        let store = scratch + "/serve"
        _ = Benchmark.spawn(binary, ["--store", store, "init", "--force"])
        _ = Benchmark.spawn(binary, ["--store", store, "buy", "com.x.vip2"])
        let coinJSON = scratch + "/coin.json"
        _ = Benchmark.spawn(binary, ["--store", store, "buy", "com.x.coin42", "--json"], stdout: coinJSON)
        let coin = try String(contentsOfFile: coinJSON, encoding: .utf8)
        guard let order = field("orderIdentifier", in: coin), let coinID = field("transactionIdentifier", in: coin) else {
            throw BenchmarkFailure("iapctl buy --json printed no orderIdentifier/transactionIdentifier: '\(coin)'")
        }
        let key = try APIKey(scratch: scratch)
        let server = try Server(binary: binary, store: store, apiKey: key)
        var figures: [Figure] = []
        do {
            defer { server.stop() }
            figures = try measure(
                binary: binary, store: store, server: server, key: key, order: order, coin: coinID, quick: quick)
        }
        figures += try notificationsSigned(store: store)
        return figures
    }

    /// One request per App Store Server API endpoint family (docs/server-api.md section 2), each
    /// with an ES256 bearer token the server verifies against `--api-key`; the reads first, then
    /// the writes (each a store commit), so the reads see the same store.
    static func families(token: String, order: String, coin: String) -> [(name: String, request: [UInt8])] {
        let first = TransactionID.first.description
        let auth = ["Authorization: Bearer \(token)"]
        let json = auth + ["Content-Type: application/json"]
        return [
            ("GET /inApps/v1/transactions/{id}", request("GET /inApps/v1/transactions/\(first)", headers: auth)),
            ("GET /inApps/v2/history/{id}", request("GET /inApps/v2/history/\(first)", headers: auth)),
            ("GET /inApps/v1/subscriptions/{id}", request("GET /inApps/v1/subscriptions/\(first)", headers: auth)),
            ("GET /inApps/v2/refund/lookup/{id}", request("GET /inApps/v2/refund/lookup/\(first)", headers: auth)),
            ("GET /inApps/v1/lookup/{orderId}", request("GET /inApps/v1/lookup/\(order)", headers: auth)),
            (
                "GET /inApps/v1/transactions/appTransactions/{id}",
                request("GET /inApps/v1/transactions/appTransactions/\(first)", headers: auth)
            ),
            ("GET /inApps/v1/messaging/message/list", request("GET /inApps/v1/messaging/message/list", headers: auth)),
            (
                "POST /inApps/v1/notifications/history",
                request(
                    "POST /inApps/v1/notifications/history", headers: json,
                    body: #"{"startDate":1767139200000,"endDate":4102444800000}"#)
            ),
            (
                "PUT /inApps/v2/transactions/consumption/{id}",
                request(
                    "PUT /inApps/v2/transactions/consumption/\(coin)", headers: json,
                    body:
                        #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":100000,"refundPreference":"DECLINE"}"#
                )
            ),
            (
                "PUT /inApps/v1/subscriptions/extend/{id} (past Apple's two a year: 403)",
                request(
                    "PUT /inApps/v1/subscriptions/extend/\(first)", headers: json,
                    body: #"{"extendByDays":1,"extendReasonCode":1,"requestIdentifier":"iapbench-extend"}"#)
            ),
        ]
    }

    static func measure(
        binary: String, store: String, server: Server, key: APIKey, order: String, coin: String, quick: Bool
    ) throws -> [Figure] {
        let duration = quick ? 1.5 : 5
        let token = key.bearerToken()
        // One retention message, so the message list has an entry to answer with.
        var probe = LoadGenerator.Connection(port: server.port)
        let message = request(
            "PUT /inApps/v1/messaging/message/00000000-0000-4000-8000-00000000bbbb",
            headers: ["Authorization: Bearer \(token)", "Content-Type: application/json"],
            body: #"{"header":"Stay with us","body":"A month on us if you stay."}"#)
        guard probe.exchange(message) == 200 else { throw BenchmarkFailure("iapctl serve refused the retention message") }
        let health = ("GET /health", request("GET /health"))
        let families = families(token: token, order: order, coin: coin)
        // verifyReceipt is measured once a receipt engine answers it (HTTP 200); until then the
        // server answers 501 after the request checks, which says nothing about verification.
        let receiptBody = #"{"receipt-data":"\#(Data(repeating: 0x30, count: 3000).base64EncodedString())"}"#
        let receipt = request("POST /verifyReceipt", headers: ["Content-Type: application/json"], body: receiptBody)
        let receiptStatus = probe.exchange(receipt)
        // Every family must answer 2xx once before it is timed: a figure for an error path
        // would say nothing about the endpoint. (The extension answers 200 twice, then Apple's
        // limit of two per 365 days, 403 4030005: its row shows both statuses.)
        for (name, bytes) in families.dropLast() {
            guard let status = probe.exchange(bytes), (200..<300).contains(status) else {
                throw BenchmarkFailure("iapctl serve did not answer \(name) with 2xx")
            }
        }
        probe.close()

        var alone = [health] + families
        if receiptStatus == 200 { alone.append(("POST /verifyReceipt", receipt)) }
        var figures: [Figure] = []
        for (name, bytes) in alone {
            _ = LoadGenerator(port: server.port, request: bytes, clients: clients, duration: 0.3).run()
            let r = LoadGenerator(port: server.port, request: bytes, clients: clients, duration: duration).run()
            let family = families.contains { $0.name == name }
            figures += describe(r, "serve \(name), \(clients) clients", goal: family ? 5 : nil)
        }
        let together = [health, families[0]] + (receiptStatus == 200 ? [("POST /verifyReceipt", receipt)] : [])
        let writerAlone = Writer(binary: binary, store: store)
        writerAlone.start()
        Thread.sleep(forTimeInterval: duration)  // the measurement window, not a synchronization
        let baseline = writerAlone.stop()
        figures.append(Figure("CLI buys on the served store, no clients", Double(baseline.commits) / baseline.seconds, "buys/s"))
        for (name, bytes) in together {
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

    /// Notifications signed per second of CPU time: IAPKit's `NotificationLog` over the served
    /// store once the load is over (every notification of its log: the buys of the CLI writers,
    /// the consumption answers and extensions), each with its signed transaction (and renewal
    /// info for a subscription) inside, as `iapctl notifications` and the webhook make them.
    /// The log replay is included: it is part of making each notification.
    static func notificationsSigned(store path: String) throws -> [Figure] {
        let store = Store(path: path)
        func cpu() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
        var count = 0
        var seconds = Double.infinity
        for _ in 0..<3 {
            let start = cpu()
            count = try store.read { session throws(StoreError) in
                try NotificationLog.notifications(since: 0, in: session, signer: try StoreTransactionSigner(session: session))
                    .count
            }
            seconds = min(seconds, cpu() - start)
        }
        return [
            Figure("notifications in the served store's log", Double(count), "count"),
            Figure(
                "notifications signed per second (NotificationLog, CPU time, best of 3)", Double(count) / seconds,
                "notifs/s"),
        ]
    }

    /// The string value of `"key":"..."` in JSON text (the bench's own reading of `buy --json`).
    static func field(_ key: String, in text: String) -> String? {
        guard let range = text.range(of: "\"\(key)\":\"") else { return nil }
        let rest = text[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Requests per second and p99; `goal` (ms) is issue 13's p99 goal, set on the endpoint
    /// families measured alone.
    static func describe(_ r: LoadGenerator.Result, _ name: String, goal: Double? = nil) -> [Figure] {
        let statuses = r.statuses.keys.sorted().map { "\($0)" }.joined(separator: "/")
        let p99 = r.percentile(0.99) * 1000
        return [
            Figure("\(name) [HTTP \(statuses)\(r.errors > 0 ? ", \(r.errors) errors" : "")]", r.requestsPerSecond, "req/s"),
            goal.map { Figure("\(name): p99 latency", p99, "ms", atMost: $0) } ?? Figure("\(name): p99 latency", p99, "ms"),
        ]
    }

    static func request(_ line: String, headers: [String] = [], body: String = "") -> [UInt8] {
        var text = "\(line) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for h in headers { text += h + "\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.utf8.count)\r\n" }
        return Array((text + "\r\n" + body).utf8)
    }

    /// The App Store Connect API key the bench registers with `serve --api-key` (its public
    /// half, as a PEM file) and signs its bearer tokens with, ES256 as Apple's client libraries
    /// do: a fixed scalar, so runs are alike.
    struct APIKey {
        static let id = "BENCH00001"
        let privateKey: P256.PrivateKey
        let publicKeyPath: String

        init(scratch: String) throws {
            privateKey = try P256.PrivateKey(rawRepresentation: SHA256.hash(Array("iapbench api key".utf8)))
            publicKeyPath = scratch + "/bench-api-key.pem"
            try privateKey.publicKey.pemRepresentation.write(toFile: publicKeyPath, atomically: true, encoding: .utf8)
        }

        /// A token as `app-store-server-library` makes it (header alg/kid/typ; bid, iss, aud,
        /// iat, exp), valid for 20 minutes from the wall clock, signed with the key.
        func bearerToken() -> String {
            let now = Int(Date().timeIntervalSince1970)
            let input =
                Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(Self.id)","typ":"JWT"}"#.utf8)) + "."
                + Base64URL.encode(
                    Array(
                        #"{"iss":"bench","iat":\#(now),"exp":\#(now + 1200),"aud":"appstoreconnect-v1","bid":"com.x.demo"}"#.utf8)
                )
            return input + "." + Base64URL.encode(privateKey.signature(for: Array(input.utf8)).rawRepresentation)
        }
    }

    /// `iapctl serve --port 0` in the background.
    final class Server {
        let process = Process()
        let port: UInt16

        init(binary: String, store: String, apiKey: APIKey) throws {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = [
                "--store", store, "serve", "--port", "0", "--api-key", apiKey.publicKeyPath, "--api-key-id", APIKey.id,
            ]
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
