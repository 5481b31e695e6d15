import Foundation
import IAPKit
import Testing

@testable import IAPJSON

/// SPEC section 6 with real processes: kill -9 at every kind of durability step, parallel
/// writers, and a full disk.
@Suite("Durability with real processes", .serialized)
struct DurabilityTests {
    /// Ids of transactions in `dump`, with their finished flags.
    static func dumped(_ h: CLIHarness) throws -> [String: Bool] {
        let result = h.run(["dump"])
        try #require(result.code == 0, "\(result)")
        let array = try #require(result.json?.arrayValue)
        var out: [String: Bool] = [:]
        for t in array { out[t["transactionIdentifier"]!.stringValue!] = t["finished"]!.boolValue! }
        return out
    }

    @Test("writers killed with SIGKILL at random durability steps lose nothing acknowledged")
    func killNine() throws {
        var random = SeededRandom.fromEnvironment(default: 20_261_129, test: "killNine")
        let h = CLIHarness()
        try #require(h.run(["init"]).code == 0)
        var acknowledged: [String: Bool] = [:]  // id -> finished
        var crashes = 0
        for round in 0..<40 {
            // A commit is one write and one sync (then, now and then, a checkpoint): steps 1 to 3
            // land in the commit or just after it.
            let step = Int.random(in: 1...3, using: &random)
            let kind = Int.random(in: 0..<4, using: &random)
            let arguments: [String]
            switch kind {
            case 0: arguments = ["buy", "com.x.coin42", "--json"]
            case 1: arguments = ["finish", "--all", "--json"]
            case 2: arguments = ["buy", "com.x.noads", "--json"]
            default: arguments = ["restore", "--json"]
            }
            let before = try Self.dumped(h)
            let result = h.run(arguments, environment: ["IAPCTL_CRASH_AT_STEP": String(step)])
            let after = try Self.dumped(h)
            if result.code == 137 {
                crashes += 1
                // Killed: the store is as before the command, or as after it; never between.
                let grew = after.count - before.count
                #expect(grew >= 0, "round \(round): transactions vanished")
                for (id, finished) in before {
                    #expect(
                        after[id] != nil && (after[id] == finished || after[id] == true), "round \(round): \(id) changed badly")
                }
            } else {
                try #require(result.code == 0, "round \(round) \(arguments): \(result)")
                let json = try #require(result.json)
                for t in json.arrayValue ?? [json] {
                    acknowledged[t["transactionIdentifier"]!.stringValue!] = t["finished"]!.boolValue!
                }
            }
            for (id, finished) in acknowledged {
                #expect(after[id] != nil, "round \(round): acknowledged \(id) lost")
                if finished { #expect(after[id] == true, "round \(round): acknowledged finish of \(id) lost") }
            }
            let doctor = h.run(["doctor"])
            #expect(doctor.code == 0, "round \(round) after \(arguments) step \(step): \(doctor)")
        }
        #expect(crashes > 10, "the seed should crash most rounds")
    }

    @Test("8 processes buying in parallel lose nothing and never reuse an id")
    func parallelWriters() throws {
        let h = CLIHarness()
        try #require(h.run(["init"]).code == 0)
        let perProcess = 25
        // A generous lock timeout: this test is about lost and duplicated ids, and a loaded CI
        // machine (the suite runs two workers) can keep a waiter behind the lock for seconds.
        let script =
            "for i in $(seq \(perProcess)); do \"$0\" --store \"$1\" --lock-timeout 600 buy com.x.coin42 --json || exit 1; done"
        var processes: [(Process, Pipe)] = []
        for _ in 0..<8 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", script, CLIHarness.binary, h.store]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            processes.append((p, out))
        }
        var reported: [String] = []
        for (p, out) in processes {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let json = try JSONParser.parse(String(line))
                reported.append(json["transactionIdentifier"]!.stringValue!)
            }
        }
        let all = try Self.dumped(h)
        #expect(reported.count == 8 * perProcess)
        #expect(Set(reported).count == reported.count, "an id was handed out twice")
        #expect(Set(all.keys) == Set(reported))
        let expected = (0..<(8 * perProcess)).map { String(TransactionID.first.rawValue + UInt64($0)) }
        #expect(all.keys.sorted() == expected)
        #expect(h.run(["doctor"]).code == 0)
    }

    @Test("a full disk exits 74 and leaves the store as it was", arguments: 1...4)
    func fullDisk(step: Int) throws {
        let h = CLIHarness()
        try #require(h.run(["buy", "com.x.coin42"]).code == 0)
        let before = ["state", "catalog"].map { h.bytes("store/" + $0) }
        let dumpBefore = h.run(["dump"]).stdout
        let result = h.run(["buy", "com.x.coin210"], environment: ["IAPCTL_FAIL_WRITE_AT_STEP": String(step)])
        if result.code == 0 { return }  // this command has fewer write steps
        #expect(result.code == 74, "\(result)")
        #expect(result.stderr.contains("No space left on device"), "\(result)")
        #expect(result.stderr.contains("the store is unchanged"), "\(result)")
        #expect(["state", "catalog"].map { h.bytes("store/" + $0) } == before)
        #expect(h.run(["dump"]).stdout == dumpBefore)
        #expect(h.run(["doctor"]).code == 0)
        #expect(h.run(["buy", "com.x.coin210"]).code == 0)
    }

    @Test("a busy store exits 75 after the lock timeout")
    func busy() throws {
        let h = CLIHarness()
        try #require(h.run(["init"]).code == 0)
        // Hold the lock from this process, exclusively, as a writer would.
        let fd = open(h.store + "/lock", O_RDWR)
        #expect(flock(fd, LOCK_EX) == 0)
        defer { close(fd) }
        let result = h.run(["--lock-timeout", "0.2", "buy", "com.x.coin42"])
        #expect(result.code == 75, "\(result)")
        #expect(result.stderr.contains("is busy"))
    }
}
