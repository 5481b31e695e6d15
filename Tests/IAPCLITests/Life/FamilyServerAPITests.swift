import Foundation
import Testing

@testable import IAPJSON

/// The App Store Server API for a family member's transactions, end to end: a real
/// `iapctl serve` called by Apple's own `AppStoreServerAPIClient` (`Tests/interop/family_api.py`),
/// every signed payload verified and decoded by Apple's `SignedDataVerifier`. Apple's history,
/// statuses and refund history are keyed by the customer the transaction id belongs to, so a
/// member's id answers with the member's transactions (docs/family.md, "The server API").
@Suite("Family Sharing through the server API, with Apple's client", .serialized)
struct FamilyServerAPITests {
    static let script = CLIHarness.packageRoot + "/Tests/interop/family_api.py"

    static func ids(_ list: [JSONValue]) -> [String] { list.compactMap { $0["transactionId"]?.stringValue } }

    @Test("a member's transaction id: its info, its history, its shared subscription, no refunds; the order is the purchaser's")
    func memberTransactions() throws {
        let h = FamilyCLITests.store()
        #expect(h.run(["family", "add", "alex"]).code == 0)
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        #expect(h.run(["buy", "com.x.vippro"]).code == 0)
        #expect(h.run(["clock", "advance", "P1M"]).code == 0)
        #expect(h.run(["buy", "com.x.coin42", "--member", "alex"]).code == 0)
        #expect(h.run(["refund", "2000000000000001"]).code == 0)  // the purchaser's noads: alex's copy is revoked
        let account = try #require(try FamilyCLITests.json(h.run(["dump"])).arrayValue)
        let alex = try #require(try FamilyCLITests.json(h.run(["dump", "--member", "alex"])).arrayValue)
        let accountIDs = account.compactMap { $0["transactionIdentifier"]?.stringValue }
        let alexIDs = alex.compactMap { $0["transactionIdentifier"]?.stringValue }
        try #require(accountIDs.count == 3 && alexIDs.count == 4, "\(account) \(alex)")
        // alex: the noads copy, the subscription's copy and its renewal, its own coins.
        let (alexNoads, alexSub, alexRenewal, alexCoin) = (alexIDs[0], alexIDs[1], alexIDs[2], alexIDs[3])
        // A shared copy has no order id; alex's own purchase has one.
        #expect(alex.map { $0["orderIdentifier"] == .null } == [true, true, true, false], "\(alex)")
        let order = try #require(account[1]["orderIdentifier"]?.stringValue)
        let clock = try #require(try FamilyCLITests.json(h.run(["clock", "--json"]))["clockTimestamp"]?.int64Value)

        let key = try ExternalTool.run(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "AuthKey_ABC123DEFG.p8"],
            in: h.directory)
        #expect(key.code == 0, "\(key)")
        let server = try ServerProcess(store: h.store, ["--api-key", h.path("AuthKey_ABC123DEFG.p8")])
        let r = try ExternalTool.run(
            "python3",
            [
                Self.script, "--base-url", server.url, "--key", h.path("AuthKey_ABC123DEFG.p8"), "--root",
                CLIHarness.fixture("signing/root.pem"), "--member-transaction", alexRenewal, "--purchaser-transaction",
                accountIDs[0], "--order-id", order, "--member-original", alexSub, "--clock-ms", String(clock),
            ])
        #expect(server.stop() == 0)
        let out = try JSONParser.parse(r.stdout)
        #expect(r.code == 0 && out["errors"]?.arrayValue?.isEmpty == true, "\(r.stdout) \(r.stderr)")

        // Get Transaction Info: the member's renewal, FAMILY_SHARED, the member's original id.
        let info = try #require(out["transactionInfo"]?.arrayValue?.first)
        #expect(info["transactionId"] == .string(alexRenewal) && info["originalTransactionId"] == .string(alexSub))
        #expect(info["inAppOwnershipType"] == .string("FAMILY_SHARED") && info["productId"] == .string("com.x.vippro"))
        #expect(info["transactionReason"] == .string("RENEWAL"), "\(info)")

