import Foundation
import IAPJSON
import IAPKit

#if canImport(Glibc)
    import Glibc
#endif

/// A program run to completion with a bound on its time: killed (and reported) if it overruns.
struct BoundedRun: CustomStringConvertible {
    let stdout: String
    let stderr: String
    let code: Int32
    let timedOut: Bool

    var description: String { "exit \(code)\(timedOut ? " (timed out)" : "")\nstdout: \(stdout)\nstderr: \(stderr)" }

    static func run(_ executable: String, _ arguments: [String], stdin: String? = nil, timeout: Double = 30) -> BoundedRun {
        _ = ChildProcess.ignoreBrokenPipe
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do {
            try process.run()
        } catch {
            return BoundedRun(stdout: "", stderr: "could not start \(executable): \(error)", code: -1, timedOut: false)
        }
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        let readers = DispatchGroup()
        let writer = input.fileHandleForWriting
        DispatchQueue.global().async(group: readers) {
            _ = ChildProcess.feed(Array((stdin ?? "").utf8), to: writer)
            try? writer.close()
        }
        DispatchQueue.global().async(group: readers) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: readers) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        var timedOut = false
        if done.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            done.wait()
        }
        readers.wait()
        return BoundedRun(
            stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
            code: process.terminationStatus,
            timedOut: timedOut)
    }

    /// curl, bounded by its own `--max-time` and by the process timeout.
    static func curl(_ arguments: [String], timeout: Double = 20) -> BoundedRun {
        run("/usr/bin/curl", ["--silent", "--show-error", "--max-time", "15"] + arguments, timeout: timeout)
    }

    /// `python3 -c SCRIPT ARGS...`.
    static func python(_ script: String, _ arguments: [String] = [], timeout: Double = 30) -> BoundedRun {
        run("/usr/bin/env", ["python3", "-c", script] + arguments, timeout: timeout)
    }
}

/// Reads lines from a pipe with a deadline, without sleeping: a reader thread feeds a queue.
final class LineReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private var closed = false

    init(_ handle: FileHandle) {
        Thread { [self] in
            var partial: [UInt8] = []
            while true {
                let data = handle.availableData
                condition.lock()
                if data.isEmpty {
                    if !partial.isEmpty { lines.append(String(decoding: partial, as: UTF8.self)) }
                    closed = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                for b in data {
                    if b == 0x0A {
                        lines.append(String(decoding: partial, as: UTF8.self))
                        partial.removeAll()
                    } else {
                        partial.append(b)
                    }
                }
                condition.broadcast()
                condition.unlock()
            }
        }.start()
    }

    /// The next line, or nil when the pipe closed or `timeout` passed first.
    func next(timeout: Double = 20) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty && !closed {
            if !condition.wait(until: deadline) { break }
        }
        return lines.isEmpty ? nil : lines.removeFirst()
    }
}

/// `iapctl serve` running in the background on a store, for end-to-end tests.
final class ServerProcess {
    let process = Process()
    let stdout: LineReader
    let stderrPipe = Pipe()
    /// The first line the server printed.
    let firstLine: String?
    /// `http://127.0.0.1:PORT`.
    let url: String
    let port: Int
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `iapctl --store STORE serve --port 0 EXTRA...` and waits (bounded) for its address line.
    init(store: String, _ extra: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: CLIHarness.binary)
        process.arguments = ["--store", store, "serve", "--port", "0"] + extra
        let out = Pipe()
        process.standardOutput = out
        process.standardError = stderrPipe
        process.standardInput = FileHandle.nullDevice
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        stdout = LineReader(out.fileHandleForReading)
        firstLine = stdout.next(timeout: 30)
        let prefix = "listening on "
        guard let line = firstLine, line.hasPrefix(prefix) else {
            kill(process.processIdentifier, SIGKILL)
            throw ServerStartFailure(
                line: firstLine, stderr: String(decoding: stderrPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        url = String(line.dropFirst(prefix.count))
        port = Int(url.split(separator: ":").last!)!
    }

    struct ServerStartFailure: Error, CustomStringConvertible {
        let line: String?
        let stderr: String
        var description: String { "serve did not start: first line \(line ?? "none"); stderr: \(stderr)" }
    }

    var pid: pid_t { process.processIdentifier }

    /// Sends `signal` and waits (bounded) for the exit; returns the exit status, or nil on timeout.
    func stop(_ signal: Int32 = SIGTERM, timeout: Double = 30) -> Int32? {
        kill(pid, signal)
        return waitForExit(timeout: timeout)
    }

    func waitForExit(timeout: Double = 30) -> Int32? {
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        exited.signal()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    var stderr: String { String(decoding: stderrPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
    }
}

/// App Store Server API bearer tokens for tests: well-formed, unsigned (the shipped check is
/// well-formedness until an API key is configured).
enum BearerToken {
    static func make(bid: String = "com.x.demo") -> String {
        let now = Int64(time(nil))
        func b64(_ s: String) -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let signature = Data(repeating: 7, count: 64).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return b64(#"{"alg":"ES256","kid":"ABC123DEFG","typ":"JWT"}"#) + "."
            + b64(
                #"{"iss":"57246542-96fe-1a63-e053-0824d011072a","iat":\#(now - 5),"exp":\#(now + 1200),"aud":"appstoreconnect-v1","bid":"\#(bid)"}"#
            )
            + "." + signature
    }
}

/// A loopback webhook receiver in Python's `http.server`, written by nobody on this project: it
/// answers each of `requests` POSTs with 200 and prints the body as one line, so a test reads
/// exactly what `iapctl serve --webhook` delivered.
final class WebhookReceiver {
    private let python = Process()
    let lines: LineReader
    let port: String

    init(requests: Int) throws {
        let script = """
            import http.server, sys
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers['Content-Length']))
                    self.send_response(200); self.send_header('Content-Length', '0'); self.end_headers()
                    print(body.decode(), flush=True)
                def log_message(self, *a): pass
            s = http.server.HTTPServer(('127.0.0.1', 0), H)
            s.timeout = 60
            print(s.server_address[1], flush=True)
            for _ in range(int(sys.argv[1])): s.handle_request()
            """
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, String(requests)]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        lines = LineReader(out.fileHandleForReading)
        guard let port = lines.next() else {
            kill(python.processIdentifier, SIGKILL)
            throw NoPort()
        }
        self.port = port
    }

    struct NoPort: Error, CustomStringConvertible {
        var description: String { "the Python webhook receiver printed no port" }
    }

    deinit { if python.isRunning { kill(python.processIdentifier, SIGKILL) } }

    /// The `signedPayload` of each of the next `count` deliveries, or nil when fewer arrived in time.
    func signedPayloads(_ count: Int) throws -> [String]? {
        var payloads: [String] = []
        for _ in 0..<count {
            guard let body = lines.next(timeout: 30), let p = try JSONParser.parse(body)["signedPayload"]?.stringValue
            else { return nil }
            payloads.append(p)
        }
        return payloads
    }
}
