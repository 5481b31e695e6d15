import Foundation
import IAPKit
import Testing

@testable import IAPJSON

/// Issue 6: 16 processes mixing buys, finishes, restores and dumps on one store. No transaction is
/// lost or duplicated, and every dump is a consistent snapshot (whole, ids without gaps).
@Suite("16 mixed processes on one store", .serialized)
struct MixedLoadTests {
    /// Checks one dump is a snapshot of a committed store: valid JSON, ids unique, increasing and
    /// without gaps from the first id (every id below the counter is committed with its record).
    static func checkSnapshot(_ text: String, _ context: String) -> [String] {
        guard let array = (try? JSONParser.parse(text))?.arrayValue else {
            Issue.record("\(context): dump is not a JSON array")
            return []
        }
        let ids = array.compactMap { $0["transactionIdentifier"]?.stringValue }
        let expected = (0..<ids.count).map { String(TransactionID.first.rawValue + UInt64($0)) }
        #expect(ids == expected, "\(context): dump is not a gap-free snapshot")
        return ids
    }

    @Test("buys, finishes, restores and dumps from 16 processes")
    func sixteen() throws {
        var random = SeededRandom.fromEnvironment(default: 16_016, test: "mixedLoad")
        let h = CLIHarness()
        try #require(h.run(["init"]).code == 0)
        let commands = [
            "buy com.x.coin42 --json", "buy com.x.noads --json", "buy com.x.vip1 --json", "finish --all --json", "restore --json",
            "dump",
        ]
        var processes: [(Process, String)] = []
        for p in 0..<16 {
            var script = "set -u\n"
            for _ in 0..<12 {
                let command = commands[Int.random(in: 0..<commands.count, using: &random)]
                script += "echo '=== \(command)'\n\"$0\" --store \"$1\" --lock-timeout 60 \(command)\necho \"=== rc $?\"\n"
            }
            let output = h.path("out\(p).txt")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, CLIHarness.binary, h.store]
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: output)
            try process.run()
            processes.append((process, output))
        }
        var acknowledged: [String] = []
        var dumps = 0
        for (process, output) in processes {
            process.waitUntilExit()
            let text = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
            // Blocks: "=== COMMAND", its stdout, "=== rc N".
            var command = ""
            var body: [Substring] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("=== rc ") {
                    let rc = Int(line.dropFirst(7)) ?? -1
                    #expect(rc == 0, "\(command) exited \(rc)")
                    let out = body.joined(separator: "\n")
                    if command.hasPrefix("dump") {
                        dumps += 1
                        _ = Self.checkSnapshot(out, "a dump")
                    } else if rc == 0, command.hasPrefix("buy") || command.hasPrefix("restore"),
                        let json = try? JSONParser.parse(out)
                    {
                        for t in json.arrayValue ?? [json] { acknowledged.append(t["transactionIdentifier"]!.stringValue!) }
                    }
                    body = []
                } else if line.hasPrefix("=== ") {
                    command = String(line.dropFirst(4))
                } else {
                    body.append(line)
                }
            }
        }
        let final = Self.checkSnapshot(h.run(["dump"]).stdout, "the final dump")
        #expect(Set(acknowledged).count == acknowledged.count, "an id was handed out twice")
        #expect(Set(acknowledged).isSubset(of: Set(final)), "an acknowledged transaction was lost")
        #expect(final.count == acknowledged.count, "every transaction came from an acknowledged command")
        #expect(h.run(["doctor"]).code == 0)
        print("mixedLoad: \(acknowledged.count) transactions from 16 processes, \(dumps) concurrent dumps checked")
    }
}
