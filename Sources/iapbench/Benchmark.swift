import Foundation
import IAPKit

/// One figure `make bench` reports: a measured value, and the goal the issue set for it.
struct Figure {
    let name: String
    let value: Double
    let unit: String
    /// The goal in words (`>= 1000000`, `<= 1.3`), or nil when the figure is informational.
    let goal: String?
    let met: Bool?

    init(_ name: String, _ value: Double, _ unit: String, atLeast goal: Double) {
        self.name = name
        self.value = value
        self.unit = unit
        self.goal = ">= \(Benchmark.format(goal))"
        met = value >= goal
    }

    init(_ name: String, _ value: Double, _ unit: String, atMost goal: Double) {
        self.name = name
        self.value = value
        self.unit = unit
        self.goal = "<= \(Benchmark.format(goal))"
        met = value <= goal
    }

    init(_ name: String, _ value: Double, _ unit: String) {
        self.name = name
        self.value = value
        self.unit = unit
        goal = nil
        met = nil
    }
}

/// Timing and process helpers for the benchmarks. The bench reads the monotonic clock; IAPKit
/// never does.
enum Benchmark {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Seconds `body` takes.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    struct ProcessResult {
        let seconds: Double
        let maxRSSKilobytes: Int
        let status: Int32
    }

    /// Runs a program to completion (stdout to `stdout` or /dev/null), timing it and reading its
    /// peak memory from `wait4`.
    static func spawn(_ path: String, _ arguments: [String], stdout: String = "/dev/null", stdin: String? = nil) -> ProcessResult
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = now()
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else {
            return ProcessResult(seconds: 0, maxRSSKilobytes: 0, status: -1)
        }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        return ProcessResult(seconds: now() - start, maxRSSKilobytes: Int(usage.ru_maxrss), status: (status >> 8) & 0xFF)
    }

    static func format(_ v: Double) -> String {
        if v >= 1000 { return String(Int(v.rounded())) }
        if v >= 10 { return String(format: "%.1f", v) }
        return String(format: "%.3f", v)
    }

    /// The median of `runs` timings of `body`.
    static func median(_ runs: Int, _ body: () -> Double) -> Double {
        let samples = (0..<runs).map { _ in body() }.sorted()
        return samples[samples.count / 2]
    }
}
