import Foundation
import Testing

/// A child process that exits before reading its input fails only the test that ran it: the
/// test process ignores SIGPIPE and the harness takes EPIPE as "the child is gone" (before, such a
/// child killed the whole run with signal 13 and nothing was reported).
@Suite("Child processes that exit early")
struct ChildProcessTests {
    /// More than any pipe buffer holds, so the writer is still writing when the child exits.
    static let largeInput = [UInt8](repeating: 0x41, count: 4 << 20)

    @Test("a child that exits at once, fed megabytes on stdin, reports its exit code")
    func exitsAtOnce() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "echo bye >&2; exit 7"], stdin: Self.largeInput)
        #expect(outcome.code == 7)
        #expect(String(decoding: outcome.stderr, as: UTF8.self) == "bye\n")
        #expect(outcome.stdinWritten < Self.largeInput.count, "the child read everything: the test proves nothing")
    }

    @Test("Python without Apple's library fails with the fix named, and the run goes on")
    func pythonWithoutTheLibrary() throws {
        // -S leaves site-packages out, so the import fails whatever this machine has installed.
        let tokens = String(repeating: "t header.payload.signature\n", count: 200_000)
        let python = try ExternalTool.path("python3")
        let outcome = try ChildProcess.run(
            python, ["-S", "-c", AppleVerifier.script, CLIHarness.fixture("signing/root.pem"), "com.x.demo", "Sandbox"],
            stdin: Array(tokens.utf8))
        #expect(outcome.code == 3)
        let stderr = String(decoding: outcome.stderr, as: UTF8.self)
        #expect(stderr.contains("app-store-server-library is not importable"), "\(stderr)")
        #expect(stderr.contains("run 'make test', which sets up .build/venv from requirements-test.txt"), "\(stderr)")
    }

    @Test("a missing tool is an error naming the Debian package, not a crash")
    func missingTool() {
        #expect(throws: ExternalTool.Missing.self) { try ExternalTool.path("iapctl-no-such-tool") }
        do {
            _ = try ExternalTool.path("iapctl-no-such-tool")
        } catch {
            #expect(
                "\(error)"
                    == "iapctl-no-such-tool is not installed; the interop tests need it on PATH (Debian: apt-get install iapctl-no-such-tool)"
            )
        }
    }

    @Test("children start with SIGPIPE at its default, so their pipelines behave as in a shell")
    func childrenKeepDefaultSIGPIPE() throws {
        // `yes | head -1`: yes dies of SIGPIPE once head is gone; with SIGPIPE ignored it would
        // get EPIPE and complain on stderr instead.
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "yes | head -1; grep SigIgn /proc/self/status"])
        let lines = String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n")
        #expect(outcome.code == 0)
        #expect(lines.first == "y")
        let mask = lines.last.flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) } ?? 0
        #expect(mask & (1 << (UInt64(SIGPIPE) - 1)) == 0, "SIGPIPE is ignored in the child: \(lines)")
        #expect(outcome.stderr.isEmpty, "\(String(decoding: outcome.stderr, as: UTF8.self))")
    }
}
