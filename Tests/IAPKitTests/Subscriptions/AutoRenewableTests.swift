import Testing

@testable import IAPKit

@Suite("Auto-renewable subscriptions on the state machine")
struct AutoRenewableTests {
    static let bought = date("2026-01-01T00:00:01Z")

    @Test("a purchase sets the expiry one period on, a web order line item id, and the subscription record")
    func purchase() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.vip2")
        #expect(t.expiresDate == date("2026-04-01T00:00:01Z"))
        #expect(t.webOrderLineItemID == 2_000_000_000_001)
        #expect(t.charged && t.price == Price(decimal: "12.99")! && t.offer == nil && t.reason == .purchase)
        let expected = Subscription(
            originalID: t.id, originalDate: Self.bought, group: "vip", userID: nil, productID: ProductID("com.x.vip2"),
            latestID: t.id,
            periodStart: Self.bought, expiresDate: date("2026-04-01T00:00:01Z"), webOrderLineItemID: 2_000_000_000_001,
            periodPrice: Price(decimal: "12.99")!, currency: "USD", offer: nil, status: .active, autoRenew: true,
            renewalProductID: ProductID("com.x.vip2"), offerPeriodsLeft: 0, cycleAnchor: Self.bought,
            cyclePeriod: SubscriptionPeriod(value: 3, unit: .month), cycles: 1, upgradeCredit: nil, renewals: 0)
        #expect(h.state.subscriptions == [t.id: expected])
        #expect(h.state.subscriptionGroups == ["vip": t.id])
        #expect(h.state.ownership == [ProductID("com.x.vip2"): .init(originalID: t.id, originalDate: Self.bought, userID: nil)])
        #expect(h.state.nextWebOrderLineItemID == 2_000_000_000_002)
        #expect(h.eventNames == ["transactionPurchasing", "transactionPurchased", "subscriptionStarted"])
        #expect(h.events.last?.kind.serverNotification == ServerNotification("SUBSCRIBED", "INITIAL_BUY"))
    }

    @Test("each period end adds a renewal: new id and web order line item id, same original id, in the queue")
    func renewalChain() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.vip2")
        let effects = try h.advance("P1Y")
        let renewals = effects.transactions
        #expect(renewals.map(\.date) == ["2026-04-01", "2026-07-01", "2026-10-01", "2027-01-01"].map { date($0 + "T00:00:01Z") })
        #expect(
            renewals.map(\.expiresDate)
                == ["2026-07-01", "2026-10-01", "2027-01-01", "2027-04-01"].map { date($0 + "T00:00:01Z") })
        #expect(
            renewals.map(\.webOrderLineItemID) == [2_000_000_000_002, 2_000_000_000_003, 2_000_000_000_004, 2_000_000_000_005])
        #expect(renewals.map(\.id) == [2, 3, 4, 5].map { TransactionID(2_000_000_000_000_000 + $0) })
        #expect(
            renewals.allSatisfy {
                $0.originalID == first.id && $0.originalDate == first.date && $0.reason == .renewal && $0.state == .purchased
                    && $0.charged
                    && !$0.finished && $0.productID == first.productID
            })
        #expect(h.state.queue.map(\.id) == [first.id] + renewals.map(\.id))
        #expect(effects.events.map(\.name) == Array(repeating: "subscriptionRenewed", count: 4) + ["clockAdvanced"])
        #expect(effects.events.dropLast().map(\.date) == renewals.map(\.date))
        let sub = try #require(h.subscription("com.x.vip2"))
        #expect(sub.latestID == renewals.last?.id && sub.renewals == 4 && sub.cycles == 5 && sub.status == .active)
        #expect(h.state.clock == date("2027-01-01T00:00:01Z"))
    }

    @Test("renewal dates keep the anchor day: bought on January 31, renewed on the last day of shorter months")
    func monthEnds() throws {
        var h = MachineHarness()
        try h.advance(to: "2026-01-31T12:00:00Z")
        _ = try h.buy("com.x.vippro")
        let effects = try h.advance("P4M")
        #expect(
            effects.transactions.map(\.date)
                == ["2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"].map { date($0 + "T12:00:01Z") })
    }

    @Test("a free trial comes first, not charged and flagged; the first paid period follows it")
    func freeTrial() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.vipmonthly")
        #expect(t.offer == .freeTrial && !t.charged && t.price == .zero)
        #expect(t.expiresDate == date("2026-01-08T00:00:01Z"))
        let renewals = try h.advance("P2M").transactions
        #expect(renewals.map(\.date) == ["2026-01-08", "2026-02-08"].map { date($0 + "T00:00:01Z") })
        #expect(renewals.map(\.offer) == [nil, nil])
        #expect(renewals.allSatisfy { $0.charged && $0.price == Price(decimal: "4.99")! })
    }

    @Test("pay as you go bills the offer price for each of its periods, then the regular price")
    func payAsYouGo() throws {
        var h = MachineHarness(catalog: TestCatalogs.offers)
        let t = try h.buy("m.paygo")
        #expect(t.offer == .payAsYouGo && t.price == Price(decimal: "1.99")! && t.charged)
        let renewals = try h.advance("P4M").transactions
        #expect(renewals.map(\.offer) == [.payAsYouGo, .payAsYouGo, nil, nil])
        #expect(renewals.map(\.price) == ["1.99", "1.99", "4.99", "4.99"].map { Price(decimal: $0)! })
        #expect(renewals.map(\.date) == ["2026-02-01", "2026-03-01", "2026-04-01", "2026-05-01"].map { date($0 + "T00:00:01Z") })
    }

    @Test("pay up front covers the whole offer at once, then renews at the regular period and price")
    func payUpFront() throws {
        var h = MachineHarness(catalog: TestCatalogs.offers)
        let t = try h.buy("y.upfront")
        #expect(t.offer == .payUpFront && t.price == Price(decimal: "9.99")! && t.expiresDate == date("2026-07-01T00:00:01Z"))
        let renewal = try #require(try h.advance("P1Y").transactions.first)
        #expect(renewal.date == date("2026-07-01T00:00:01Z") && renewal.expiresDate == date("2027-07-01T00:00:01Z"))
        #expect(renewal.offer == nil && renewal.price == Price(decimal: "49.99")!)
    }

    @Test("buying an active subscription again charges nothing and changes nothing")
    func buyAgain() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.vip2")
        let before = h.state.subscriptions
        let again = try h.buy("com.x.vip2")
        #expect(!again.charged && again.originalID == first.id && again.expiresDate == first.expiresDate)
        #expect(again.webOrderLineItemID == first.webOrderLineItemID)
        #expect(h.state.subscriptions == before)
        #expect(h.eventNames.suffix(2) == ["transactionPurchasing", "transactionPurchased"])
    }

    @Test("auto-renew off: the subscription runs out at the period end with intent 1; buying again turns it back on")
    func autoRenewOff() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.vip2")
        try h.apply(.setAutoRenew(.product(ProductID("com.x.vip2")), on: false))
        #expect(h.events.last?.kind.serverNotification == ServerNotification("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"))
        _ = try h.buy("com.x.vip2")
        #expect(h.subscription("com.x.vip2")?.autoRenew == true)
        #expect(h.eventNames.suffix(1) == ["autoRenewStatusChanged"])
        try h.apply(.setAutoRenew(.originalTransaction(first.id), on: false))
        let effects = try h.advance("P1Y")
        #expect(effects.transactions.isEmpty)
        #expect(effects.events.map(\.name) == ["subscriptionExpired", "clockAdvanced"])
        #expect(effects.events.first?.date == first.expiresDate)
        let sub = try #require(h.subscription("com.x.vip2"))
        #expect(sub.status == .expired(.cancelled) && sub.expirationIntent == .cancelled && !sub.autoRenew)
        #expect(effects.events.first?.kind.serverNotification == ServerNotification("EXPIRED", "VOLUNTARY"))
        expectThrows(
            Printed.notAllowed(
                "subscription \(first.id) (com.x.vip2) is expired; auto-renew applies to a live subscription (buy com.x.vip2 to subscribe again)"
            )
        ) {
            try h.apply(.setAutoRenew(.product(ProductID("com.x.vip2")), on: true))
        }
    }

    @Test("a lapsed subscription bought again starts a new period now, same original id, no introductory offer")
    func resubscribe() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.vipmonthly")
        try h.apply(.expireSubscription(.product(ProductID("com.x.vipmonthly"))))
        try h.advance("P1M")
        let again = try h.buy("com.x.vipmonthly")
        #expect(again.originalID == first.id && again.offer == nil && again.charged)
        #expect(again.expiresDate == SubscriptionPeriod(value: 1, unit: .month).advance(again.date))
        #expect(h.events.last?.kind.serverNotification == ServerNotification("SUBSCRIBED", "RESUBSCRIBE"))
    }

    @Test("expire ends the subscription now and cuts the current period's transaction")
    func expireNow() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.vip2")
        try h.advance("P1M")
        let effects = try h.apply(.expireSubscription(.originalTransaction(first.id)))
        #expect(effects.transactions.map(\.id) == [first.id])
        #expect(effects.transactions.first?.expiresDate == h.state.clock)
        let sub = try #require(h.subscription("com.x.vip2"))
        #expect(sub.status == .expired(.cancelled) && sub.expiresDate == h.state.clock)
        #expect(try h.advance("P1Y").transactions.isEmpty)
        expectThrows(Printed.notAllowed("subscription \(first.id) (com.x.vip2) is already expired")) {
            try h.apply(.expireSubscription(.originalTransaction(first.id)))
        }
    }

    @Test("renew starts a new period now; the next renewal is one period after it")
    func renewNow() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.vip2")
        try h.advance("P1M")
        let now = h.state.clock
        let effects = try h.apply(.renewSubscription(.product(ProductID("com.x.vip2"))))
        let renewal = try #require(effects.transactions.last)
        #expect(effects.transactions.first?.id == first.id && effects.transactions.first?.expiresDate == now)
        #expect(
            renewal.date == now && renewal.reason == .renewal
                && renewal.expiresDate == SubscriptionPeriod(value: 3, unit: .month).advance(now))
        #expect(h.events.last?.kind.serverNotification == ServerNotification("DID_RENEW"))
        #expect(try h.advance("P3M").transactions.map(\.date) == [renewal.expiresDate])
    }

    @Test("commands name subscriptions by product or original id, with one-line errors")
    func references() throws {
        var h = MachineHarness()
        expectThrows(
            Printed.notFound("no subscription in group 'vip' of 'com.x.vip2'; buy one first ('iapctl buy com.x.vip2')")
        ) {
            try h.apply(.renewSubscription(.product(ProductID("com.x.vip2"))))
        }
        expectThrows(
            Printed.usage(
                "'com.x.noads' is nonConsumable, not an auto-renewable subscription; name a subscription product or an original transaction id"
            )
        ) {
            try h.apply(.renewSubscription(.product(ProductID("com.x.noads"))))
        }
        expectThrows(
            Printed.notFound("no subscription has original transaction id 42 (list them with 'iapctl subscriptions', no id)")
        ) {
            try h.apply(.renewSubscription(.originalTransaction(TransactionID(42))))
        }
        _ = try h.buy("com.x.vippro")
        let state = h.state
        // Another product of the same group names the same subscription.
        #expect(try h.machine.subscriptionID(.product(ProductID("com.x.vip2"))) == TransactionID.first)
        #expect(h.state == state)
    }

    @Test("a purchase never jumps over a renewal: what falls due within the clock step happens first")
    func purchaseAfterDue() throws {
        var h = MachineHarness { $0.clockStepMilliseconds = 40 * 86_400_000 }
        let first = try h.buy("com.x.vippro")
        let effects = try h.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1))
        #expect(effects.events.map(\.name) == ["subscriptionRenewed", "transactionPurchasing", "transactionPurchased"])
        #expect(effects.events.map(\.date) == [first.expiresDate!, h.state.clock, h.state.clock])
        #expect(h.state.clock == first.date.adding(milliseconds: 40 * 86_400_000))
    }

    @Test("restore gives every billing period by default (StoreKit 1), only the current one with restore-renewals latest")
    func restore() throws {
        for mode in RestoreRenewals.allCases {
            var h = MachineHarness { $0.restoreRenewals = mode }
            let noads = try h.buy("com.x.noads")
            let vip = try h.buy("com.x.vip2")
            let weekly = try h.buy("com.x.weekly")
            try h.apply(.setAutoRenew(.originalTransaction(weekly.id), on: false))
            try h.advance("P6M")
            try h.apply(.finishAll)
            let restored = try h.apply(.restore(user: nil)).transactions
            #expect(restored.allSatisfy { $0.state == .restored && !$0.charged })
            let periods = h.transactions.filter { $0.productType == .autoRenewable && $0.state == .purchased }
            switch mode {
            case .all:
                #expect(restored.map(\.originalID) == [noads.id] + periods.map(\.originalID))
                #expect(restored.dropFirst().map(\.webOrderLineItemID) == periods.map(\.webOrderLineItemID))
                #expect(restored.dropFirst().map(\.expiresDate) == periods.map(\.expiresDate))
                #expect(restored.count == 1 + 3 + 1)
            case .latest:
                let vipLatest = try #require(h.subscription("com.x.vip2")?.latestID)
                #expect(restored.map(\.originalID) == [noads.id, vip.id, weekly.id])
                #expect(restored[1].webOrderLineItemID == h.transactions.first { $0.id == vipLatest }?.webOrderLineItemID)
                #expect(restored[2].expiresDate == weekly.expiresDate)
            }
        }
    }
}
