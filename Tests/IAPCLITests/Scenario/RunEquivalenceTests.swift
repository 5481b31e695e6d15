import Foundation
import Testing

/// `iapctl run` keeps one store session from line to line (`StoreRegistry`, `Store.keepsSession`)
/// and, on its temporary store, neither syncs nor takes the lock per line (`Store.holdsLock`):
/// its result must still be exactly what the same lines give run one process at a time.
@Suite("iapctl run equals one process per line")
struct RunEquivalenceTests {
    static let lines: [[String]] = [
        ["buy", "com.x.coin42", "--account", "Handsome Jon", "--quantity", "2"],
        ["buy", "com.x.noads"],
        ["finish", "2000000000000001"],
        ["buy", "com.x.vip2"],
        ["buy", "com.x.coin210"],
        ["finish", "--all"],
        ["buy", "com.x.coin42"],
        ["clock", "advance", "P1M"],
        ["restore"],
    ]

    static func scenario(_ lines: [[String]]) -> String {
        lines.map { $0.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ") }.joined(separator: "\n") + "\n"
    }

    /// Runs `text` with `iapctl run` and returns its result and the store it left (named on
    /// stderr), which the caller removes.
    static func run(_ harness: CLIHarness, _ text: String, arguments: [String], environment: [String: String] = [:]) throws
        -> (CLIResult, String)
    {
        try text.write(toFile: harness.path("s.iap"), atomically: true, encoding: .utf8)
        let run = harness.run(["run"] + arguments + [harness.path("s.iap")], useStore: false, environment: environment)
        let prefix = "kept the scenario's store at "
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains(prefix) }, "\(run)")
        return (run, String(line[line.range(of: prefix)!.upperBound...]))
    }

    /// The two stores hold the same transactions, events, queue and journal bytes, and the run's
    /// is clean under `doctor`.
    static func expectSame(_ a: CLIHarness, _ b: CLIHarness) {
        for view in [["dump", "--json"], ["events", "--json"], ["queue", "--json"]] {
            let x = a.run(view)
            let y = b.run(view)
            #expect(x.code == 0 && x.stdout == y.stdout, "\(view): \(x) vs \(y)")
        }
        #expect(
            FileManager.default.contents(atPath: a.store + "/journal")
                == FileManager.default.contents(atPath: b.store + "/journal"))
        let doctor = a.run(["doctor"])
        #expect(doctor.code == 0, "\(doctor)")
    }

    @Test("a --keep store: dump, events and the journal are byte-identical")
    func keptStore() throws {
        let kept = CLIHarness()
        let single = CLIHarness()
        // --keep: the temporary store's path comes back on stderr; a kept store syncs and is
        // locked per line.
        let (run, store) = try Self.run(kept, Self.scenario(Self.lines), arguments: ["--keep"])
        kept.store = store
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: store).deletingLastPathComponent().path) }
        #expect(run.code == 0, "\(run)")
        for arguments in Self.lines {
            #expect(single.run(arguments).code == 0)
        }
        Self.expectSame(kept, single)
    }

    /// The store a plain `run` deletes at the end, kept only by the tests' variable (it stays
    /// unsynced and under the one lock): long enough for several checkpoints of the state and
    /// of the index, with reads of transactions that left the index's memory in between.
    @Test("the private unsynced store: the same result as one process per line")
    func privateStore() throws {
        var lines = Self.lines
        for n in 0..<300 {
            lines.append(["buy", n % 3 == 0 ? "com.x.coin42" : "com.x.coin210", "--account", "user \(n % 7)"])
            lines.append(["finish", "--all"])
            if n % 50 == 49 {
                lines.append(["show", "2000000000000001"])
                lines.append(["dump", "--json"])
            }
        }
        lines.append(["restore"])
        let run = CLIHarness()
        let single = CLIHarness()
        // Checks inside the run read history back through the kept session.
        let text =
            Self.scenario(lines) + "expect state 2000000000000001 purchased\n"
            + "show 2000000000000101 --json\nexpect json .finished == true\n"
        let (result, store) = try Self.run(
            run, text, arguments: [], environment: ["IAPCTL_TEST_KEEP_PRIVATE_STORE": "1"])
        run.store = store
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: store).deletingLastPathComponent().path) }
        #expect(result.code == 0 && result.stdout == "2 passed, 0 failed\n", "\(result)")
        // One process per line: each line loads the store afresh (in process, to keep it quick).
        for arguments in lines {
            #expect(single.runInProcess(arguments).code == 0, "\(arguments)")
        }
        #expect(single.runInProcess(["show", "2000000000000101", "--json"]).code == 0)
        Self.expectSame(run, single)
        // Without the variable the store is gone afterwards.
        let plain = CLIHarness()
        try Self.scenario(Self.lines).write(toFile: plain.path("p.iap"), atomically: true, encoding: .utf8)
        let gone = plain.run(["run", "--json", plain.path("p.iap")], useStore: false)
        #expect(gone.code == 0 && gone.stdout.contains("\"store\":null"), "\(gone)")
    }
}
