import Foundation
import IAPJSON
import IAPKit

/// Prints the figures as a table and writes them as JSON (`bench/results.json`).
enum BenchmarkReport {
    static func print(_ figures: [Figure]) {
        let width = figures.map(\.name.count).max() ?? 10
        Swift.print(
            "figure".padding(toLength: width, withPad: " ", startingAt: 0) + "  value         unit       goal         met")
        for f in figures {
            let value = Benchmark.format(f.value)
            Swift.print(
                f.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + value.padding(toLength: 12, withPad: " ", startingAt: 0) + "  "
                    + f.unit.padding(toLength: 9, withPad: " ", startingAt: 0) + "  "
                    + (f.goal ?? "-").padding(toLength: 11, withPad: " ", startingAt: 0) + "  "
                    + (f.met.map { $0 ? "yes" : "NO" } ?? "-"))
        }
    }

    static func write(_ figures: [Figure], to path: String, quick: Bool) throws {
        var w = JSONWriter()
        w.beginObject()
        w.key("machine")
        w.string(machineDescription())
        w.key("quick")
        w.bool(quick)
        w.key("figures")
        w.beginArray()
        for f in figures {
            w.beginObject()
            w.key("name")
            w.string(f.name)
            w.key("value")
            w.numberLiteral(String(format: "%.4f", f.value))
            w.key("unit")
            w.string(f.unit)
            w.key("goal")
            w.optionalString(f.goal)
            w.key("met")
            if let met = f.met { w.bool(met) } else { w.null() }
            w.endObject()
        }
        w.endArray()
        w.endObject()
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        try Data((w.string + "\n").utf8).write(to: URL(fileURLWithPath: path))
        Swift.print("wrote \(path)")
    }

    static func machineDescription() -> String {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        return
            "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB"
    }
}
