import Foundation
import IAPKit
import Testing

@testable import IAPJSON
@testable import IAPTime

/// The server API keyed by a family member's transaction id: Apple's history, statuses and
/// refund history list the transactions of the customer the id belongs to, so a member's id
/// answers with the member's (docs/family.md, "The server API").
@Suite("Family Sharing on the server routes")
struct FamilyServerRoutesTests {
    static func id(_ n: Int) -> String { String(TransactionID.first.rawValue + UInt64(n - 1)) }

    /// The family fixture's store: alex shares noads (id 1; alex's copy 2) and vippro (3; 4), the
    /// subscription renews (5; 6), alex buys coins itself (7), the noads purchase is refunded
    /// (alex's copy 2 revoked).
    static func family() throws -> APIHarness {
        let h = try APIHarness(catalogFile: StoreKitFixture.directory.appendingPathComponent("family/catalog.json").path)
        try h.apply([.family(.add("alex"))])
        _ = try h.buy("com.x.noads")
        _ = try h.buy("com.x.vippro")
        let clock = try h.store.read { s throws(StoreError) in s.state.clock }
        try h.apply([.advanceClock(to: clock.adding(milliseconds: 32 * 86_400_000))])
        try h.apply([.family(.buy(ProductID("com.x.coin42"), member: "alex"))])
        try h.apply([.refund(TransactionID(parsing: id(1))!, reason: 1)])
        return h
    }

    static func signedIDs(_ h: APIHarness, _ target: String, key: String = "signedTransactions") throws -> [String] {
        let r = h.get(target)
        try #require(r.status == .ok, "\(target): \(APIHarness.text(r))")
        return try #require(h.json(r)?[key]?.arrayValue).map { String($0.stringValue!.split(separator: ".")[1]) }
    }

    @Test("history by a member's id lists the member's transactions; by the account's id, none of the members'")
    func history() throws {
        let h = try Self.family()
        let member = Self.id(6)
        #expect(try Self.signedIDs(h, "/inApps/v2/history/\(member)") == [2, 4, 6, 7].map(Self.id))
        #expect(try Self.signedIDs(h, "/inApps/v1/history/\(member)") == [2, 4, 6].map(Self.id), "v1: no finished consumable")
        #expect(try Self.signedIDs(h, "/inApps/v2/history/\(member)?inAppOwnershipType=FAMILY_SHARED") == [2, 4, 6].map(Self.id))
        #expect(try Self.signedIDs(h, "/inApps/v2/history/\(member)?inAppOwnershipType=PURCHASED") == [Self.id(7)])
        #expect(try Self.signedIDs(h, "/inApps/v2/history/\(member)?revoked=true") == [Self.id(2)])
        #expect(try Self.signedIDs(h, "/inApps/v2/history/\(Self.id(1))") == [1, 3, 5].map(Self.id))
        #expect(try Self.signedIDs(h, "/inApps/v2/history/\(Self.id(1))?inAppOwnershipType=FAMILY_SHARED").isEmpty)
    }

    @Test("transaction info answers a member's id with its own transaction")
    func transactionInfo() throws {
        let h = try Self.family()
        let r = h.get("/inApps/v1/transactions/\(Self.id(6))")
        #expect(APIHarness.text(r) == #"{"signedTransactionInfo":"signed.\#(Self.id(6)).com.x.vippro"}"#)
    }

