import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit

/// Helpers shared by the crypto tests: fixtures, hex, scratch directories and the openssl CLI.
enum CryptoTestSupport {
    /// The package root, found by walking up from this file to the directory holding Package.swift.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    static func fixture(_ relativePath: String) throws -> Data {
        try Data(contentsOf: packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relativePath))
    }

    static func fixtureText(_ relativePath: String) throws -> String {
        String(decoding: try fixture(relativePath), as: UTF8.self)
    }

    static func hex(_ text: String) -> [UInt8] {
        let cleaned = text.filter { !$0.isWhitespace }
        guard let bytes = Hex.decode(cleaned) else {
            Issue.record("bad hex in test: \(text)")
            return []
        }
        return bytes
    }

    /// A fresh scratch directory, removed by `body`'s end.
    static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iapkit-crypto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }

    /// Makes SIGPIPE harmless in the test process, once (see ``openssl(_:in:stdin:expectSuccess:)``):
    /// a handler that does nothing, which exec resets in children, where `SIG_IGN` would be
    /// inherited.
    static let ignoreBrokenPipe: Void = {
        signal(SIGPIPE) { _ in }
    }()

    struct OpenSSLError: Error, CustomStringConvertible {
        var description: String
    }

    /// The openssl executable. Cross-check tests fail (not skip) without it.
    static func opensslPath() throws -> String {
        let candidates =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/openssl" }
            + ["/usr/bin/openssl", "/usr/local/bin/openssl"]
        for path in candidates where FileManager.default.isExecutableFile(atPath: path) { return path }
        throw OpenSSLError(
            description:
                "openssl is not installed; the crypto cross-check tests need it on PATH (Debian: apt-get install openssl)")
    }

    /// Runs openssl with `arguments` in `directory`; returns its exit status and stdout/stderr.
    @discardableResult
    static func openssl(
        _ arguments: [String], in directory: URL? = nil, stdin: Data? = nil, expectSuccess: Bool = true
    ) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try opensslPath())
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        // An openssl that exits before reading its input must fail this test only: with SIGPIPE
        // ignored the write below gets EPIPE instead of killing the test process.
        _ = ignoreBrokenPipe
        try process.run()
        let writer = input.fileHandleForWriting
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            if let stdin { try? writer.write(contentsOf: stdin) }
            try? writer.close()
        }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let stderr = String(decoding: errData, as: UTF8.self)
        if expectSuccess && process.terminationStatus != 0 {
            throw OpenSSLError(
                description: "openssl \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(stderr)")
        }
        return (process.terminationStatus, outData, stderr)
    }
}