        // Get Transaction History v2: every transaction of alex, none of the account's.
        let v2 = try #require(out["historyV2"]?.arrayValue)
        #expect(Self.ids(v2) == [alexNoads, alexSub, alexRenewal, alexCoin])
        #expect(
            v2.map { $0["inAppOwnershipType"]?.stringValue } == ["FAMILY_SHARED", "FAMILY_SHARED", "FAMILY_SHARED", "PURCHASED"])
        #expect(v2[0]["revocationType"] == .string("FAMILY_REVOKE") && v2[0]["revocationReason"] == .number("0"), "\(v2[0])")
        // v1 leaves out the finished consumable; PURCHASED keeps only alex's own purchase.
        #expect(Self.ids(out["historyV1"]?.arrayValue ?? []) == [alexNoads, alexSub, alexRenewal])
        #expect(Self.ids(out["historyV2Purchased"]?.arrayValue ?? []) == [alexCoin])
        // The purchaser's id: the account's history, no member's copy.
        let purchaser = try #require(out["purchaserHistory"]?.arrayValue)
        #expect(Self.ids(purchaser) == accountIDs && purchaser.allSatisfy { $0["inAppOwnershipType"] == .string("PURCHASED") })

        // Get All Subscription Statuses: alex's shared subscription, active, its renewal info
        // under alex's original id.
        let groups = try #require(out["statuses"]?.arrayValue)
        #expect(groups.map { $0["subscriptionGroupIdentifier"]?.stringValue } == ["vip"], "\(groups)")
        let last = try #require(groups.first?["lastTransactions"]?.arrayValue)
        #expect(last.count == 1)
        #expect(last.first?["status"] == .number("1") && last.first?["originalTransactionId"] == .string(alexSub))
        #expect(last.first?["transaction"]?["transactionId"] == .string(alexRenewal))
        let renewal = try #require(last.first?["renewal"])
        #expect(renewal["originalTransactionId"] == .string(alexSub) && renewal["productId"] == .string("com.x.vippro"))
        #expect(renewal["autoRenewStatus"] == .number("1") && renewal["appAccountToken"] == nil, "\(renewal)")

        // Get Refund History: alex was refunded nothing (its copy was revoked, not refunded).
        #expect(out["refunds"]?.arrayValue?.isEmpty == true, "\(out["refunds"] ?? .null)")
        // Look Up Order ID: the purchaser's order holds the purchaser's transaction only.
        #expect(out["order"]?["status"] == .number("0"))
        let ordered = out["order"]?["transactions"]?.arrayValue ?? []
        #expect(Self.ids(ordered) == [accountIDs[1]] && ordered.first?["inAppOwnershipType"] == .string("PURCHASED"))
        // Get Notification History by alex's id: alex's notifications only (its REVOKE, its own
        // purchase); by the account's id, none of alex's.
        let mine = out["memberNotifications"]?.arrayValue ?? []
        #expect(
            mine.map { "\($0["notificationType"]?.stringValue ?? "-") \($0["transactionId"]?.stringValue ?? "-")" } == [
                "ONE_TIME_CHARGE \(alexCoin)", "REVOKE \(alexNoads)",
            ], "\(mine)")
        let theirs = out["purchaserNotifications"]?.arrayValue ?? []
        #expect(!theirs.isEmpty && theirs.allSatisfy { $0["inAppOwnershipType"] == .string("PURCHASED") }, "\(theirs)")
        #expect(theirs.allSatisfy { !alexIDs.contains($0["transactionId"]?.stringValue ?? "") })
        // Extend a Subscription Renewal Date of alex's shared subscription: Apple's 4030007.
        #expect(out["extension"]?["status"] == .number("403") && out["extension"]?["errorCode"] == .number("4030007"))
    }
}
