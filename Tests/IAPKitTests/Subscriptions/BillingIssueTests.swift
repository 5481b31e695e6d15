import Testing

@testable import IAPKit

@Suite("Billing retry and grace period")
struct BillingIssueTests {
    static let day: Int64 = 86_400_000

    @Test("with billing-issues a renewal fails into 60 days of billing retry, then expires with intent 2")
    func billingRetry() throws {
        var h = MachineHarness { $0.billingIssues = true }
        let t = try h.buy("com.x.vippro")
        let end = try #require(t.expiresDate)
        let effects = try h.advance("P1M")
        #expect(effects.transactions.isEmpty)
        #expect(effects.events.map(\.name) == ["renewalFailed", "clockAdvanced"])
        #expect(effects.events.first?.kind.serverNotification == ServerNotification("DID_FAIL_TO_RENEW"))
        var sub = try #require(h.subscription("com.x.vippro"))
        #expect(sub.status == .inBillingRetry(until: end.adding(milliseconds: 60 * Self.day)))
        #expect(!sub.status.grantsAccess && sub.isInBillingRetry && sub.expiresDate == end)
        let later = try h.advance("P3M")
        #expect(later.events.map(\.name) == ["subscriptionExpired", "clockAdvanced"])
        #expect(later.events.first?.date == end.adding(milliseconds: 60 * Self.day))
        #expect(later.events.first?.kind.serverNotification == ServerNotification("EXPIRED", "BILLING_RETRY"))
        sub = try #require(h.subscription("com.x.vippro"))
        #expect(sub.status == .expired(.billingError) && sub.expirationIntent == .billingError)
    }

    @Test(
        "with grace-period the subscription keeps access 16 days (monthly) then retries until day 60",
        arguments: [
            ("com.x.vippro", Int64(16)), ("com.x.weekly", Int64(6)),
        ])
    func gracePeriod(product: String, graceDays: Int64) throws {
        var h = MachineHarness {
            $0.billingIssues = true
            $0.gracePeriod = true
        }
        let t = try h.buy(product)
        let end = try #require(t.expiresDate)
        try h.apply(.advanceClock(to: end))
        var sub = try #require(h.subscription(product))
        #expect(
            sub.status
                == .inGracePeriod(
                    until: end.adding(milliseconds: graceDays * Self.day), retryUntil: end.adding(milliseconds: 60 * Self.day)))
        #expect(sub.status.grantsAccess && sub.gracePeriodExpiresDate == end.adding(milliseconds: graceDays * Self.day))
        #expect(h.events.dropLast().last?.kind.serverNotification == ServerNotification("DID_FAIL_TO_RENEW", "GRACE_PERIOD"))
        let effects = try h.apply(.advanceClock(to: end.adding(milliseconds: 61 * Self.day)))
        #expect(effects.events.map(\.name) == ["gracePeriodExpired", "subscriptionExpired", "clockAdvanced"])
        #expect(
            effects.events.map(\.date).prefix(2) == [
                end.adding(milliseconds: graceDays * Self.day), end.adding(milliseconds: 60 * Self.day),
            ])
        #expect(effects.events.first?.kind.serverNotification == ServerNotification("GRACE_PERIOD_EXPIRED"))
        sub = try #require(h.subscription(product))
        #expect(sub.status == .expired(.billingError))
    }

    @Test("resolve in the grace period renews with the original dates (no days lost)")
    func resolveInGrace() throws {
        var h = MachineHarness {
            $0.billingIssues = true
            $0.gracePeriod = true
        }
        let t = try h.buy("com.x.vippro")
        try h.advance("P1M")  // Feb 1 00:00:01: failed at the renewal date, in grace
        try h.apply(.advanceClock(to: date("2026-02-10T00:00:00Z")))
        try h.apply(.setSetting(key: "billing-issues", value: "false"))
        let effects = try h.apply(.resolveBillingIssue(.product(ProductID("com.x.vippro"))))
        let renewal = try #require(effects.transactions.first)
        #expect(renewal.date == date("2026-02-10T00:00:00Z") && renewal.originalID == t.id && renewal.reason == .renewal)
        #expect(renewal.expiresDate == date("2026-03-01T00:00:01Z"))
        #expect(effects.events.last?.kind.serverNotification == ServerNotification("DID_RENEW", "BILLING_RECOVERY"))
        #expect(h.subscription("com.x.vippro")?.status == .active)
    }

    @Test("resolve from billing retry starts a new period now; resolving a healthy subscription is refused")
    func resolveInRetry() throws {
        var h = MachineHarness { $0.billingIssues = true }
        let t = try h.buy("com.x.vippro")
        try h.advance(to: "2026-02-20T00:00:00Z")
        let renewal = try #require(try h.apply(.resolveBillingIssue(.originalTransaction(t.id))).transactions.first)
        #expect(renewal.date == date("2026-02-20T00:00:00Z") && renewal.expiresDate == date("2026-03-20T00:00:00Z"))
        expectThrows(
            Printed.notAllowed(
                "subscription \(t.id) (com.x.vippro) is active; only a subscription in billing retry or its grace period has a billing issue to resolve"
            )
        ) {
            try h.apply(.resolveBillingIssue(.originalTransaction(t.id)))
        }
        // billing-issues is still on: the next renewal fails again.
        try h.advance("P1M")
        #expect(h.subscription("com.x.vippro")?.isInBillingRetry == true)
        expectThrows(
            Printed.notAllowed(
                "subscription \(t.id) (com.x.vippro) has a billing issue (inBillingRetry); recover it with 'iapctl resolve \(t.id)'"
            )
        ) {
            try h.apply(.renewSubscription(.originalTransaction(t.id)))
        }
    }

    @Test("turning auto-renew off while a renewal is failing ends the subscription now")
    func cancelDuringRetry() throws {
        var h = MachineHarness { $0.billingIssues = true }
        _ = try h.buy("com.x.vippro")
        try h.advance("P1M")
        let effects = try h.apply(.setAutoRenew(.product(ProductID("com.x.vippro")), on: false))
        #expect(effects.events.map(\.name) == ["autoRenewStatusChanged", "subscriptionExpired"])
        #expect(h.subscription("com.x.vippro")?.status == .expired(.cancelled))
    }

    @Test("a renewal product not sold in the storefront expires the subscription with intent 4")
    func productUnavailable() throws {
        let catalog = Catalog(products: [TestCatalogs.product("usa.only")])
        var h = MachineHarness(catalog: catalog)
        _ = try h.buy("usa.only")
        try h.apply(.setSetting(key: "storefront", value: "JPN"))
        try h.advance("P1M")
        #expect(h.subscription("usa.only")?.status == .expired(.productUnavailable))
        #expect(h.events.dropLast().last?.kind.serverNotification == ServerNotification("EXPIRED", "PRODUCT_NOT_FOR_SALE"))
    }
}
