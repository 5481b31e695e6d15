import Testing

@testable import IAPKit
@testable import IAPTime

/// The JSON inside signed transactions and renewal infos: Apple's field names, types and order,
/// absent fields left out (App Store Server API, JWSTransactionDecodedPayload and
/// JWSRenewalInfoDecodedPayload).
@Suite("Signed payloads")
struct SignedPayloadTests {
    static let context = SignedDataContext(
        bundleID: "com.x.demo", environment: .sandbox, signedDate: Timestamp(milliseconds: 1_767_225_700_000))

    static func text(_ t: Transaction, _ context: SignedDataContext = context) -> String {
        String(decoding: SignedTransactionPayload.bytes(t, context: context), as: UTF8.self)
    }

    @Test("a consumable: no subscription fields, no token for a non-UUID user, price in milliunits")
    func consumable() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.coin42", user: UserID.forAccount("alice"), quantity: 2)
        #expect(
            Self.text(t)
                == #"{"transactionId":"2000000000000001","originalTransactionId":"2000000000000001","bundleId":"com.x.demo","productId":"com.x.coin42","purchaseDate":1767225601000,"originalPurchaseDate":1767225601000,"quantity":2,"type":"Consumable","inAppOwnershipType":"PURCHASED","signedDate":1767225700000,"environment":"Sandbox","transactionReason":"PURCHASE","storefront":"USA","storefrontId":"143441","price":990,"currency":"USD"}"#
        )
    }

    @Test("an auto-renewable with a UUID user: web order line item, group, expiry and the token in lowercase")
    func autoRenewable() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.vip2", user: UserID("8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E90"))
        let production = SignedDataContext(bundleID: "com.x.demo", environment: .production, signedDate: t.date)
        #expect(
            Self.text(t, production)
                == #"{"transactionId":"2000000000000001","originalTransactionId":"2000000000000001","webOrderLineItemId":"2000000000001","bundleId":"com.x.demo","productId":"com.x.vip2","subscriptionGroupIdentifier":"vip","purchaseDate":1767225601000,"originalPurchaseDate":1767225601000,"expiresDate":1775001601000,"quantity":1,"type":"Auto-Renewable Subscription","appAccountToken":"8e3a1f0c-5b7d-4c21-9a6e-2f4b8d1c7e90","inAppOwnershipType":"PURCHASED","signedDate":1767225601000,"environment":"Production","transactionReason":"PURCHASE","storefront":"USA","storefrontId":"143441","price":12990,"currency":"USD"}"#
        )
    }

    @Test("a free trial carries offerType 1 and FREE_TRIAL at price 0; a renewal says RENEWAL")
    func offerAndRenewal() throws {
        var h = MachineHarness()
        let trial = try h.buy("com.x.vipmonthly")
        let trialText = Self.text(trial)
        #expect(trialText.contains(#""signedDate":1767225700000,"offerType":1,"environment":"Sandbox""#))
        #expect(trialText.hasSuffix(#""price":0,"currency":"USD","offerDiscountType":"FREE_TRIAL","offerPeriod":"P1W"}"#))
        let renewal = try #require(try h.advance("P1M").transactions.first)
        let renewalText = Self.text(renewal)
        #expect(renewalText.contains(#""transactionReason":"RENEWAL""#) && !renewalText.contains("offerType"))
        #expect(renewalText.contains(#""originalTransactionId":"2000000000000001""#))
    }

    @Test("a refund adds revocationReason and revocationDate; an upgraded period isUpgraded true")
    func refundAndUpgrade() throws {
        var h = MachineHarness()
        let coin = try h.buy("com.x.coin42")
        try h.apply(.refund(coin.id, reason: 1))
        let refunded = try #require(h.transactions.first { $0.id == coin.id })
        #expect(Self.text(refunded).contains(#""signedDate":1767225700000,"revocationReason":1,"revocationDate":1767225601000,"#))
        let monthly = try h.buy("com.x.vipmonthly")
        _ = try h.buy("com.x.vippro")
        let upgraded = try #require(h.transactions.first { $0.id == monthly.id })
        #expect(upgraded.isUpgraded)
        #expect(Self.text(upgraded).contains(#""isUpgraded":true,"#))
    }

    @Test(
        "appAccountToken only for UUID user ids",
        arguments: [
            ("8e3a1f0c-5b7d-4c21-9a6e-2f4b8d1c7e90", "8e3a1f0c-5b7d-4c21-9a6e-2f4b8d1c7e90"),
            ("8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E90", "8e3a1f0c-5b7d-4c21-9a6e-2f4b8d1c7e90"),
            ("8E3A1F0C5B7D4C219A6E2F4B8D1C7E90", nil), ("8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E9G", nil), ("alice", nil),
        ] as [(String, String?)])
    func appAccountToken(user: String, token: String?) {
        #expect(AppAccountToken.token(for: UserID(user)) == token)
        #expect(AppAccountToken.token(for: nil) == nil)
    }

    @Test("renewal info of an active subscription: renewal price and date, the series start, no retry flag")
    func renewalActive() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.vip2")
        let sub = try #require(h.subscription("com.x.vip2"))
        let info = RenewalInfo(sub, storefront: "USA", catalog: h.machine.catalog)
        #expect(
            info
                == RenewalInfo(
                    originalTransactionID: t.id, productID: ProductID("com.x.vip2"), autoRenewProductID: ProductID("com.x.vip2"),
                    autoRenew: true, expirationIntent: nil, isInBillingRetryPeriod: nil, gracePeriodExpiresDate: nil,
                    renewalOffer: nil, renewalPrice: Price(decimal: "12.99"), currency: "USD",
                    recentSubscriptionStartDate: t.date, renewalDate: date("2026-04-01T00:00:01Z"), appAccountToken: nil,
                    status: .active))
        #expect(
            String(decoding: SignedRenewalInfoPayload.bytes(info, context: Self.context), as: UTF8.self)
                == #"{"originalTransactionId":"2000000000000001","autoRenewProductId":"com.x.vip2","productId":"com.x.vip2","autoRenewStatus":1,"renewalPrice":12990,"currency":"USD","signedDate":1767225700000,"environment":"Sandbox","recentSubscriptionStartDate":1767225601000,"renewalDate":1775001601000}"#
        )
    }

    @Test("renewal info in the grace period, then expired from billing retry")
    func renewalBillingIssues() throws {
        var h = MachineHarness {
            $0.billingIssues = true
            $0.gracePeriod = true
        }
        _ = try h.buy("com.x.vip2")
        try h.advance("P3M")
        var info = RenewalInfo(try #require(h.subscription("com.x.vip2")), storefront: "USA", catalog: h.machine.catalog)
        #expect(info.status == .gracePeriod && info.isInBillingRetryPeriod == true)
        #expect(info.gracePeriodExpiresDate == date("2026-04-17T00:00:01Z") && info.expirationIntent == nil)
        try h.advance("P3M")
        info = RenewalInfo(try #require(h.subscription("com.x.vip2")), storefront: "USA", catalog: h.machine.catalog)
        #expect(info.status == .expired && info.isInBillingRetryPeriod == false && info.expirationIntent == 2)
        #expect(!info.autoRenew && info.gracePeriodExpiresDate == nil && info.renewalDate == date("2026-04-01T00:00:01Z"))
        let text = String(decoding: SignedRenewalInfoPayload.bytes(info, context: Self.context), as: UTF8.self)
        #expect(text.hasPrefix(#"{"expirationIntent":2,"originalTransactionId":"2000000000000001","#))
        #expect(text.contains(#""autoRenewStatus":0,"isInBillingRetryPeriod":false,"renewalPrice":12990,"#))
    }

    @Test("recentSubscriptionStartDate: a lapse of 60 days or less keeps the series, a longer one starts a new one")
    func recentStart() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.vipmonthly")
        try h.apply(.expireSubscription(.product(ProductID("com.x.vipmonthly"))))
        try h.advance("P59D")
        _ = try h.buy("com.x.vipmonthly")
        #expect(try #require(h.subscription("com.x.vipmonthly")).recentStartDate == nil, "59 days and a second: the same series")
        try h.apply(.expireSubscription(.product(ProductID("com.x.vipmonthly"))))
        try h.advance("P61D")
        let again = try h.buy("com.x.vipmonthly")
        let sub = try #require(h.subscription("com.x.vipmonthly"))
        #expect(sub.originalID == first.id && sub.recentStartDate == again.date)
        #expect(RenewalInfo(sub, storefront: "USA", catalog: h.machine.catalog).recentSubscriptionStartDate == again.date)
    }

    @Test("a pay-as-you-go offer still running renews under the offer; its last period renews at the regular price")
    func payAsYouGoRenewal() throws {
        var h = MachineHarness(catalog: TestCatalogs.offers)
        let first = try h.buy("m.paygo")
        #expect(first.offer == .payAsYouGo && first.price == Price(decimal: "1.99"))
        var info = RenewalInfo(try #require(h.subscription("m.paygo")), storefront: "USA", catalog: h.machine.catalog)
        #expect(info.renewalOffer?.kind == .payAsYouGo && info.renewalOffer?.type == .introductory)
        #expect(info.renewalPrice == Price(decimal: "1.99"))
        let text = String(decoding: SignedRenewalInfoPayload.bytes(info, context: Self.context), as: UTF8.self)
        #expect(text.contains(#""autoRenewStatus":1,"offerType":1,"renewalPrice":1990,"currency":"USD","#))
        #expect(text.hasSuffix(#""offerDiscountType":"PAY_AS_YOU_GO","offerPeriod":"P3M"}"#))
        try h.advance("P2M")
        info = RenewalInfo(try #require(h.subscription("m.paygo")), storefront: "USA", catalog: h.machine.catalog)
        #expect(info.renewalOffer == nil && info.renewalPrice == Price(decimal: "4.99"), "the third offer period is running")
    }

    @Test("notification UUIDs: version 8, RFC variant, lowercase, the same for the same event")
    func notificationUUID() {
        let a = NotificationUUID.make(bundleID: "com.x.demo", seq: 7, date: Timestamp(milliseconds: 1))
        #expect(a == NotificationUUID.make(bundleID: "com.x.demo", seq: 7, date: Timestamp(milliseconds: 1)))
        #expect(a != NotificationUUID.make(bundleID: "com.x.demo", seq: 8, date: Timestamp(milliseconds: 1)))
        let parts = a.split(separator: "-").map(\.count)
        #expect(parts == [8, 4, 4, 4, 12])
        let chars = Array(a)
        #expect(chars[14] == "8" && "89ab".contains(chars[19]) && a == a.lowercased())
    }

    @Test("the engine's status for the API: grace period 4, billing retry 3, revoked 5")
    func engineStatus() throws {
        #expect(SubscriptionStatus(.active) == .active)
        #expect(SubscriptionStatus(.inGracePeriod(until: .defaultStart, retryUntil: .defaultStart)) == .gracePeriod)
        #expect(SubscriptionStatus(.inBillingRetry(until: .defaultStart)) == .billingRetry)
        #expect(SubscriptionStatus(.expired(.cancelled)) == .expired)
        #expect(SubscriptionStatus(.revoked(date: .defaultStart, reason: 0)) == .revoked)
    }
}
