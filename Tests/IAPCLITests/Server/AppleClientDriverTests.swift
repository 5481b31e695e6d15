import Foundation
import Testing

@testable import IAPJSON

#if canImport(Glibc)
    import Glibc
#endif

/// Apple's own `AppStoreServerAPIClient` (app-store-server-library 3.1.2, pinned in
/// requirements-test.txt) against a real `iapctl serve`: `Tests/interop/asl_driver.py` makes a
/// store's state through the CLI, calls every public method of the client (and a few of the async
/// client) with the library's own requests and bearer tokens, and checks each answer parses into the
/// library's model, every signed payload verifies with the library's `SignedDataVerifier`, and the
/// decoded values are what `dump`, `show`, `subscriptions` and `notifications` report
/// (docs/server-api.md). Each call is one JSON line; every line must be ok. A missing library is a
/// failure, never a skip.
@Suite("Apple's app-store-server-library against iapctl serve", .serialized)
struct AppleClientDriverTests {
    static let driver = CLIHarness.packageRoot + "/Tests/interop/asl_driver.py"
    static let appAppleID = "1234567890"
    static let webhookAttempts = "2"

    @Test("every public method of AppStoreServerAPIClient answers from the store as Apple documents it")
    func everyPublicMethod() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        // The App Store Connect key: serve checks the library's ES256 signature with it.
        let key = try ExternalTool.run(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "AuthKey_ABC123DEFG.p8"],
            in: h.directory)
        #expect(key.code == 0, "\(key)")

        // The driver starts first: it listens for the webhook and the Get Retention Message calls,
        // prints its port, then reads serve's address on stdin.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ExternalTool.path("python3"))
        process.arguments = [
            Self.driver, "--base-url", "stdin", "--iapctl", CLIHarness.binary, "--store", h.store, "--root",
            CLIHarness.fixture("signing/root.pem"), "--bundle-id", "com.x.demo", "--key", h.path("AuthKey_ABC123DEFG.p8"),
            "--app-apple-id", Self.appAppleID, "--webhook-port", "0", "--webhook-attempts", Self.webhookAttempts,
            "--timeout", "20",
        ]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        nonisolated(unsafe) var errorText = Data()
        let drained = DispatchGroup()
        DispatchQueue.global().async(group: drained) { errorText = errors.fileHandleForReading.readDataToEndOfFile() }
        let lines = LineReader(output.fileHandleForReading)

        let first = lines.next(timeout: 60)
        var port: Int?
        if case .number(let n)? = (first.flatMap { try? JSONParser.parse($0) })?["receiver"]?["port"] { port = Int(n) }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            drained.wait()
            Issue.record(
                "the driver printed no receiver port: \(first ?? "nothing"); stderr: \(String(decoding: errorText, as: UTF8.self))"
            )
            return
        }
        let server = try ServerProcess(
            store: h.store,
            [
                "--api-key", h.path("AuthKey_ABC123DEFG.p8"), "--app-apple-id", Self.appAppleID, "--webhook",
                "http://127.0.0.1:\(port)/notifications", "--webhook-attempts", Self.webhookAttempts, "--webhook-backoff", "0.1",
            ])
        input.fileHandleForWriting.write(Data((server.url + "\n").utf8))
        try? input.fileHandleForWriting.close()

        var results: [JSONValue] = []
        var summary: JSONValue?
        let deadline = Date(timeIntervalSinceNow: 900)
        while let line = lines.next(timeout: max(1, deadline.timeIntervalSinceNow)) {
            guard let json = try? JSONParser.parse(line) else {
                Issue.record("the driver printed a line that is not JSON: \(line)")
                continue
            }
            if json["summary"] != nil { summary = json["summary"] } else if json["method"] != nil { results.append(json) }
        }
        let finished = exited.wait(timeout: .now() + 30) == .success
        if !finished { kill(process.processIdentifier, SIGKILL) }
        drained.wait()
        #expect(server.stop() == 0)

        for result in results {
            #expect(result["ok"] == .bool(true), "\(Self.describe(result))")
        }
        #expect(finished && process.terminationStatus == 0, "driver: \(String(decoding: errorText, as: UTF8.self))")
        let failedMethods = (summary?["failedMethods"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(
            summary?["failed"] == .number("0"),
            "\(summary == nil ? "no summary (the driver stopped early)" : "failing methods: \(failedMethods.joined(separator: ", "))")"
        )
        #expect(results.count > 100, "the driver reported \(results.count) calls")
    }

    /// One failing call on one line: the method, the case, the request, the HTTP answer, and the
    /// first failing checks.
    static func describe(_ result: JSONValue) -> String {
        func text(_ key: String) -> String {
            switch result[key] {
            case .string(let s)?: return s
            case .number(let n)?: return n
            default: return "-"
            }
        }
        let failing = (result["checks"]?.arrayValue ?? []).filter { $0["ok"] != .bool(true) }.prefix(3).map {
            "\($0["check"]?.stringValue ?? "?"): \($0["detail"]?.stringValue ?? "")"
        }
        return "\(text("method")) [\(text("case"))] \(text("request")) -> HTTP \(text("status")) errorCode \(text("apiError")) "
            + "\(text("message")); failing: \(failing.joined(separator: " | "))"
    }
}
