import Foundation
import Testing

@testable import IAPJSON

/// Family Sharing end to end with the built binary: `family`, `--member` on the reading
/// commands, bad input, and the member's signed transaction and REVOKE notification judged by
/// Apple's Python `SignedDataVerifier`.
@Suite("Family Sharing, end to end")
struct FamilyCLITests {
    static func store() -> CLIHarness {
        let h = CLIHarness()
        let r = h.run(["init", "--catalog", CLIHarness.fixture("family/catalog.json")])
        #expect(r.code == 0, "\(r)")
        return h
    }

    static func json(_ r: CLIResult) throws -> JSONValue { try JSONParser.parse(r.stdout) }

    @Test("add, buy, a later member, renewals, --member views, refund and leaving")
    func lifecycle() throws {
        let h = Self.store()
        let add = h.run(["family", "add", "alex"])
        #expect(add.code == 0 && add.stdout == "family member alex added\n" && add.stderr.isEmpty, "\(add)")
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        let sub = try Self.json(h.run(["buy", "com.x.vippro", "--json"]))
        let subID = try #require(sub["transactionIdentifier"]?.stringValue)
        let sam = try Self.json(h.run(["family", "add", "sam", "--json"]))
        let shared = try #require(sam["shared"]?.arrayValue)
        #expect(shared.map { $0["productIdentifier"]?.stringValue } == ["com.x.noads", "com.x.vippro"])
        #expect(
            shared.allSatisfy { $0["inAppOwnershipType"] == .string("FAMILY_SHARED") && $0["familyMember"] == .string("sam") })
        #expect(shared.allSatisfy { $0["transactionIdentifier"] == $0["originalTransactionIdentifier"] })

        // The account's dump and queue do not hold the members' transactions.
        let mine = try Self.json(h.run(["dump"]))
        #expect(mine.arrayValue?.count == 2 && mine.arrayValue?.allSatisfy { $0["familyMember"] == nil } == true)
        #expect(try Self.json(h.run(["queue", "--json"])).arrayValue?.count == 2)
        let alexQueue = try Self.json(h.run(["queue", "--member", "alex", "--json"]))
        #expect(alexQueue.arrayValue?.count == 2)

        #expect(h.run(["clock", "advance", "P1M"]).code == 0)
        let subs = try Self.json(h.run(["subscriptions", "--member", "alex", "--json"]))
        let alexSub = try #require(subs.arrayValue?.first)
        #expect(alexSub["status"] == .string("active") && alexSub["purchaserOriginalTransactionIdentifier"] == .string(subID))
        #expect(alexSub["latestTransaction"]?["transactionReason"] == .string("renewal"))
        let alexDump = try #require(try Self.json(h.run(["dump", "--member", "alex"])).arrayValue)
        #expect(alexDump.count == 3)
        #expect(alexDump[2]["originalTransactionIdentifier"] == alexDump[1]["transactionIdentifier"])

        // A member's receipt lists its own transactions.
        let receipt = try Self.json(h.run(["receipt", "--member", "alex", "--json"]))
        let ids = receipt["inApp"]?.arrayValue?.compactMap { $0["transactionIdentifier"]?.stringValue } ?? []
        #expect(Set(ids) == Set(alexDump.compactMap { $0["transactionIdentifier"]?.stringValue }), "\(receipt)")

