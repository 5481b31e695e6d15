import Foundation

/// Runs the outside tools the interop tests compare against: `openssl` and Apple's Python
/// `app-store-server-library` (installed by `.ci/run` from `requirements-test.txt`). A missing
/// tool is a test failure, never a skip.
enum ExternalTool {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    static func path(_ name: String) throws -> String {
        let dirs =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + [
                "/usr/bin", "/usr/local/bin",
            ]
        for dir in dirs where FileManager.default.isExecutableFile(atPath: dir + "/" + name) { return dir + "/" + name }
        throw Missing(description: "\(name) is not installed; the receipt interop tests need it on PATH (.ci/run installs it)")
    }

    /// Runs `name` with `arguments` in `directory`, feeding `stdin`.
    static func run(_ name: String, _ arguments: [String], in directory: String? = nil, stdin: String = "") throws -> (
        code: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(name))
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// `ReceiptUtility().extract_transaction_id_from_app_receipt(base64)` from Apple's library.
    static func appleExtractTransactionID(_ base64: String) throws -> String {
        let script = """
            import sys
            try:
                from appstoreserverlibrary.receipt_utility import ReceiptUtility
            except ImportError as e:
                print("app-store-server-library is not installed (pip install -r requirements-test.txt): %s" % e, file=sys.stderr)
                sys.exit(3)
            print(ReceiptUtility().extract_transaction_id_from_app_receipt(sys.stdin.read().strip()))
            """
        let r = try run("python3", ["-c", script], stdin: base64)
        guard r.code == 0 else { throw Missing(description: "python3 ReceiptUtility failed (\(r.code)): \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
