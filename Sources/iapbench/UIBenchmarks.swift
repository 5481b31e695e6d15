import Foundation
import IAPJSON
import IAPKit

/// The Transaction Manager figures of issue 16, in headless Chromium driven through ChromeDriver's
/// WebDriver protocol (the one Selenium speaks), on a store of 10,000 transactions served by
/// `iapctl ui`:
///
/// - the time to the first full render: from the start of navigation to the page's own mark
///   `iapctl-first-render` (the overview and the first page of rows fetched, the rows in view
///   drawn), with the server's list cold (its first request) and as the median of reloads;
/// - the update latency: from the start of a CLI `iapctl buy` to the moment the new row is in
///   the page's DOM (a MutationObserver stamps it with the wall clock, which the bench shares).
///
/// A missing Chromium or ChromeDriver is reported as a figure naming the Debian packages, never
/// as a number.
enum UIBenchmarks {
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    static func run(binary: String, scratch: String, quick: Bool) throws -> [Figure] {
        let count = quick ? 2_000 : 10_000
        guard FileManager.default.isExecutableFile(atPath: chromium), FileManager.default.isExecutableFile(atPath: chromedriver)
        else {
            return [
                Figure(
                    "Transaction Manager: not measured, Chromium or ChromeDriver missing (apt-get install chromium chromium-driver)",
                    0, "-")
            ]
        }
        let store = scratch + "/ui"
        _ = Benchmark.spawn(binary, ["--store", store, "init", "--force"])
        let scenario = scratch + "/ui-seed.txt"
        try String(repeating: "buy com.x.coin42\n", count: count).appending("finish --all\n")
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        let seeded = Benchmark.spawn(binary, ["--store", store, "run", scenario])
        guard seeded.status == 0 else { throw BenchmarkFailure("seeding \(count) transactions failed: exit \(seeded.status)") }

        let server = try UIServer(binary: binary, store: store)
        defer { server.stop() }
        let driver = try ChromeDriver.start(path: chromedriver)
        defer { driver.stop() }
        let session = try driver.newSession(chromium: chromium)
        defer { session.close() }

        var figures: [Figure] = []
        let cold = try session.firstRender(url: server.url, expectedRows: count)
        figures.append(Figure("Transaction Manager, \(count) transactions: first full render (server list cold)", cold, "ms"))
        let reloads = try (0..<(quick ? 3 : 7)).map { _ in try session.firstRender(url: server.url, expectedRows: count) }
            .sorted()
        figures.append(
            Figure(
                "Transaction Manager, \(count) transactions: first full render (median of \(reloads.count))",
                reloads[reloads.count / 2], "ms", atMost: 1000))

        var latencies: [Double] = []
        var nextID = TransactionID.first.rawValue + UInt64(count)
        for _ in 0..<(quick ? 5 : 20) {
            let id = String(nextID)
            try session.watchForRow(id)
            let started = Date().timeIntervalSince1970 * 1000
            let buy = Benchmark.spawn(binary, ["--store", store, "buy", "com.x.coin42"])
            guard buy.status == 0 else { throw BenchmarkFailure("iapctl buy exited \(buy.status)") }
            let seen = try session.rowSeen()
            latencies.append(seen - started)
            nextID += 1
        }
        latencies.sort()
        figures.append(
            Figure(
                "Transaction Manager: CLI buy to its row on the page, median of \(latencies.count)",
                latencies[latencies.count / 2], "ms"))
        figures.append(Figure("Transaction Manager: CLI buy to its row on the page, slowest", latencies.last!, "ms"))
        return figures
    }

    /// `iapctl ui` on a store, on a free port.
    final class UIServer {
        let process = Process()
        let url: String

        init(binary: String, store: String) throws {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["--store", store, "ui", "--port", "0"]
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
            guard let start = text.range(of: "http://") else {
                process.terminate()
                throw BenchmarkFailure("iapctl ui did not print its URL: '\(text)'")
            }
            url = String(text[start.lowerBound...].prefix { !$0.isWhitespace })
        }

        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
    }

    /// A ChromeDriver process on a free loopback port.
    final class ChromeDriver {
        let process = Process()
        let port: UInt16

        static func start(path: String) throws -> ChromeDriver { try ChromeDriver(path: path) }

        private init(path: String) throws {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = ["--port=0"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            var found: UInt16?
            while found == nil {
                let data = out.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                if let r = text.range(of: "started successfully on port ") {
                    let digits = text[r.upperBound...].prefix { $0.isNumber }
                    if text[r.upperBound...].dropFirst(digits.count).first != nil { found = UInt16(digits) }
                }
            }
            guard let found else {
                process.terminate()
                throw BenchmarkFailure("chromedriver did not say its port: '\(text)'")
            }
            port = found
        }

        func newSession(chromium: String) throws -> WebDriverSession {
            var args = ["--headless=new", "--disable-gpu", "--window-size=1440,900", "--no-first-run", "--disable-extensions"]
            if getuid() == 0 { args.append("--no-sandbox") }  // Chromium's sandbox cannot run as root
            let capabilities: JSONValue = .object([
                (
                    "capabilities",
                    .object([
                        (
                            "alwaysMatch",
                            .object([
                                ("browserName", .string("chrome")),
                                (
                                    "goog:chromeOptions",
                                    .object([("binary", .string(chromium)), ("args", .array(args.map { .string($0) }))])
                                ),
                            ])
                        )
                    ])
                )
            ])
            let answer = try WebDriverSession.call(port, "POST", "/session", capabilities)
            guard let id = answer["sessionId"]?.stringValue else {
                throw BenchmarkFailure("chromedriver gave no session: \(answer)")
            }
            let session = WebDriverSession(port: port, id: id)
            _ = try session.command("POST", "timeouts", .object([("script", .number("60000")), ("pageLoad", .number("60000"))]))
            return session
        }

        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
    }

