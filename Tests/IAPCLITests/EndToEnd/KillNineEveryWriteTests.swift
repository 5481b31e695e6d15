import Foundation
import IAPKit
import Testing

@testable import IAPJSON

/// Issue 6: kill -9 at 200 random points across writes of every kind (buy, finish, restore,
/// clock advance, download run). After each, the store loads, `doctor` says clean, and every
/// acknowledged effect is there. The points come from a printed seed (`IAPCTL_TEST_SEED`).
@Suite("kill -9 at 200 points across every kind of write", .serialized)
struct KillNineEveryWriteTests {
    struct Acknowledged {
        var transactions: Set<String> = []
        var finished: Set<String> = []
        var clock: Int64 = 0
        var downloaded: Set<String> = []
    }

    static func json(_ r: CLIResult) throws -> JSONValue { try #require(r.json, "\(r)") }

    @Test("200 seeded kill points")
    func twoHundredPoints() throws {
        var random = SeededRandom.fromEnvironment(default: 6_200_200, test: "killNineEveryWrite")
        let h = CLIHarness()
        try #require(h.run(["init"]).code == 0)
        try #require(h.run(["buy", "com.x.vippro"]).code == 0)
        var ack = Acknowledged()
        var crashed = 0
        var kinds: [String: Int] = [:]
        for round in 0..<200 {
            let kind = ["buy", "finish", "restore", "clock", "download"][Int.random(in: 0..<5, using: &random)]
            var arguments: [String]
            var downloadID: String?
            switch kind {
            case "buy":
                arguments = ["buy", ["com.x.coin42", "com.x.noads", "com.x.vip1"].randomElement(using: &random)!, "--json"]
            case "finish": arguments = ["finish", "--all", "--json"]
            case "restore": arguments = ["restore", "--json"]
            case "clock": arguments = ["clock", "advance", ["P1D", "P1M", "36h"].randomElement(using: &random)!, "--json"]
            default:
                // A level pack with its downloads started, then the run that copies them.
                let bought = try Self.json(h.run(["buy", "com.x.levelpack", "--json"]))
                let id = try #require(bought["transactionIdentifier"]?.stringValue)
                ack.transactions.insert(id)
                try #require(h.run(["download", "start", id]).code == 0)
                downloadID = id
                arguments = ["download", "run", id, "--chunk", "3000", "--json"]
            }
            kinds[kind, default: 0] += 1
            let step = Int.random(in: 1...10, using: &random)
            let r = h.run(arguments, environment: ["IAPCTL_CRASH_AT_STEP": String(step)])
            if r.code == 137 {
                crashed += 1
            } else {
                try #require([0, 1, 3, 4, 5].contains(r.code), "round \(round) \(arguments): \(r)")
                if r.code == 0 {
                    let out = try Self.json(r)
                    switch kind {
                    case "buy", "restore":
                        for t in out.arrayValue ?? [out] { ack.transactions.insert(t["transactionIdentifier"]!.stringValue!) }
                    case "finish":
                        for t in out.arrayValue ?? [] { ack.finished.insert(t["transactionIdentifier"]!.stringValue!) }
                    case "clock":
                        ack.clock = max(ack.clock, out["clockTimestamp"]?.int64Value ?? 0)
                    default:
                        if let id = downloadID { ack.downloaded.insert(id) }
                    }
                }
            }
            // The store loads, doctor says clean, and every acknowledged effect is there.
            let doctor = h.run(["doctor"])
            #expect(doctor.code == 0, "round \(round) \(arguments) step \(step): \(doctor)")
            let dump = try #require(h.run(["dump"]).json?.arrayValue, "round \(round)")
            var finished: [String: Bool] = [:]
            for t in dump { finished[t["transactionIdentifier"]!.stringValue!] = t["finished"]!.boolValue! }
            for id in ack.transactions { #expect(finished[id] != nil, "round \(round): acknowledged \(id) lost") }
            for id in ack.finished { #expect(finished[id] == true, "round \(round): acknowledged finish of \(id) lost") }
            let clock = try Self.json(h.run(["clock", "--json"]))["clockTimestamp"]?.int64Value ?? 0
            #expect(clock >= ack.clock, "round \(round): the clock went back")
            for id in ack.downloaded {
                let downloads = try #require(h.run(["downloads", id, "--json"]).json?.arrayValue)
                #expect(
                    downloads.allSatisfy { $0["state"] == .string("finished") }, "round \(round): downloads of \(id) not finished"
                )
            }
            ack.downloaded.removeAll()  // Later finishes may legitimately move on from them.
        }
        print("killNineEveryWrite: \(crashed) of 200 commands killed; kinds \(kinds.sorted { $0.key < $1.key })")
        #expect(crashed > 60, "the seed should kill many commands")
        #expect(kinds.count == 5)
    }
}
