import Foundation
import IAPKit
import Testing

@testable import IAPCLI
@testable import IAPCrypto
@testable import IAPJSON

/// The foundation's commands, end to end through the built binary: stdout, stderr, exit code.
@Suite("Purchase flows, end to end")
struct PurchaseFlowTests {
    @Test("products: localized prices per storefront and invalid ids")
    func products() throws {
        let h = CLIHarness()
        for (storefront, price, title) in [
            ("USA", "$0.99", "42 Gold Coins"), ("CHN", "¥6.00", "42金币"), ("JPN", "¥120", "42ゴールドコイン"),
        ] {
            let r = h.run(["products", "com.x.coin42", "com.x.none", "--storefront", storefront, "--json"])
            #expect(r.code == 0, "\(r)")
            let json = try #require(r.json)
            let p = try #require(json["products"]?.arrayValue?.first)
            #expect(p["localizedPrice"] == .string(price))
            #expect(p["localizedTitle"] == .string(title))
            #expect(p["storefront"] == .string(storefront))
            #expect(json["invalidProductIdentifiers"] == .array([.string("com.x.none")]))
        }
        let all = try #require(h.run(["products", "--json"]).json?["products"]?.arrayValue)
        #expect(
            Set(all.compactMap { $0["type"]?.stringValue }) == ["consumable", "nonConsumable", "autoRenewable", "nonRenewing"])
        let vip2 = try #require(all.first { $0["productIdentifier"] == .string("com.x.vip2") })
        #expect(vip2["subscriptionPeriod"] == .string("P3M"))
        #expect(vip2["subscriptionGroupIdentifier"] == .string("vip"))
        let text = h.run(["products", "com.x.coin42"])
        #expect(
            text.stdout
                == "PRODUCT       TYPE        PRICE  PERIOD  TITLE\ncom.x.coin42  consumable  $0.99  -       42 Gold Coins\n")
        // The store's storefront setting decides too.
        #expect(h.run(["config", "set", "storefront", "CHN"]).code == 0)
        let chn = try #require(h.run(["products", "com.x.coin42", "--json"]).json?["products"]?.arrayValue?.first)
        #expect(chn["localizedPrice"] == .string("¥6.00"))
        #expect(chn["localizedTitle"] == .string("42金币"))
    }

    @Test("buy, queue, finish, with exact text and JSON")
    func buyQueueFinish() throws {
        let h = CLIHarness()
        let buy = h.run(["buy", "com.x.coin42", "--account", "Handsome Jon", "--quantity", "2", "--json"])
        #expect(buy.code == 0)
        let t = try #require(buy.json)
        #expect(t["transactionIdentifier"] == .string("2000000000000001"))
        #expect(t["state"] == .string("purchased"))
        #expect(t["quantity"] == .number("2"))
        #expect(t["userIdentifier"] == .string(SHA256.hexDigest(Array("Handsome Jon".utf8))))
        #expect(t["transactionDate"] == .string("2026-01-01T00:00:01Z"))
        #expect(t["transactionTimestamp"] == .number("1767225601000"))
        #expect(t["price"] == .string("0.99") && t["currency"] == .string("USD"))
        let queue = h.run(["queue", "--json"])
        #expect(queue.json?.arrayValue?.count == 1)
        let finish = h.run(["finish", "2000000000000001"])
        #expect(finish.stdout == "finished  2000000000000001  com.x.coin42  (purchased)\n")
        #expect(h.run(["queue"]).stdout == "the queue is empty\n")
        let again = h.run(["finish", "2000000000000001"])
        #expect(again.code == 4)
        #expect(
            again.stderr
                == "error: cannot finish transaction 2000000000000001: it is already finished (see 'iapctl queue' for unfinished ones)\n"
        )
    }

    @Test("payments not allowed: exit 1 with a failed transaction that stays queued")
    func paymentsNotAllowed() throws {
        let h = CLIHarness()
        #expect(h.run(["config", "set", "payments-allowed", "false"]).stdout == "payments-allowed = false\n")
        #expect(h.run(["can-pay"]).code == 1)
        let r = h.run(["buy", "com.x.coin42", "--json"])
        #expect(r.code == 1)
        #expect(r.json?["error"]?["name"] == .string("paymentNotAllowed"))
        #expect(r.json?["error"]?["code"] == .number("4"))
        #expect(r.json?["error"]?["domain"] == .string("SKErrorDomain"))
        #expect(h.run(["queue", "--json"]).json?.arrayValue?.first?["state"] == .string("failed"))
        #expect(h.run(["finish", "--all"]).code == 0)
        #expect(h.run(["config", "set", "payments-allowed", "true"]).code == 0)
        #expect(h.run(["can-pay"]).code == 0)
    }

    @Test("re-buying an owned non-consumable charges nothing; restore skips consumables")
    func ownedAndRestore() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        let again = try #require(h.run(["buy", "com.x.noads", "--json"]).json)
        #expect(again["originalTransactionIdentifier"] == .string("2000000000000001"))
        #expect(again["charged"] == .bool(false))
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        #expect(h.run(["buy", "com.x.vip1"]).code == 0)
        let restore = h.run(["restore", "--json"])
        let restored = try #require(restore.json?.arrayValue)
        #expect(restored.count == 1)
        #expect(restored[0]["state"] == .string("restored"))
        #expect(restored[0]["originalTransactionIdentifier"] == .string("2000000000000001"))
        #expect(restored[0]["transactionIdentifier"] == .string("2000000000000005"))
        let events = h.run(["events", "--since", "0"]).stdout.split(separator: "\n")
        let last = try JSONParser.parse(String(events.last!))
        #expect(last["name"] == .string("restoreFinished"))
        #expect(last["request"]?["count"] == .number("1"))
    }

    @Test("dump filters, launch redelivery and events --since")
    func inspection() throws {
        let h = CLIHarness()
        for id in ["com.x.coin42", "com.x.coin42", "com.x.noads"] { #expect(h.run(["buy", id]).code == 0) }
        #expect(h.run(["finish", "2000000000000001"]).code == 0)
        #expect(h.run(["dump", "--product", "com.x.coin42"]).json?.arrayValue?.count == 2)
        #expect(h.run(["dump", "--unfinished"]).json?.arrayValue?.count == 2)
        #expect(h.run(["dump", "--state", "failed"]).stdout == "[]\n")
        #expect(h.run(["dump", "--user", "nobody"]).json?.arrayValue?.count == 0)
        let launch = h.run(["launch", "--json"])
        #expect(
            launch.json?.arrayValue?.compactMap { $0["transactionIdentifier"]?.stringValue } == [
                "2000000000000002", "2000000000000003",
            ])
        // Event 1 is the store's creation (storeCreated), the buys' and the finish's follow.
        let events = h.run(["events", "--since", "7"]).stdout.split(separator: "\n").map { try! JSONParser.parse(String($0)) }
        #expect(
            events.map { $0["name"]!.stringValue! } == [
                "transactionFinished", "appLaunched", "transactionRedelivered", "transactionRedelivered",
            ])
        #expect(events.map { $0["seq"]! } == [.number("8"), .number("9"), .number("10"), .number("11")])
    }

    @Test("global options before or after the command; IAPCTL_STORE; --opt=value")
    func globalOptions() throws {
        let h = CLIHarness()
        #expect(h.run(["--store=" + h.store, "buy", "com.x.coin42"], useStore: false).code == 0)
        #expect(h.run(["queue", "--json", "--store", h.store], useStore: false).json?.arrayValue?.count == 1)
        let env = h.run(["queue", "--json"], useStore: false, environment: ["IAPCTL_STORE": h.store])
        #expect(env.json?.arrayValue?.count == 1)
        // Without --store or $IAPCTL_STORE: ./.iapctl, which a reading command does not create.
        let local = h.run(["queue", "--json"], useStore: false)
        #expect(local.json?.arrayValue?.count == 0)
        #expect(local.stderr.hasPrefix("warning: no store at ./.iapctl: showing the empty store it would be"), "\(local)")
        #expect(!FileManager.default.fileExists(atPath: h.directory + "/.iapctl"))
        #expect(h.run(["buy", "com.x.coin42"], useStore: false).code == 0)
        #expect(FileManager.default.fileExists(atPath: h.directory + "/.iapctl/state"))
    }

    @Test("help, --help, -h and --version go to stdout with exit 0")
    func help() {
        let h = CLIHarness()
        let top = h.run(["help"], useStore: false)
        #expect(top.code == 0)
        #expect(top.stdout.contains("USAGE:"))
        for command in ["buy", "finish", "restore", "dump", "events", "config", "doctor", "init", "products"] {
            #expect(top.stdout.contains(command), "\(command) missing from help")
        }
        let buy = h.run(["buy", "--help"], useStore: false)
        #expect(buy.code == 0)
        #expect(buy.stdout == h.run(["help", "buy"], useStore: false).stdout)
        #expect(buy.stdout.contains("--quantity <n>"))
        #expect(h.run(["config", "set", "-h"], useStore: false).stdout.contains("payments-allowed"))
        let version = h.run(["--version"], useStore: false)
        #expect(version.stdout == "iapctl 0.1.0\n" && version.code == 0)
        #expect(!FileManager.default.fileExists(atPath: h.directory + "/.iapctl"), "help must not create a store")
    }

    @Test("init options and the sha256 command")
    func initAndSha() throws {
        let h = CLIHarness()
        let r = h.run([
            "init", "--bundle-id", "com.example.app", "--app-version", "2.1", "--storefront", "JPN", "--start-date",
            "2030-05-01T12:00:00+02:00", "--json",
        ])
        #expect(r.code == 0, "\(r)")
        #expect(r.json?["clock"] == .string("2030-05-01T10:00:00Z"))
        #expect(r.json?["storefront"] == .string("JPN"))
        let t = try #require(h.run(["buy", "com.x.coin42", "--json"]).json)
        #expect(t["transactionDate"] == .string("2030-05-01T10:00:01Z"))
        #expect(t["currency"] == .string("JPY") && t["price"] == .string("120"))
        #expect(h.run(["init", "--force"]).code == 0)
        #expect(h.run(["dump"]).stdout == "[]\n")
        let sha = h.run(["sha256", "Handsome Jon"], useStore: false)
        #expect(sha.stdout == SHA256.hexDigest(Array("Handsome Jon".utf8)) + "\n")
    }

    @Test(
        "SHA-256 agrees with openssl dgst -sha256",
        arguments: ["", "abc", "Handsome Jon", "金币 and emoji 🪙", String(repeating: "x", count: 1000)])
    func sha256MatchesOpenSSL(text: String) throws {
        let h = CLIHarness()
        let ours = h.run(["sha256", text], useStore: false).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let openssl = try ExternalTool.run("openssl", ["dgst", "-sha256", "-r"], stdin: text)
        #expect(openssl.code == 0, "\(openssl.stderr)")
        let theirs = openssl.stdout.prefix(64)
        #expect(ours == String(theirs))
    }

    @Test("a damaged store exits 65 naming the file; doctor reports and salvages")
    func damagedStore() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        #expect(h.run(["finish", "--all"]).code == 0)
        var state = h.bytes("store/state")
        state[state.count - 20] ^= 0x20
        _ = FileManager.default.createFile(atPath: h.store + "/state", contents: Data(state))
        let r = h.run(["queue"])
        #expect(r.code == 65)
        #expect(
            r.stderr
                == "error: \(h.store)/state: checksum mismatch: the file was damaged (run 'iapctl doctor' to inspect and salvage)\n"
        )
        // One line a file, each path once, and no advice to run doctor from doctor.
        let doctor = h.run(["doctor"])
        #expect(doctor.code == 65)
        #expect(
            doctor.stdout == """
                BAD  \(h.store)/state: checksum mismatch: the file was damaged
                ok   \(h.store)/catalog: catalog is intact (14 products)
                ok   \(h.store)/catalog.bin: catalog record is intact
                ok   \(h.store)/journal: 3 commits: 1 transactions and 4 events, every frame checks
                store is damaged; add --salvage DIR to copy its valid part into a new store at DIR

                """, "\(doctor)")
        // A salvage that wrote the new store succeeds and says what it recovered.
        let salvage = h.run(["doctor", "--salvage", h.path("rescued")])
        #expect(salvage.code == 0, "\(salvage)")
        #expect(salvage.stdout.contains("store is damaged; salvaged 1 transactions and 4 events into \(h.path("rescued"))\n"))
        #expect(salvage.stdout.contains("  note: state file unusable: counters, queue and ownership rebuilt from the journal"))
        #expect(h.run(["--store", h.path("rescued"), "doctor"], useStore: false).code == 0)
        let rescued = h.run(["--store", h.path("rescued"), "dump", "--json"], useStore: false)
        #expect(rescued.json?.arrayValue?.first?["finished"] == .bool(true))
        #expect(h.bytes("store/state") == state, "doctor must not touch the damaged store")
    }
}

@Suite("The command table")
struct CommandTableTests {
    @Test("the real command table has no declaration problems")
    func sound() {
        #expect(CommandTable.root.problems == [])
    }
}
