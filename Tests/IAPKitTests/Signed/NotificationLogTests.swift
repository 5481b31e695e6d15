import Testing

@testable import IAPJSON
@testable import IAPKit
@testable import IAPTime

/// Signed App Store Server Notifications V2 made from a real store's event log, and the signer
/// installed in the App Store Server API.
@Suite("Signed notifications and the server's signer")
struct NotificationLogTests {
    /// A store on disk with the built-in catalog.
    final class Fixture {
        let directory = TemporaryDirectory("iapkit-notifications")
        let store: Store

        init() throws {
            store = Store(path: directory.path + "/store", lockTimeout: 0.2)
            try store.create(StoreCreation(), force: false)
        }

        @discardableResult
        func apply(_ commands: Command...) throws -> Effects {
            try store.write { s throws(StoreError) in try s.apply(batch: commands) }
        }

        func notifications(since: UInt64 = 0) throws -> [SignedNotification] {
            try store.read { s throws(StoreError) in
                try NotificationLog.notifications(since: since, in: s, signer: try StoreTransactionSigner(session: s))
            }
        }
    }

    static func payload(_ token: String) throws -> JSONValue { try CompactJWS(parsing: token).payload }

    static func advance(_ f: Fixture, _ iso: String) throws {
        let clock = try f.store.read { s throws(StoreError) in s.state.clock }
        try f.apply(.advanceClock(to: SubscriptionPeriod(iso8601: iso)!.advance(clock)))
    }

    @Test("a subscription's life and a one-time purchase give Apple's types and subtypes, with data as Apple fills it")
    func lifecycle() throws {
        let f = try Fixture()
        try f.apply(.buy(ProductID("com.x.vip2"), user: nil, quantity: 1))
        try Self.advance(f, "P3M")
        try f.apply(.setAutoRenew(.product(ProductID("com.x.vip2")), on: false))
        try f.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1))
        try Self.advance(f, "P3M")
        try f.apply(.refund(TransactionID(2_000_000_000_000_003), reason: 0))
        let found = try f.notifications()
        #expect(
            found.map { "\($0.notificationType) \($0.subtype ?? "-") \($0.transactionID.map(\.description) ?? "-")" } == [
                "SUBSCRIBED INITIAL_BUY 2000000000000001", "DID_RENEW - 2000000000000002",
                "DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED 2000000000000002", "ONE_TIME_CHARGE - 2000000000000003",
                "EXPIRED VOLUNTARY 2000000000000002", "REFUND - 2000000000000003",
            ])
        let root = try f.store.read { s throws(StoreError) in try s.signingIdentity().root }
        for n in found {
            #expect(JWSVerifier.verify(try CompactJWS(parsing: n.signedPayload), root: root).isValid)
        }
        let subscribed = try Self.payload(found[0].signedPayload)
        #expect(
            subscribed.objectValue?.map(\.key) == [
                "notificationType", "subtype", "notificationUUID", "data", "version", "signedDate",
            ])
        #expect(
            subscribed["data"]?.objectValue?.map(\.key) == [
                "bundleId", "bundleVersion", "environment", "signedTransactionInfo", "signedRenewalInfo", "status",
            ])
        #expect(subscribed["version"] == .string("2.0") && subscribed["data"]?["status"] == .number("1"))
        #expect(
            subscribed["signedDate"] == .number("1767225601000")
                && subscribed["notificationUUID"] == .string(found[0].notificationUUID))
        let expired = try Self.payload(found[4].signedPayload)
        #expect(expired["data"]?["status"] == .number("2"))
        let renewal = try Self.payload(try #require(expired["data"]?["signedRenewalInfo"]?.stringValue))
        #expect(renewal["expirationIntent"] == .number("1") && renewal["autoRenewStatus"] == .number("0"))
        let oneTime = try Self.payload(found[3].signedPayload)
        #expect(
            oneTime["data"]?.objectValue?.map(\.key) == ["bundleId", "bundleVersion", "environment", "signedTransactionInfo"])
        let refund = try Self.payload(found[5].signedPayload)
        let refunded = try Self.payload(try #require(refund["data"]?["signedTransactionInfo"]?.stringValue))
        #expect(refunded["revocationReason"] == .number("0") && refunded["type"] == .string("Consumable"))
        #expect(refund["data"]?["signedRenewalInfo"] == nil)
    }

    @Test("a notification never changes once its event is written; --since only leaves out earlier ones")
    func immutable() throws {
        let f = try Fixture()
        try f.apply(.buy(ProductID("com.x.vip2"), user: nil, quantity: 1))
        let before = try f.notifications()
        try f.apply(.setSetting(key: "environment", value: "Production"))
        try f.apply(.refund(TransactionID(2_000_000_000_000_001), reason: 1))
        try Self.advance(f, "P1M")
        let after = try f.notifications()
        #expect(Array(after.prefix(before.count)) == before)
        #expect(try f.notifications(since: before[0].seq) == Array(after.dropFirst()))
        let first = try Self.payload(try Self.payload(before[0].signedPayload)["data"]!["signedTransactionInfo"]!.stringValue!)
        #expect(first["revocationDate"] == nil && first["environment"] == .string("Sandbox"))
        let refund = try Self.payload(after[1].signedPayload)
        #expect(refund["data"]?["environment"] == .string("Production"), "the setting as the log had it")
        #expect(refund["data"]?["status"] == .number("5"))
    }

    @Test("the API with the store's signer: signed transaction info, and the engine's status (billing retry 3)")
    func serverSigner() throws {
        let h = try APIHarness(signer: nil)
        try h.apply([
            .setSetting(key: "billing-issues", value: "true"), .buy(ProductID("com.x.vip2"), user: nil, quantity: 1),
        ])
        let signer = try h.store.read { s throws(StoreError) in try StoreTransactionSigner(session: s) }
        h.api.signer = signer
        h.api.subscriptionStatus = SubscriptionEngineStatus()
        let info = h.get("/inApps/v1/transactions/2000000000000001")
        #expect(info.status == .ok)
        let token = try #require(h.json(info)?["signedTransactionInfo"]?.stringValue)
        let jws = try CompactJWS(parsing: token)
        #expect(JWSVerifier.verify(jws, root: SigningIdentity.builtin.root).isValid)
        #expect(jws.payload["productId"] == .string("com.x.vip2") && jws.payload["signedDate"] == .number("1767225601000"))
        try h.apply([.advanceClock(to: Timestamp(rfc3339: "2026-04-02T00:00:00Z")!)])
        let statuses = h.get("/inApps/v1/subscriptions/2000000000000001")
        let item = try #require(h.json(statuses)?["data"]?.arrayValue?.first?["lastTransactions"]?.arrayValue?.first)
        #expect(item["status"] == .number("3"), "\(APIHarness.text(statuses))")
        let renewal = try CompactJWS(parsing: try #require(item["signedRenewalInfo"]?.stringValue))
        #expect(renewal.payload["isInBillingRetryPeriod"] == .bool(true))
        #expect(renewal.payload["signedDate"] == .number("1775088000000"))
    }
}
