import Foundation
import IAPKit

// `iapbench [--quick] [--binary PATH] [--json FILE]`: measures every figure the issues name, in
// one run, prints them as a table, and writes them as JSON so a later run can be compared.
// `--crypto-only` measures only the ECDSA figures (each against openssl speed in the same run)
// and writes them to --json FILE when one is given; `--server-only` the `iapctl serve` figures
// (every App Store Server API endpoint family, notifications signed per second), likewise.
let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, in arguments: [String]) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
let quick = arguments.contains("--quick")
let binary =
    option("--binary", in: arguments)
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("iapctl").path
let jsonPath = option("--json", in: arguments) ?? "bench/results.json"
let scratch = NSTemporaryDirectory() + "/iapbench-\(getpid())"

/// Every benchmark the arguments ask for. A failure (a missing tool, a command that did not
/// answer as expected) is reported on one line by the caller, not as a trap.
func runBenchmarks() throws {
    var figures: [Figure] = []
    if arguments.contains("--subscriptions-only") {
        BenchmarkReport.print(try SubscriptionBenchmarks.run(scratch: scratch, subscriptions: quick ? 100 : 1000, years: 10))
        return
    }
    if arguments.contains("--ui-only") {
        let ui = try UIBenchmarks.run(binary: binary, scratch: scratch, quick: quick)
        BenchmarkReport.print(ui)
        if let path = option("--json", in: arguments) { try BenchmarkReport.write(ui, to: path, quick: quick) }
        return
    }
    if arguments.contains("--architecture-only") {
        BenchmarkReport.print(try ArchitectureBenchmarks.run(binary: binary, scratch: scratch, quick: quick))
        return
    }
    if arguments.contains("--crypto-only") {
        let crypto = try CryptoBenchmarks.run(quick: quick)
        BenchmarkReport.print(crypto)
        if let path = option("--json", in: arguments) { try BenchmarkReport.write(crypto, to: path, quick: quick) }
        return
    }
    if arguments.contains("--server-only") {
        let server = try ServerBenchmarks.run(binary: binary, scratch: scratch, quick: quick)
        BenchmarkReport.print(server)
        if let path = option("--json", in: arguments) { try BenchmarkReport.write(server, to: path, quick: quick) }
        return
    }
    if arguments.contains("--machine-only") {
        // `--cycles N`: fewer cycles, for a profile under callgrind.
        let cycles = option("--cycles", in: arguments).flatMap { Int($0) } ?? 1_000_000
        BenchmarkReport.print([try FoundationBenchmarks.machineCycles(cycles)])
        return
    }
    figures += try FoundationBenchmarks.run(binary: binary, scratch: scratch, large: quick ? 20_000 : 100_000, quick: quick)
    figures += try SubscriptionBenchmarks.run(scratch: scratch, subscriptions: quick ? 100 : 1000, years: 10)
    figures += try ArchitectureBenchmarks.run(binary: binary, scratch: scratch, quick: quick)
    figures += try ScenarioBenchmarks.run(binary: binary, scratch: scratch, quick: quick)
    figures += try ServerBenchmarks.run(binary: binary, scratch: scratch, quick: quick)
    figures += try ReceiptBenchmarks.run(binary: binary, scratch: scratch, quick: quick)
    figures += try CryptoBenchmarks.run(quick: quick)
    figures += try UIBenchmarks.run(binary: binary, scratch: scratch, quick: quick)

    BenchmarkReport.print(figures)
    try BenchmarkReport.write(figures, to: jsonPath, quick: quick)
}

do {
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    try runBenchmarks()
} catch {
    FileHandle.standardError.write(Data("iapbench: \(error)\n".utf8))
    exit(1)
}
