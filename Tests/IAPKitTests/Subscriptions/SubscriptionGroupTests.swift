import Testing

@testable import IAPKit

@Suite("Upgrades, downgrades and crossgrades inside a subscription group")
struct SubscriptionGroupTests {
    @Test("an upgrade takes effect at once: old period marked upgraded, its unused part credited, a new period charged")
    func upgrade() throws {
        var h = MachineHarness()
        let monthly = try h.buy("com.x.vipmonthly")  // free week, then 4.99 a month (level 2)
        try h.advance("P1W")
        let paid = try #require(h.state.queue.last)
        try h.advance(to: "2026-01-23T00:00:01Z")  // 15 of the 31 days of the paid period used
        let effects = try h.apply(.buy(ProductID("com.x.vippro"), user: nil, quantity: 1))
        let pro = try #require(effects.transactions.first { $0.productID == ProductID("com.x.vippro") })
        let old = try #require(effects.transactions.first { $0.id == paid.id })
        #expect(old.isUpgraded && old.expiresDate == paid.expiresDate)
        // 4.99 x 16/31 = 2.5754..., rounded down to the cent.
        #expect(pro.upgradeCredit == Price(decimal: "2.57")!)
        #expect(pro.charged && pro.price == Price(decimal: "9.99")! && pro.originalID == monthly.id && pro.offer == nil)
        #expect(pro.expiresDate == date("2026-02-23T00:00:02Z"))
        let sub = try #require(h.subscription("com.x.vippro"))
        #expect(sub.productID == ProductID("com.x.vippro") && sub.renewalProductID == ProductID("com.x.vippro"))
        #expect(sub.latestID == pro.id && sub.upgradeCredit == Price(decimal: "2.57")!)
        #expect(effects.events.map(\.name) == ["transactionPurchasing", "transactionPurchased", "subscriptionUpgraded"])
        #expect(effects.events.last?.kind.serverNotification == ServerNotification("DID_CHANGE_RENEWAL_PREF", "UPGRADE"))
        #expect(effects.transactions.last?.id == paid.id)
        #expect(h.state.ownership[ProductID("com.x.vippro")]?.originalID == monthly.id)
        // The next renewal is the new product, one month after the upgrade.
        #expect(try h.advance("P1M").transactions.map(\.productID) == [ProductID("com.x.vippro")])
    }

    @Test("a downgrade waits for the renewal: nothing charged now, the renewal is the lower product")
    func downgrade() throws {
        var h = MachineHarness()
        let pro = try h.buy("com.x.vippro")
        let change = try h.buy("com.x.vip2")
        #expect(!change.charged && change.expiresDate == pro.expiresDate && change.webOrderLineItemID == pro.webOrderLineItemID)
        let sub = try #require(h.subscription("com.x.vip2"))
        #expect(sub.productID == ProductID("com.x.vippro") && sub.renewalProductID == ProductID("com.x.vip2"))
        #expect(h.events.last?.kind == .renewalPreferenceChanged(sub, from: ProductID("com.x.vippro"), change: .downgrade))
        #expect(h.events.last?.kind.serverNotification == ServerNotification("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE"))
        let renewals = try h.advance("P4M").transactions
        #expect(renewals.map(\.productID) == [ProductID("com.x.vip2"), ProductID("com.x.vip2")])
        #expect(renewals.map(\.date) == [pro.expiresDate!, date("2026-05-01T00:00:01Z")])
        #expect(renewals.map(\.price) == [Price(decimal: "12.99")!, Price(decimal: "12.99")!])
    }

    @Test("buying the current product again takes a pending downgrade back")
    func cancelDowngrade() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.vippro")
        _ = try h.buy("com.x.vip2")
        _ = try h.buy("com.x.vippro")
        let sub = try #require(h.subscription("com.x.vippro"))
        #expect(sub.renewalProductID == ProductID("com.x.vippro"))
        #expect(h.events.last?.kind == .renewalPreferenceChanged(sub, from: ProductID("com.x.vip2"), change: nil))
        #expect(h.events.last?.kind.serverNotification == ServerNotification("DID_CHANGE_RENEWAL_PREF"))
        #expect(try h.advance("P1M").transactions.map(\.productID) == [ProductID("com.x.vippro")])
    }

    @Test("a crossgrade to another duration waits for the renewal (quarterly to monthly, both level 2)")
    func crossgradeOtherDuration() throws {
        var h = MachineHarness()
        let quarterly = try h.buy("com.x.vip2")
        let change = try h.buy("com.x.vipmonthly")
        #expect(!change.charged && change.offer == nil)
        #expect(h.subscription("com.x.vip2")?.renewalProductID == ProductID("com.x.vipmonthly"))
        let renewals = try h.advance("P4M").transactions
        #expect(renewals.map(\.productID) == [ProductID("com.x.vipmonthly"), ProductID("com.x.vipmonthly")])
        #expect(renewals.first?.date == quarterly.expiresDate)
        #expect(renewals.map(\.offer) == [nil, nil])
    }

    @Test("a crossgrade of the same duration takes effect at once, like an upgrade")
    func crossgradeSameDuration() throws {
        var h = MachineHarness(catalog: TestCatalogs.offers)
        let one = try h.buy("c.one")
        let two = try h.buy("c.two")
        #expect(
            two.charged && two.originalID == one.id
                && two.expiresDate == SubscriptionPeriod(value: 1, unit: .month).advance(two.date))
        #expect(h.transactions.first { $0.id == one.id }?.isUpgraded == true)
        #expect(h.eventNames.last == "subscriptionUpgraded")
        // Then an upgrade to level 1, and a downgrade back waits.
        _ = try h.buy("c.top")
        let back = try h.buy("c.one")
        #expect(!back.charged && h.subscription("c.one")?.renewalProductID == ProductID("c.one"))
    }

    @Test("one introductory offer per group: a lapsed subscriber who never had one gets it, one who had one does not")
    func introEligibility() throws {
        // "You can make introductory offers to customers who haven't previously received an
        // introductory offer for the given product, or for any products in the same subscription
        // group" (StoreKit, "Implementing introductory offers in your app").
        var h = MachineHarness()
        _ = try h.buy("com.x.vip2")
        #expect(h.machine.isEligibleForIntroOffer(group: "vip") == true)
        try h.apply(.expireSubscription(.product(ProductID("com.x.vip2"))))
        let monthly = try h.buy("com.x.vipmonthly")
        #expect(monthly.offer == .freeTrial && monthly.offerType == .introductory && !monthly.charged)
        #expect(h.machine.isEligibleForIntroOffer(group: "vip") == false)
        try h.apply(.expireSubscription(.product(ProductID("com.x.vipmonthly"))))
        let again = try h.buy("com.x.vipmonthly")
        #expect(again.offer == nil && again.charged)
    }
}