    /// One browser session: W3C WebDriver commands over HTTP/1.1 on loopback.
    struct WebDriverSession {
        let port: UInt16
        let id: String

        func command(_ method: String, _ path: String, _ body: JSONValue? = nil) throws -> JSONValue {
            try Self.call(port, method, "/session/\(id)/\(path)", body)
        }

        func close() { _ = try? Self.call(port, "DELETE", "/session/\(id)", nil) }

        /// Runs `script` (a function body; its last argument is the callback) until it calls back.
        func executeAsync(_ script: String, _ arguments: [JSONValue] = []) throws -> JSONValue {
            try command("POST", "execute/async", .object([("script", .string(script)), ("args", .array(arguments))]))
        }

        /// Navigates and returns the page's own first-render mark, in milliseconds after the
        /// navigation started; checks that the list knows every row.
        func firstRender(url: String, expectedRows: Int) throws -> Double {
            _ = try command("POST", "url", .object([("url", .string(url))]))
            let result = try executeAsync(
                """
                const done = arguments[arguments.length - 1];
                const look = () => {
                  const mark = performance.getEntriesByName('iapctl-first-render')[0];
                  if (mark) done({at: mark.startTime, rows: document.querySelectorAll('#tx-rows .grid-row[data-id]').length,
                                  total: Number(document.getElementById('tx-grid').getAttribute('aria-rowcount')) - 1});
                  else setTimeout(look, 1);
                };
                look();
                """)
            guard let at = result["at"].flatMap(number), let total = result["total"]?.int64Value,
                let rows = result["rows"]?.int64Value
            else { throw BenchmarkFailure("the page gave no first-render mark: \(result)") }
            guard total == expectedRows, rows > 0 else {
                throw BenchmarkFailure("the page shows \(rows) rows of \(total), expected \(expectedRows)")
            }
            return at
        }

        /// A JSON number as a Double.
        func number(_ value: JSONValue) -> Double? {
            if case .number(let text) = value { return Double(text) }
            return nil
        }

        /// Stamps the wall-clock time (ms since 1970) at which a row for `id` enters the DOM.
        func watchForRow(_ id: String) throws {
            _ = try executeAsync(
                """
                const id = arguments[0], done = arguments[arguments.length - 1];
                window.__iapctlSeen = null;
                const rows = document.getElementById('tx-rows');
                const seen = () => rows.querySelector(`.grid-row[data-id="${id}"]`) !== null;
                const observer = new MutationObserver(() => {
                  if (window.__iapctlSeen === null && seen()) { window.__iapctlSeen = performance.timeOrigin + performance.now(); observer.disconnect(); }
                });
                observer.observe(rows, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-id']});
                done(true);
                """, [.string(id)])
        }

        /// The stamp `watchForRow` set, once it is set.
        func rowSeen() throws -> Double {
            let result = try executeAsync(
                """
                const done = arguments[arguments.length - 1];
                const look = () => { if (window.__iapctlSeen !== null) done(window.__iapctlSeen); else setTimeout(look, 1); };
                look();
                """)
            guard let at = number(result) else { throw BenchmarkFailure("no row seen: \(result)") }
            return at
        }

        /// One WebDriver call: the response's `value`, or the error it names.
        static func call(_ port: UInt16, _ method: String, _ path: String, _ body: JSONValue?) throws -> JSONValue {
            var w = JSONWriter()
            w.value(body ?? .object([]))
            let payload = method == "GET" || method == "DELETE" ? [] : w.bytes
            var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
            request += "Content-Type: application/json\r\nContent-Length: \(payload.count)\r\n\r\n"
            let response = try exchange(port, Array(request.utf8) + payload)
            guard let split = response.firstRange(of: [13, 10, 13, 10]) else {
                throw BenchmarkFailure("chromedriver answered \(method) \(path) with no HTTP head")
            }
            let value = try JSONParser.parse(Array(response[split.upperBound...]))
            if let error = value["value"]?["error"]?.stringValue {
                let message = value["value"]?["message"]?.stringValue ?? ""
                throw BenchmarkFailure("WebDriver \(method) \(path): \(error): \(message)")
            }
            return value["value"] ?? .null
        }

        /// Sends the request and reads one response.
        static func exchange(_ port: UInt16, _ request: [UInt8]) throws -> [UInt8] {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw BenchmarkFailure("no socket for chromedriver") }
            defer { Glibc.close(fd) }
            var patience = timeval(tv_sec: 120, tv_usec: 0)  // no WebDriver call takes this long
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
            var sin = sockaddr_in()
            sin.sin_family = sa_family_t(AF_INET)
            sin.sin_port = port.bigEndian
            sin.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            let connected = withUnsafePointer(to: &sin) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw BenchmarkFailure("cannot connect to chromedriver on port \(port)") }
            var sent = 0
            while sent < request.count {
                let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { throw BenchmarkFailure("chromedriver closed the connection") }
                sent += n
            }
            // ChromeDriver says Connection: close but may keep the socket open: read the head,
            // then exactly Content-Length bytes.
            var response: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                if let (_, length) = LoadGenerator.Connection.head(response, from: 0), response.count >= length { return response }
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return response }
                response += chunk[0..<n]
            }
        }
    }
}
