import Foundation

/// Runs the outside tools the interop tests compare against: `openssl` and Apple's Python
/// `app-store-server-library` (`make test` installs it into `.build/venv` from
/// `requirements-test.txt` and puts that first on PATH). A missing tool is a failure of the tests
/// that need it, with a message naming the fix, never a skip and never the end of the run.
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
        throw Missing(
            description:
                "\(name) is not installed; the interop tests need it on PATH (Debian: apt-get install \(debianPackage(name)))")
    }

    /// The Debian package that installs the command `name`.
    static func debianPackage(_ name: String) -> String {
        switch name {
        case "python3": return "python3 python3-venv"
        default: return name
        }
    }

    /// Runs `name` with `arguments` in `directory`, feeding `stdin`.
    static func run(_ name: String, _ arguments: [String], in directory: String? = nil, stdin: String = "") throws -> (
        code: Int32, stdout: String, stderr: String
    ) {
        let outcome = try ChildProcess.run(try path(name), arguments, directory: directory, stdin: Array(stdin.utf8))
        return (
            outcome.code, String(decoding: outcome.stdout, as: UTF8.self), String(decoding: outcome.stderr, as: UTF8.self)
        )
    }

    /// `ReceiptUtility().extract_transaction_id_from_app_receipt(base64)` from Apple's library.
    static func appleExtractTransactionID(_ base64: String) throws -> String {
        let script = """
            import sys
            try:
                from appstoreserverlibrary.receipt_utility import ReceiptUtility
            except ImportError as e:
                print("app-store-server-library is not importable by %s (%s); run 'make test', which sets up .build/venv from requirements-test.txt and puts it first on PATH" % (sys.executable, e), file=sys.stderr)
                sys.exit(3)
            print(ReceiptUtility().extract_transaction_id_from_app_receipt(sys.stdin.read().strip()))
            """
        let r = try run("python3", ["-c", script], stdin: base64)
        guard r.code == 0 else { throw Missing(description: "python3 ReceiptUtility failed (\(r.code)): \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
