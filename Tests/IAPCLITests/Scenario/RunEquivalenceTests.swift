import Foundation
import Testing

/// `iapctl run` keeps one store session from line to line (`StoreRegistry`, `Store.keepsSession`)
/// and, on its temporary store, does not sync: its result must still be exactly what the same
/// lines give run one process at a time.
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

    @Test("dump, events and the journal are byte-identical")
    func sameResult() throws {
        let kept = CLIHarness()
        let single = CLIHarness()
        let text = Self.lines.map { $0.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ") }.joined(
            separator: "\n")
        try (text + "\n").write(toFile: kept.path("s.iap"), atomically: true, encoding: .utf8)
        // --keep: the temporary store's path comes back on stderr; it ran without syncs.
        let run = kept.run(["run", "--keep", kept.path("s.iap")], useStore: false)
        #expect(run.code == 0, "\(run)")
        let prefix = "kept the scenario's store at "
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains(prefix) })
        kept.store = String(line[line.range(of: prefix)!.upperBound...])
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: kept.store).deletingLastPathComponent().path) }
        for arguments in Self.lines {
            #expect(single.run(arguments).code == 0)
        }
        for view in [["dump", "--json"], ["events", "--json"], ["queue", "--json"]] {
            let a = kept.run(view)
            let b = single.run(view)
            #expect(a.code == 0 && a.stdout == b.stdout, "\(view): \(a) vs \(b)")
        }
        #expect(
            FileManager.default.contents(atPath: kept.store + "/journal")
                == FileManager.default.contents(atPath: single.store + "/journal"))
    }
}
