import Foundation
import IAPJSON
import IAPKit

/// The foundation issue's figures: in-process purchase cycles, CLI cost against store size and
/// against `--version`, and `dump` against `jq`.
enum FoundationBenchmarks {
    /// purchase + finish cycles per second through IAPKit in one process (goal 1,000,000/s).
    /// Each cycle keeps the purchase's id, not the transaction, and finishes by id, as an app
    /// finishing a transaction later (`iapctl finish ID`) does: holding the whole transaction
    /// would make the finish copy its fields rather than change them in place.
    static func machineCycles(_ cycles: Int) throws -> Figure {
        var machine = Machine(catalog: try BuiltinCatalog.load(), state: StoreState())
        let archive = MemoryArchive(keeps: false)
        let product = ProductID("com.x.coin42")
        // Warm up, then measure.
        for _ in 0..<10_000 {
            let id = try machine.apply(.buy(product, user: nil, quantity: 1), archive: archive).transactions[0].id
            _ = try machine.apply(.finish([id]), archive: archive)
        }
        // The median of five runs of a fifth each: one run now and then lands on a stretch of
        // the machine doing something else (single runs ranged 0.84 to 1.42 M/s on the same
        // binary), and the median leaves that run out where a single timing was it.
        let runs = 5
        var rates: [Double] = []
        for _ in 0..<runs {
            let seconds = try Benchmark.time {
                for _ in 0..<(cycles / runs) {
                    let id = try machine.apply(.buy(product, user: nil, quantity: 1), archive: archive).transactions[0].id
                    _ = try machine.apply(.finish([id]), archive: archive)
                }
            }
            rates.append(Double(cycles / runs) / seconds)
        }
        return Figure("IAPKit purchase+finish cycles", rates.sorted()[runs / 2], "cycles/s", atLeast: 1_000_000)
    }

    /// Fills a store with `count` finished purchases, in batches that commit once each.
    static func populate(_ path: String, count: Int) throws {
        let store = Store(path: path)
        try store.create(StoreCreation(), force: true)
        try store.write { s throws(StoreError) in
            var left = count
            while left > 0 {
                let n = min(left, 2000)
                try s.apply(
                    batch: Array(repeating: .buy(ProductID("com.x.coin42"), user: nil, quantity: 1), count: n) + [.finishAll])
                left -= n
            }
        }
    }

    /// Mean seconds of `iapctl buy` + `iapctl finish` on a store, over `rounds`.
    static func buyFinish(_ binary: String, store: String, rounds: Int) -> Double {
        var total = 0.0
        for _ in 0..<rounds {
            let out = store + ".buy.json"
            let buy = Benchmark.spawn(binary, ["--store", store, "buy", "com.x.coin42", "--json"], stdout: out)
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            let id = (try? JSONParser.parse(text))?["transactionIdentifier"]?.stringValue ?? "0"
            let finish = Benchmark.spawn(binary, ["--store", store, "finish", id])
            total += buy.seconds + finish.seconds
        }
        return total / Double(rounds)
    }

    static func run(binary: String, scratch: String, large: Int, quick: Bool) throws -> [Figure] {
        var figures: [Figure] = []
        figures.append(try machineCycles(quick ? 200_000 : 2_000_000))

        let empty = scratch + "/empty"
        let big = scratch + "/big"
        try populate(empty, count: 0)
        try populate(big, count: large)
        let rounds = quick ? 20 : 100
        _ = buyFinish(binary, store: empty, rounds: 5)
        _ = buyFinish(binary, store: big, rounds: 5)
        // Alternate the two stores so that drift in the machine's load hits both alike.
        var emptyCost = 0.0
        var bigCost = 0.0
        for _ in 0..<rounds {
            emptyCost += buyFinish(binary, store: empty, rounds: 1)
            bigCost += buyFinish(binary, store: big, rounds: 1)
        }
        figures.append(Figure("buy+finish with \(large) finished / empty store", bigCost / emptyCost, "ratio", atMost: 1.3))

        var versionTimes: [Double] = []
        var buyTimes: [Double] = []
        for _ in 0..<rounds {
            versionTimes.append(Benchmark.spawn(binary, ["--version"]).seconds)
            buyTimes.append(Benchmark.spawn(binary, ["--store", empty, "buy", "com.x.coin42"]).seconds)
        }
        let version = versionTimes.sorted()[rounds / 2]
        let oneBuy = buyTimes.sorted()[rounds / 2]
        figures.append(Figure("iapctl buy (empty store) / iapctl --version", oneBuy / version, "ratio", atMost: 1.3))
        figures.append(Figure("iapctl --version", version * 1000, "ms"))
        figures.append(Figure("iapctl buy on an empty store", oneBuy * 1000, "ms"))

        let dumpFile = scratch + "/dump.json"
        let dump = Benchmark.median(3) { Benchmark.spawn(binary, ["--store", big, "dump"], stdout: dumpFile).seconds }
        if let jq = ["/usr/bin/jq", "/usr/local/bin/jq"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            let jqTime = Benchmark.median(3) { Benchmark.spawn(jq, ["-c", "."], stdin: dumpFile).seconds }
            figures.append(Figure("dump of \(large) / jq -c . of that output", dump / jqTime, "ratio", atMost: 0.2))
        } else {
            figures.append(Figure("dump of \(large) (jq not installed: ratio not measured)", dump, "s"))
        }
        let small = scratch + "/small"
        try populate(small, count: large / 10)
        let rssSmall = Benchmark.spawn(binary, ["--store", small, "dump"]).maxRSSKilobytes
        let rssBig = Benchmark.spawn(binary, ["--store", big, "dump"]).maxRSSKilobytes
        figures.append(
            Figure(
                "dump peak memory, \(large) / \(large / 10) transactions", Double(rssBig) / Double(rssSmall), "ratio", atMost: 1.2
            ))
        figures.append(Figure("dump peak memory at \(large) transactions", Double(rssBig) / 1024, "MiB"))
        return figures
    }
}
