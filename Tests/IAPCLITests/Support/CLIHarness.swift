import Foundation
import IAPCLI
import IAPKit

@testable import IAPJSON

/// What one iapctl run printed and returned.
struct CLIResult: CustomStringConvertible {
    let stdout: String
    let stderr: String
    let code: Int32

    var description: String { "exit \(code)\nstdout: \(stdout)\nstderr: \(stderr)" }

    /// Stdout parsed as JSON (fails the caller's expectation when it is not).
    var json: JSONValue? { try? JSONParser.parse(stdout) }
}

/// Runs the built `iapctl` binary in a scratch directory, as a user would, and in-process
/// through `IAPCLI.run` when many commands must run fast.
final class CLIHarness {
    /// A fresh temporary directory, removed when the harness goes away.
    let directory: String
    /// The store the harness's commands use (`--store`).
    var store: String

    init(_ name: String = "iapctl-test") {
        let template = NSTemporaryDirectory() + "/\(name)-XXXXXX"
        var bytes = Array(template.utf8CString)
        directory = bytes.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = directory + "/store"
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The built binary: next to the test bundle in SwiftPM's build folder.
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["IAPCTL_BIN"] { return path }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("iapctl").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/iapctl").path
    }()

    /// The package root, for fixtures.
    static let packageRoot: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static func fixture(_ relative: String) -> String { packageRoot + "/Fixtures/" + relative }

    /// Runs the real binary with `--store` set to this harness's store (unless `useStore` is
    /// false), in the harness directory, with `stdin` piped in.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, useStore: Bool = true, environment: [String: String] = [:]) -> CLIResult
    {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "IAPCTL_STORE")
        for (k, v) in environment { env[k] = v }
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(
                CLIHarness.binary, (useStore ? ["--store", store] : []) + arguments, directory: directory, environment: env,
                stdin: stdin.map { Array($0.utf8) })
        } catch {
            return CLIResult(stdout: "", stderr: "could not start \(CLIHarness.binary): \(error)", code: -1)
        }
        return CLIResult(
            stdout: String(decoding: outcome.stdout, as: UTF8.self), stderr: String(decoding: outcome.stderr, as: UTF8.self),
            code: outcome.code)
    }

    /// Runs a command line in-process through `IAPCLI.run` (no fork), for long sequences.
    @discardableResult
    func runInProcess(_ arguments: [String], stdin: String = "") -> CLIResult {
        let out = BufferConsole()
        let err = BufferConsole()
        let code = IAPCLI.run(
            arguments: ["--store", store] + arguments, environment: [:], stdout: out, stderr: err,
            standardInput: { Array(stdin.utf8) })
        return CLIResult(stdout: out.text, stderr: err.text, code: code.rawValue)
    }

    func path(_ relative: String) -> String { directory + "/" + relative }

    func write(_ relative: String, _ text: String) {
        _ = FileManager.default.createFile(atPath: path(relative), contents: Data(text.utf8))
    }

    func bytes(_ relative: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path(relative)) ?? Data())
    }
}