    @Test("statuses by a member's id: the member's shared subscription, the purchaser's status, the member's original id")
    func statuses() throws {
        let h = try Self.family()
        h.api.subscriptionStatus = SubscriptionEngineStatus()
        let expected = """
            {"environment":"Sandbox","bundleId":"com.x.demo","data":[\
            {"subscriptionGroupIdentifier":"vip","lastTransactions":[\
            {"status":1,"originalTransactionId":"\(Self.id(4))","signedTransactionInfo":"signed.\(Self.id(6)).com.x.vippro","signedRenewalInfo":"renewal.\(Self.id(4))"}]}]}
            """
        #expect(APIHarness.text(h.get("/inApps/v1/subscriptions/\(Self.id(2))")) == expected)
        // The purchaser's id: the account's subscription only.
        let account = h.json(h.get("/inApps/v1/subscriptions/\(Self.id(1))"))?["data"]?.arrayValue?.first?["lastTransactions"]?
            .arrayValue
        #expect(account?.map { $0["originalTransactionId"]?.stringValue } == [Self.id(3)])
        // Refunding the current period revokes the member's copy: its status is 5.
        try h.apply([.refund(TransactionID(parsing: Self.id(5))!, reason: 0)])
        let revoked = h.json(h.get("/inApps/v1/subscriptions/\(Self.id(2))"))?["data"]?.arrayValue?.first?["lastTransactions"]?
            .arrayValue?.first
        #expect(
            revoked?["status"] == .number("5") && revoked?["originalTransactionId"] == .string(Self.id(4)), "\(revoked ?? .null)")
    }

    @Test("statuses by a member's id list its shared and its own subscription; its own renewal info is auto-renew off")
    func ownSubscriptionStatuses() throws {
        let h = try Self.family()
        h.api.subscriptionStatus = SubscriptionEngineStatus()
        try h.apply([.family(.buy(ProductID("com.x.vippro"), member: "alex"))])
        let own = Self.id(8)
        let expected = """
            {"environment":"Sandbox","bundleId":"com.x.demo","data":[\
            {"subscriptionGroupIdentifier":"vip","lastTransactions":[\
            {"status":1,"originalTransactionId":"\(Self.id(4))","signedTransactionInfo":"signed.\(Self.id(6)).com.x.vippro","signedRenewalInfo":"renewal.\(Self.id(4))"},\
            {"status":1,"originalTransactionId":"\(own)","signedTransactionInfo":"signed.\(own).com.x.vippro","signedRenewalInfo":"renewal.\(own)"}]}]}
            """
        #expect(APIHarness.text(h.get("/inApps/v1/subscriptions/\(own)")) == expected)
        // The account's id: its own subscription only; the group's slot stays the account's.
        let account = h.json(h.get("/inApps/v1/subscriptions/\(Self.id(1))"))?["data"]?.arrayValue?.first?["lastTransactions"]?
            .arrayValue
        #expect(account?.map { $0["originalTransactionId"]?.stringValue } == [Self.id(3)])
        let info = try h.store.read { s throws(StoreError) -> RenewalInfo? in
            guard let t = try s.transaction(TransactionID(parsing: own)!) else { return nil }
            return try StoreTransactionSigner.renewalInfo(of: t, session: s)
        }
        #expect(info?.originalTransactionID.description == own && info?.autoRenew == false && info?.status == .active)
        #expect(info?.expirationIntent == nil && info?.autoRenewProductID == ProductID("com.x.vippro"))
        // One period: after it the member's own subscription is expired (not renewed), intent 1;
        // the shared one still follows the purchaser's renewing subscription.
        let clock = try h.store.read { s throws(StoreError) in s.state.clock }
        try h.apply([.advanceClock(to: clock.adding(milliseconds: 32 * 86_400_000))])
        let later = h.json(h.get("/inApps/v1/subscriptions/\(own)"))?["data"]?.arrayValue?.first?["lastTransactions"]?.arrayValue
        #expect(later?.map { $0["status"] } == [.number("1"), .number("2")], "\(later ?? [])")
        #expect(later?.last?["originalTransactionId"] == .string(own))
        let expired = try h.store.read { s throws(StoreError) -> RenewalInfo? in
            guard let t = try s.transaction(TransactionID(parsing: own)!) else { return nil }
            return try StoreTransactionSigner.renewalInfo(of: t, session: s)
        }
        #expect(expired?.status == .expired && expired?.expirationIntent == 1 && expired?.autoRenew == false)
    }

    @Test("extending a member's shared subscription is 4030007; the purchaser's is extended")
    func renewalExtension() throws {
        let h = try Self.family()
        h.api.writer = TestWriter(h.store.path)
        let body = #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"5f1e3c1a-0c2b-4d4e-9f10-1a2b3c4d5e6f"}"#
        let member = h.get("/inApps/v1/subscriptions/extend/\(Self.id(4))", method: "PUT", body: body)
        #expect(member.status == .forbidden)
        #expect(h.json(member)?["errorCode"] == .number("4030007"), "\(APIHarness.text(member))")
        #expect(APIHarness.text(member).contains("extend the purchaser's subscription \(Self.id(3)) instead"))
        let purchaser = h.get("/inApps/v1/subscriptions/extend/\(Self.id(3))", method: "PUT", body: body)
        #expect(purchaser.status == .ok, "\(APIHarness.text(purchaser))")
        // The member's current copy follows the purchaser's new expiry.
        let (copy, sub) = try h.store.read { s throws(StoreError) in
            (try s.transaction(TransactionID(parsing: Self.id(6))!), s.state.subscriptions[TransactionID(parsing: Self.id(3))!])
        }
        #expect(copy?.expiresDate != nil && copy?.expiresDate == sub?.expiresDate)
        #expect(h.json(purchaser)?["effectiveDate"] == .number(String(sub?.expiresDate.milliseconds ?? 0)))
    }

    /// Notifications about the given transactions, in order, signed as `n.ID`.
    struct Notifications: NotificationHistorySource {
        let ids: [String]

        func notifications(in session: StoreSession) throws -> [SignedNotification] {
            ids.enumerated().map { i, id in
                SignedNotification(
                    seq: UInt64(i + 1), date: session.state.clock, notificationType: "REVOKE", subtype: nil,
                    notificationUUID: "u\(i)", transactionID: TransactionID(parsing: id), signedPayload: "n.\(id)")
            }
        }
    }

    @Test("notification history by a member's id lists the member's notifications only")
    func notificationHistory() throws {
        let h = try Self.family()
        h.api.notificationHistory = Notifications(ids: [1, 2, 3, 4, 7].map(Self.id))
        let clock = try h.store.read { s throws(StoreError) in s.state.clock.milliseconds }
        func listed(_ id: String) throws -> [String] {
            let body = #"{"startDate":\#(clock - 86_400_000),"endDate":\#(clock + 1),"transactionId":"\#(id)"}"#
            let r = h.get("/inApps/v1/notifications/history", method: "POST", body: body)
            try #require(r.status == .ok, "\(APIHarness.text(r))")
            return try #require(h.json(r)?["notificationHistory"]?.arrayValue).compactMap { $0["signedPayload"]?.stringValue }
        }
        #expect(try listed(Self.id(6)) == ["n.\(Self.id(2))", "n.\(Self.id(4))", "n.\(Self.id(7))"])
        #expect(try listed(Self.id(3)) == ["n.\(Self.id(1))", "n.\(Self.id(3))"])
    }

    @Test("the family events of a reversal and a deletion come back from the store's journal as they were emitted")
    func journal() throws {
        let h = try Self.family()
        let emitted =
            try h.apply([.refundRequest(.reverse(TransactionID(parsing: Self.id(1))!))]).events
            + h.apply([.deleteTransaction(TransactionID(parsing: Self.id(1))!)]).events
        let family = emitted.filter { if case .family = $0.kind { return true } else { return false } }
        #expect(family.map(\.name) == ["familyRevocationCleared", "familyTransactionDeleted"])
        var logged: [Event] = []
        try h.store.read { s throws(StoreError) in
            try s.forEachEvent(since: 0) { e throws(StoreError) in
                if case .event(let ev) = e, case .family = ev.kind { logged.append(ev) }
            }
        }
        #expect(Array(logged.suffix(2)).map(\.kind) == family.map(\.kind))
    }

    @Test("refund history by a member's id holds no FAMILY_REVOKE copy; the order is the purchaser's alone")
    func refundsAndOrders() throws {
        let h = try Self.family()
        #expect(try Self.signedIDs(h, "/inApps/v2/refund/lookup/\(Self.id(6))").isEmpty)
        #expect(try Self.signedIDs(h, "/inApps/v2/refund/lookup/\(Self.id(3))") == [Self.id(1)])
        let (copy, own) = try h.store.read { s throws(StoreError) in
            (try s.transaction(TransactionID(parsing: Self.id(4))!), try s.transaction(TransactionID(parsing: Self.id(7))!))
        }
        #expect(copy?.inAppOwnershipType == "FAMILY_SHARED" && own?.inAppOwnershipType == "PURCHASED")
        #expect(copy.flatMap(OrderIdentifier.of) == nil && own.flatMap(OrderIdentifier.of) != nil)
        let order = OrderIdentifier.text(for: TransactionID(parsing: Self.id(3))!)
        #expect(try Self.signedIDs(h, "/inApps/v1/lookup/\(order)") == [Self.id(3)])
        let shared = OrderIdentifier.text(for: TransactionID(parsing: Self.id(4))!)
        #expect(APIHarness.text(h.get("/inApps/v1/lookup/\(shared)")) == #"{"status":1,"signedTransactions":[]}"#)
    }
}
