import Foundation
import IAPKit

/// Issue 12's figures, measured in the same run as the rest: a buy against the queue's size,
/// against `--version`, `--version` against a minimal statically linked Swift program, journal
/// bytes per purchase and finish, and `iapctl run` lines per second on its temporary store.
enum ArchitectureBenchmarks {
    /// A store with `count` unfinished purchases, made in batches (one commit each).
    static func queued(_ path: String, count: Int) throws {
        let store = Store(path: path)
        try store.create(StoreCreation(), force: true)
        try store.write { s throws(StoreError) in
            var left = count
            while left > 0 {
                let n = min(left, 2000)
                try s.apply(batch: Array(repeating: .buy(ProductID("com.x.coin42"), user: nil, quantity: 1), count: n))
                left -= n
            }
            try s.checkpoint()
        }
    }

    /// `print("hi")` built with `swiftc -O -static-stdlib`: the floor a Swift executable starts at.
    static func minimalProgram(scratch: String) -> String? {
        let source = scratch + "/hi.swift"
        let binary = scratch + "/hi"
        _ = FileManager.default.createFile(atPath: source, contents: Data("print(\"hi\")\n".utf8))
        let swiftc = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let swiftc, Benchmark.spawn(swiftc, ["-O", "-static-stdlib", source, "-o", binary]).status == 0 else { return nil }
        return binary
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    static func run(binary: String, scratch: String, quick: Bool) throws -> [Figure] {
        var figures: [Figure] = []
        let rounds = quick ? 20 : 100
        let empty = scratch + "/arch-empty"
        let full = scratch + "/arch-queued"
        try queued(empty, count: 0)
        try queued(full, count: 10_000)
        for _ in 0..<5 {
            _ = Benchmark.spawn(binary, ["--store", empty, "buy", "com.x.coin42"])
            _ = Benchmark.spawn(binary, ["--store", full, "buy", "com.x.coin42"])
        }
        // Alternate everything measured against each other, so drift in the machine's load hits
        // each alike; medians.
        var emptyBuys: [Double] = []
        var fullBuys: [Double] = []
        var versions: [Double] = []
        var minimal: [Double] = []
        let hi = minimalProgram(scratch: scratch)
        for _ in 0..<rounds {
            emptyBuys.append(Benchmark.spawn(binary, ["--store", empty, "buy", "com.x.coin42"]).seconds)
            fullBuys.append(Benchmark.spawn(binary, ["--store", full, "buy", "com.x.coin42"]).seconds)
            versions.append(Benchmark.spawn(binary, ["--version"]).seconds)
            if let hi { minimal.append(Benchmark.spawn(hi, []).seconds) }
        }
        func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        figures.append(
            Figure(
                "buy with 10000 unfinished / buy on an empty store", median(fullBuys) / median(emptyBuys), "ratio", atMost: 1.2))
        figures.append(
            Figure("buy on an empty store / iapctl --version", median(emptyBuys) / median(versions), "ratio", atMost: 1.3))
        if hi != nil {
            figures.append(
                Figure(
                    "iapctl --version / print(\"hi\") (swiftc -O -static-stdlib)", median(versions) / median(minimal), "ratio",
                    atMost: 1.3))
            figures.append(Figure("print(\"hi\") (swiftc -O -static-stdlib)", median(minimal) * 1000, "ms"))
        } else {
            figures.append(Figure("iapctl --version / a minimal Swift program (swiftc not found: not measured)", 0, "ratio"))
        }
        figures.append(Figure("buy with 10000 unfinished transactions", median(fullBuys) * 1000, "ms"))

        // Journal bytes of one purchase and its finish, as the CLI commits them.
        let budget = scratch + "/arch-budget"
        _ = Benchmark.spawn(binary, ["--store", budget, "init"])
        let before = fileSize(budget + "/journal")
        _ = Benchmark.spawn(binary, ["--store", budget, "buy", "com.x.coin42", "--account", "Handsome Jon"])
        _ = Benchmark.spawn(binary, ["--store", budget, "finish", "--all"])
        figures.append(
            Figure(
                "journal bytes per purchase+finish (with an --account user)", Double(fileSize(budget + "/journal") - before),
                "bytes", atMost: 400))

        // buy+finish lines in one `iapctl run` on its temporary store.
        let lines = quick ? 2_000 : 20_000
        let file = scratch + "/arch-run.iap"
        let text = String(repeating: "buy com.x.coin42\nfinish --all\n", count: lines / 2)
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        let run = Benchmark.spawn(binary, ["run", file])
        figures.append(
            Figure(
                "iapctl run on its temporary store: buy+finish lines per second", Double(lines) / run.seconds, "lines/s",
                atLeast: 50_000))
        return figures
    }
}