        let refund = h.run(["refund", "2000000000000001"])
        #expect(refund.code == 0, "\(refund)")
        let leave = h.run(["family", "remove", "sam"])
        #expect(leave.code == 0 && leave.stdout.hasSuffix("family member sam removed\n"), "\(leave)")
        let list = try Self.json(h.run(["family", "list", "--json"]))
        #expect(list.arrayValue?.map { $0["name"]?.stringValue } == ["alex"])
        #expect(list.arrayValue?.first?["shared"]?.arrayValue?.count == 1)
    }

    @Test("the member's signed transaction and REVOKE verify with Apple's SignedDataVerifier")
    func appleVerifies() throws {
        let h = Self.store()
        #expect(h.run(["family", "add", "alex"]).code == 0)
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        let token = h.run(["jws", "2000000000000001", "--member", "alex"]).stdout.trimmingCharacters(in: .newlines)
        #expect(h.run(["refund", "2000000000000001", "--reason", "1"]).code == 0)
        let lines = h.run(["notifications", "--json"]).stdout.split(separator: "\n")
        let payloads = try lines.map { try #require(try JSONParser.parse(String($0))["signedPayload"]?.stringValue) }
        var items: [(AppleVerifier.Kind, String)] = [(.transaction, token)]
        items += payloads.map { (.notification, $0) }
        let decoded = try AppleVerifier.decode(items)
        let t = decoded[0]
        #expect(t["inAppOwnershipType"] == .string("FAMILY_SHARED"), "\(t)")
        #expect(t["transactionId"] == .string("2000000000000002") && t["originalTransactionId"] == .string("2000000000000002"))
        let types = decoded.dropFirst().map { $0["notificationType"]?.stringValue ?? "?" }
        #expect(types == ["ONE_TIME_CHARGE", "REFUND", "REVOKE"], "\(types)")
        let revoke = try #require(decoded.last?["data"]?["signedTransactionInfo"]?.stringValue)
        let revoked = try AppleVerifier.decode([(.transaction, revoke)])[0]
        #expect(revoked["inAppOwnershipType"] == .string("FAMILY_SHARED"), "\(revoked)")
        #expect(revoked["transactionId"] == .string("2000000000000002") && revoked["revocationReason"] == .number("1"))
        #expect(revoked["revocationDate"] != nil)
        // The raw payload carries Apple's FAMILY_REVOKE (older library models may not parse it).
        let payload = try Self.json(h.run(["jws", "2000000000000002", "--json"]))
        #expect(payload["payload"]?["revocationType"] == .string("FAMILY_REVOKE"), "\(payload)")
    }

    @Test(
        "bad input: one line, documented exit code, nothing created",
        arguments: [
            (["family", "add", "bad name"], 64, "bad family member name 'bad name'"),
            (["family", "remove", "alex"], 3, "the account has no family"),
            (["dump", "--member", "alex"], 3, "the account has no family"),
        ] as [([String], Int32, String)])
    func badInput(arguments: [String], code: Int32, message: String) throws {
        let h = Self.store()
        let before = h.run(["events"]).stdout
        let r = h.run(arguments)
        #expect(r.code == code && r.stdout.isEmpty, "\(r)")
        #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains(message) && r.stderr.split(separator: "\n").count == 1, "\(r)")
        #expect(h.run(["events"]).stdout == before)
    }

    @Test("unknown member with did-you-mean, duplicates, a member's copy refunded")
    func refusals() throws {
        let h = Self.store()
        #expect(h.run(["family", "add", "alex"]).code == 0)
        let dup = h.run(["family", "add", "alex"])
        #expect(
            dup.code == 4 && dup.stderr == "error: 'alex' is already a member of the family (see 'iapctl family list')\n",
            "\(dup)")
        let unknown = h.run(["queue", "--member", "alx"])
        #expect(unknown.code == 3 && unknown.stderr.contains("unknown family member 'alx'; did you mean 'alex'?"), "\(unknown)")
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        let copy = h.run(["refund", "2000000000000002"])
        #expect(copy.code == 4 && copy.stderr.contains("refund the purchaser's transaction 2000000000000001"), "\(copy)")
        let notShared = h.run(["jws", "2000000000000001", "--member", "bob"])
        #expect(notShared.code == 3, "\(notShared)")
    }

    @Test("buy --member: the member's own PURCHASED transaction, verified by Apple's library, ONE_TIME_CHARGE")
    func memberBuys() throws {
        let h = Self.store()
        #expect(h.run(["family", "add", "alex"]).code == 0)
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        let own = h.run(["buy", "com.x.noads", "--member", "alex"])
        #expect(own.code == 0 && own.stdout.hasSuffix("(alex's own)\n"), "\(own)")
        let token = h.run(["jws", "2000000000000003"]).stdout.trimmingCharacters(in: .newlines)
        let decoded = try AppleVerifier.decode([(.transaction, token)])[0]
        #expect(decoded["inAppOwnershipType"] == .string("PURCHASED") && decoded["transactionId"] == .string("2000000000000003"))
        let types = h.run(["notifications"]).stdout.split(separator: "\n").map { $0.split(separator: " ")[1] }
        #expect(types == ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE"])
        let queue = try #require(try Self.json(h.run(["queue", "--member", "alex", "--json"])).arrayValue)
        #expect(queue.map { $0["inAppOwnershipType"]?.stringValue } == ["FAMILY_SHARED", "PURCHASED"])
        let season = h.run(["buy", "com.x.vip1", "--member", "alex"])
        #expect(
            season.code == 4 && season.stderr.contains("a member's own non-renewing subscriptions are not simulated"), "\(season)"
        )
        let mixed = h.run(["buy", "com.x.noads", "--member", "alex", "--quantity", "2"])
        #expect(mixed.code == 64, "\(mixed)")
    }

    @Test("buy SUB --member: the member's own subscription beside the shared one, PURCHASED and SUBSCRIBED by Apple's library")
    func memberSubscribes() throws {
        let h = Self.store()
        #expect(h.run(["family", "add", "alex"]).code == 0)
        #expect(h.run(["buy", "com.x.vippro"]).code == 0)
        let own = h.run(["buy", "com.x.vippro", "--member", "alex"])
        #expect(own.code == 0 && own.stdout.hasSuffix("(alex's own)\n"), "\(own)")
        let subs = try #require(try Self.json(h.run(["subscriptions", "--member", "alex", "--json"])).arrayValue)
        #expect(subs.map { $0["inAppOwnershipType"]?.stringValue } == ["FAMILY_SHARED", "PURCHASED"], "\(subs)")
        #expect(subs.map { $0["originalTransactionIdentifier"]?.stringValue } == ["2000000000000002", "2000000000000003"])
        #expect(subs.map { $0["status"]?.stringValue } == ["active", "active"])
        #expect(subs.last?["purchaserOriginalTransactionIdentifier"] == .null)
        // The account's own subscriptions are unchanged: one, its own.
        let mine = try #require(try Self.json(h.run(["subscriptions", "--json"])).arrayValue)
        #expect(mine.count == 1, "\(mine)")
        let token = h.run(["jws", "2000000000000003"]).stdout.trimmingCharacters(in: .newlines)
        let lines = h.run(["notifications", "--json"]).stdout.split(separator: "\n")
        let payloads = try lines.map { try #require(try JSONParser.parse(String($0))["signedPayload"]?.stringValue) }
        let decoded = try AppleVerifier.decode([(.transaction, token)] + payloads.map { (.notification, $0) })
        let t = decoded[0]
        #expect(t["inAppOwnershipType"] == .string("PURCHASED") && t["transactionId"] == .string("2000000000000003"), "\(t)")
        #expect(t["originalTransactionId"] == .string("2000000000000003"))
        #expect(decoded.dropFirst().map { $0["notificationType"]?.stringValue } == ["SUBSCRIBED", "SUBSCRIBED"])
        let note = try #require(decoded.last)
        #expect(note["subtype"] == .string("INITIAL_BUY"), "\(note)")
        let signedTransaction = try #require(note["data"]?["signedTransactionInfo"]?.stringValue)
        let signedRenewal = try #require(note["data"]?["signedRenewalInfo"]?.stringValue)
        let inner = try AppleVerifier.decode([(.transaction, signedTransaction), (.renewal, signedRenewal)])
        #expect(
            inner[0]["inAppOwnershipType"] == .string("PURCHASED") && inner[0]["transactionId"] == .string("2000000000000003"))
        #expect(inner[1]["originalTransactionId"] == .string("2000000000000003") && inner[1]["autoRenewStatus"] == .number("0"))
        let renewal = h.run(["jws", "renewal", "2000000000000003"]).stdout.trimmingCharacters(in: .newlines)
        let info = try AppleVerifier.decode([(.renewal, renewal)])[0]
        #expect(
            info["originalTransactionId"] == .string("2000000000000003") && info["autoRenewStatus"] == .number("0"), "\(info)")
        // The purchaser's refund revokes the shared copy, not the member's own subscription.
        #expect(h.run(["refund", "2000000000000001"]).code == 0)
        let after = try #require(try Self.json(h.run(["subscriptions", "--member", "alex", "--json"])).arrayValue)
        // The revoked share ends (it leaves the list); the member's own subscription stays active.
        #expect(after.map { $0["inAppOwnershipType"]?.stringValue } == ["PURCHASED"], "\(after)")
        #expect(after.map { $0["status"]?.stringValue } == ["active"])
        let payload = try Self.json(h.run(["jws", "2000000000000003", "--json"]))
        #expect(payload["payload"]?["revocationDate"] == nil, "\(payload)")
    }

    @Test("verify-receipt of a member's receipt: in_app and latest_receipt_info are the member's, FAMILY_SHARED")
    func memberVerifyReceipt() throws {
        let h = Self.store()
        #expect(h.run(["family", "add", "alex"]).code == 0)
        #expect(h.run(["buy", "com.x.vippro"]).code == 0)
        h.write("member.b64", h.run(["receipt", "--member", "alex"]).stdout)
        let answer = try Self.json(h.run(["verify-receipt", h.path("member.b64")]))
        let inApp = try #require(answer["receipt"]?["in_app"]?.arrayValue)
        #expect(inApp.map { $0["transaction_id"]?.stringValue } == ["2000000000000002"])
        #expect(inApp.first?["in_app_ownership_type"] == .string("FAMILY_SHARED"))
        let latest = try #require(answer["latest_receipt_info"]?.arrayValue)
        #expect(latest.map { $0["in_app_ownership_type"]?.stringValue } == ["FAMILY_SHARED"])
        h.write("mine.b64", h.run(["receipt"]).stdout)
        let mine = try Self.json(h.run(["verify-receipt", h.path("mine.b64")]))
        #expect(mine["receipt"]?["in_app"]?.arrayValue?.first?["in_app_ownership_type"] == .string("PURCHASED"))
    }
}
