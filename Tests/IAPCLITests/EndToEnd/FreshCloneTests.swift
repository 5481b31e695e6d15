import Foundation
import Testing

/// The README's two commands are the whole set-up: in a fresh `git clone` of this repository,
/// with a `PATH` on which no Python has Apple's library, `make demo` and then `make test` pass
/// with nothing else typed. `make test` runs with a `FILTER` (the suite is already running, and
/// once is enough) that picks tests which need Apple's library, so they pass only if its own
/// set-up made `.build/venv` and put it on `PATH`.
///
/// The clone holds the committed tree (`git clone` takes what is committed, not the work tree).
@Suite("Fresh clone: the README's two commands")
struct FreshCloneTests {
    /// Set in the clone's `make test`, so that this test never runs inside itself.
    static let insideClone = ProcessInfo.processInfo.environment["IAPCTL_FRESH_CLONE"] == "1"

    /// The tests the clone's `make test` runs: one reads Apple's SignedDataVerifier output, the
    /// others feed children that exit early.
    static let filter = "appleVerifiesTransactions|ChildProcessTests"

    @Test("make demo, then make test, in a clean clone", .enabled(if: !insideClone))
    func twoCommands() throws {
        let scratch = CLIHarness("iapctl-fresh-clone")
        let clone = scratch.path("iapctl")
        let git = try ExternalTool.path("git")
        let cloned = try ChildProcess.run(
            git, ["clone", "--quiet", CLIHarness.packageRoot, clone], environment: Self.environment)
        try #require(cloned.code == 0, "git clone: \(Self.text(cloned.stderr))")

        // The precondition: nothing on this PATH can import the library (else the test proves nothing).
        let python = try ChildProcess.run(
            "/usr/bin/env", ["python3", "-c", "import appstoreserverlibrary"], environment: Self.environment)
        try #require(python.code != 0, "a python3 on \(Self.path) already has app-store-server-library")

        let demo = try Self.make(["demo"], in: scratch)
        #expect(demo.code == 0, "make demo: \(Self.text(demo.stdout))\(Self.text(demo.stderr))")
        #expect(Self.text(demo.stdout).contains("\nstore is clean\n"), "\(Self.text(demo.stdout))")
        #expect(Self.warnings(demo).isEmpty, "make demo printed warnings: \(Self.warnings(demo))")

        let test = try Self.make(["test", "FILTER=\(Self.filter)"], in: scratch)
        let output = Self.text(test.stdout) + Self.text(test.stderr)
        #expect(test.code == 0, "make test: \(output)")
        #expect(output.contains("setting up .build/venv from requirements-test.txt"), "\(output)")
        #expect(
            output.contains(
                "Apple's SignedDataVerifier verifies every signed transaction and reads exactly what dump shows\" passed"),
            "\(output)")
        #expect(output.contains("Suite \"Child processes that exit early\" passed"), "\(output)")
        #expect(Self.warnings(test).isEmpty, "make test printed warnings: \(Self.warnings(test))")
        let venvPython = clone + "/.build/venv/bin/python"
        let imported = try ChildProcess.run(venvPython, ["-c", "import appstoreserverlibrary"], environment: Self.environment)
        #expect(imported.code == 0, "the venv lacks the library: \(Self.text(imported.stderr))")

        // Made once, reused after; made again when the requirements change.
        let again = try Self.make(["test-setup"], in: scratch)
        #expect(again.code == 0 && Self.text(again.stdout).isEmpty, "\(Self.text(again.stdout))\(Self.text(again.stderr))")
        let requirements = clone + "/requirements-test.txt"
        let pinned = try String(contentsOfFile: requirements, encoding: .utf8)
        try (pinned + "# changed\n").write(toFile: requirements, atomically: true, encoding: .utf8)
        let changed = try Self.make(["test-setup"], in: scratch)
        #expect(changed.code == 0, "\(Self.text(changed.stderr))")
        #expect(Self.text(changed.stdout).contains("setting up .build/venv"), "\(Self.text(changed.stdout))")
    }

    /// The directory holding the `swift` this suite was built with, then the system's own.
    static let path: String = {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let swift = dirs.first { FileManager.default.isExecutableFile(atPath: $0 + "/swift") } ?? "/opt/swift/usr/bin"
        return swift + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    }()

    /// This process's environment without anything that points at a Python environment, a
    /// store, or the make that runs this suite.
    static func environment(in scratch: CLIHarness) -> [String: String] {
        var env = environment
        // SwiftPM keeps lock files in TMPDIR: inside the scratch directory they go away with it.
        env["TMPDIR"] = scratch.directory
        return env
    }

    static let environment: [String: String] = {
        var env = ProcessInfo.processInfo.environment
        for key in ["VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "IAPCTL_STORE", "IAPCTL_BIN", "MAKEFLAGS", "MAKELEVEL", "MFLAGS"] {
            env[key] = nil
        }
        env["PATH"] = path
        env["IAPCTL_FRESH_CLONE"] = "1"
        return env
    }()

    static func make(_ arguments: [String], in scratch: CLIHarness) throws -> ChildProcess.Outcome {
        try ChildProcess.run(
            try ExternalTool.path("make"), ["--no-print-directory"] + arguments, directory: scratch.path("iapctl"),
            environment: environment(in: scratch))
    }

    /// Lines that say `warning:` (the compiler's, the linker's, ours).
    static func warnings(_ outcome: ChildProcess.Outcome) -> [String] {
        (text(outcome.stdout) + "\n" + text(outcome.stderr)).split(separator: "\n").map(String.init)
            .filter { $0.contains("warning:") }
    }

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}
