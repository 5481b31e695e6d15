import Foundation
import IAPKit

/// Issue 6's figure: scenario lines run in one `iapctl run` process, against the same command
/// lines run as one process each.
enum ScenarioBenchmarks {
    /// The lines repeated to make the scenario: a purchase cycle and the reads an app does
    /// around it (no quoting, so each line is also its own argv).
    static let block = [
        "buy com.x.coin42 --json", "queue --json", "finish --all", "products com.x.coin42 com.x.vip1 --json", "can-pay",
    ]

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// - Parameters:
    ///   - binary: the `iapctl` to measure.
    ///   - scratch: a directory for the scenario file and the stores.
    ///   - quick: 2,000 lines against 200 processes instead of 10,000 against 1,000.
    static func run(binary: String, scratch: String, quick: Bool) throws -> [Figure] {
        let lineCount = quick ? 2_000 : 10_000
        let processCount = quick ? 200 : 1_000
        let lines = (0..<lineCount).map { block[$0 % block.count] }
        let file = scratch + "/scenario-bench.iap"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))

        // Warm the binary and the page cache, then measure one run of every line.
        let warmFile = scratch + "/scenario-warm.iap"
        try Data((block.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: warmFile))
        _ = Benchmark.spawn(binary, ["run", warmFile])
        let oneProcess = Benchmark.spawn(binary, ["run", file, "--store", scratch + "/scenario-one"])
        guard oneProcess.status == 0 else {
            throw Failed(description: "iapctl run \(file) exited \(oneProcess.status)")
        }

        // The same lines, one process each: the first `processCount` of them, scaled up.
        let store = scratch + "/scenario-many"
        var failures = 0
        let separate = Benchmark.time {
            for line in lines.prefix(processCount) {
                let words = line.split(separator: " ").map(String.init)
                if Benchmark.spawn(binary, ["--store", store] + words).status != 0 { failures += 1 }
            }
        }
        guard failures == 0 else { throw Failed(description: "\(failures) separate iapctl processes failed") }
        let separateScaled = separate * Double(lineCount) / Double(processCount)

        return [
            Figure(
                "\(lineCount) scenario lines in one 'iapctl run' / as separate processes (\(processCount) spawned, scaled x\(lineCount / processCount))",
                oneProcess.seconds / separateScaled, "ratio"),
            Figure("iapctl run: scenario lines per second", Double(lineCount) / oneProcess.seconds, "lines/s"),
            Figure("separate iapctl processes: command lines per second", Double(processCount) / separate, "lines/s"),
        ]
    }
}
