import Foundation
import IAPKit

// iapbench: the scale benchmark of issue 4. A store with N monthly auto-renewable subscriptions
// (one per subscription group, as an account has at most one per group) is moved forward by
// one `clock advance` of Y years, about N x 12 x Y renewals; then the resulting store is dumped.
// Both run through the real `Store` on a temporary directory (journal, fsync, state file), as
// the CLI runs them. Prints renewals processed per second and the advance's time as a ratio to
// the dump's. Usage: iapbench [subscriptions (default 1000)] [years (default 10)]

/// A sink that only counts, so the dump's cost is the store's, not a terminal's.
struct CountingSink: ByteSink {
    var bytes = 0
    mutating func write(_ chunk: [UInt8]) throws(StoreError) { bytes += chunk.count }
}

/// A catalog of `count` monthly subscriptions, each in its own group.
func benchCatalog(_ count: Int) -> String {
    let products = (0..<count).map { i in
        """
            {"productIdentifier": "com.bench.sub\(i)", "type": "autoRenewable", "referenceName": "Bench \(i)",
             "localizations": {"en_US": {"title": "Bench \(i)", "description": "Monthly subscription \(i)"}},
             "prices": {"USA": "2.99"}, "subscriptionPeriod": "P1M", "subscriptionGroup": "group\(i)", "groupLevel": 1}
        """
    }
    return "{\"format\": \"iapctl-catalog\", \"version\": 1, \"products\": [\n" + products.joined(separator: ",\n") + "\n]}\n"
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func main() throws {
    let args = CommandLine.arguments.dropFirst().compactMap { Int($0) }
    let subscriptions = args.first ?? 1000
    let years = args.dropFirst().first ?? 10
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iapbench-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let catalogPath = directory + "/catalog.json"
    try benchCatalog(subscriptions).write(toFile: catalogPath, atomically: true, encoding: .utf8)

    let store = Store(path: directory + "/store")
    try store.create(StoreCreation(catalogFile: catalogPath), force: false)
    let clock = ContinuousClock()

    // Setup: subscribe to everything, finish the purchases (as the app would).
    let setupStart = clock.now
    try store.write { s throws(StoreError) in
        for i in 0..<subscriptions {
            let bought = try s.apply(.buy(ProductID("com.bench.sub\(i)"), user: nil, quantity: 1))
            try s.apply(.finish(bought.transactions.map(\.id)))
        }
    }
    let setup = seconds(clock.now - setupStart)

    // For reference, the state machine alone on the same state: no journal, no state file.
    var machine = try store.read { s throws(StoreError) in s.machine }
    let target = SubscriptionPeriod(value: years, unit: .year).advance(machine.state.clock)
    let machineStart = clock.now
    _ = try machine.apply(.advanceClock(to: target), archive: MemoryArchive(keeps: false))
    let machineOnly = seconds(clock.now - machineStart)

    // The measured command: one advance of `years` years, loading and committing the store.
    var renewals = 0
    let advanceStart = clock.now
    try store.write { s throws(StoreError) in
        let effects = try s.apply(.advanceClock(to: target))
        for e in effects.events { if case .subscriptionRenewed = e.kind { renewals += 1 } }
    }
    let advance = seconds(clock.now - advanceStart)

    // The yardstick: dump of the resulting store.
    var sink = CountingSink()
    let dumpStart = clock.now
    try store.read { s throws(StoreError) in try s.dump(TransactionFilter(), into: &sink) }
    let dump = seconds(clock.now - dumpStart)

    func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
    print("setup: \(subscriptions) monthly subscriptions bought and finished in \(f(setup)) s")
    print("clock advance P\(years)Y: \(renewals) renewals in \(f(advance)) s: \(Int(Double(renewals) / advance)) renewals/s")
    print("  of which the state machine alone: \(f(machineOnly)) s: \(Int(Double(renewals) / machineOnly)) renewals/s")
    print("dump: \(sink.bytes) bytes in \(f(dump)) s")
    print("advance/dump time ratio: \(f(advance / dump))")
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("iapbench: \(error)\n".utf8))
    exit(1)
}
