import Foundation
import IAPKit

/// Issue 4's scale benchmark: a store with N monthly auto-renewable subscriptions (one per
/// subscription group, as an account has at most one per group) moved forward by one clock
/// advance of Y years, about N x 12 x Y renewals, then dumped. Both run through the real `Store`
/// (journal, fsync, state file), as the CLI runs them.
enum SubscriptionBenchmarks {
    /// A sink that only counts, so the dump's cost is the store's, not a terminal's.
    struct CountingSink: ByteSink {
        var bytes = 0
        mutating func write(_ chunk: [UInt8]) throws(StoreError) { bytes += chunk.count }
    }

    /// A catalog of `count` monthly subscriptions, each in its own group.
    static func catalog(_ count: Int) -> String {
        let products = (0..<count).map { i in
            """
                {"productIdentifier": "com.bench.sub\(i)", "type": "autoRenewable", "referenceName": "Bench \(i)",
                 "localizations": {"en_US": {"title": "Bench \(i)", "description": "Monthly subscription \(i)"}},
                 "prices": {"USA": "2.99"}, "subscriptionPeriod": "P1M", "subscriptionGroup": "group\(i)", "groupLevel": 1}
            """
        }
        return "{\"format\": \"iapctl-catalog\", \"version\": 1, \"products\": [\n" + products.joined(separator: ",\n") + "\n]}\n"
    }

    static func run(scratch: String, subscriptions: Int, years: Int) throws -> [Figure] {
        let directory = scratch + "/subscriptions"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let catalogPath = directory + "/catalog.json"
        try catalog(subscriptions).write(toFile: catalogPath, atomically: true, encoding: .utf8)
        let store = Store(path: directory + "/store")
        try store.create(StoreCreation(catalogFile: catalogPath), force: true)
        // Setup, in one batch: subscribe to everything and finish the purchases.
        try store.write { s throws(StoreError) in
            let bought = try s.apply(
                batch: (0..<subscriptions).map { .buy(ProductID("com.bench.sub\($0)"), user: nil, quantity: 1) })
            try s.apply(.finish(bought.transactions.map(\.id)))
        }
        // For reference, the state machine alone on the same state.
        var machine = try store.read { s throws(StoreError) in s.machine }
        let target = SubscriptionPeriod(value: years, unit: .year).advance(machine.state.clock)
        let machineOnly = try Benchmark.time {
            _ = try machine.apply(.advanceClock(to: target), archive: MemoryArchive(keeps: false))
        }
        var renewals = 0
        let advance = try Benchmark.time {
            try store.write { s throws(StoreError) in
                let effects = try s.apply(.advanceClock(to: target))
                for e in effects.events { if case .subscriptionRenewed = e.kind { renewals += 1 } }
            }
        }
        var sink = CountingSink()
        let dump = try Benchmark.time { try store.read { s throws(StoreError) in try s.dump(TransactionFilter(), into: &sink) } }
        return [
            Figure("clock advance P\(years)Y over \(subscriptions) subscriptions: renewals", Double(renewals), "renewals"),
            Figure("clock advance P\(years)Y, renewals per second (whole command)", Double(renewals) / advance, "renewals/s"),
            Figure(
                "clock advance P\(years)Y, renewals per second (state machine alone)", Double(renewals) / machineOnly,
                "renewals/s"),
            Figure("clock advance P\(years)Y / dump of the resulting store", advance / dump, "ratio"),
        ]
    }
}
