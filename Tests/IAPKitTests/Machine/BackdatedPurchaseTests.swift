import Testing

@testable import IAPKit
@testable import IAPTime

/// `buy --purchase-date`: StoreKit Test's `purchaseDate(_:renewalBehavior:)` on the machine.
@Suite("Backdated purchases on the state machine")
struct BackdatedPurchaseTests {
    static let catalog = Catalog(products: [
        TestCatalogs.product("m.month", price: "4.99", group: "a"),
        TestCatalogs.product("one.unlock", .nonConsumable, period: nil),
    ])

    static func options(_ date: String, _ behavior: PurchaseOptions.RenewalBehavior = .renewUntilNow) -> PurchaseOptions {
        var o = PurchaseOptions()
        o.purchaseDate = Timestamp(rfc3339: date)!
        o.renewalBehavior = behavior
        return o
    }

    static func buy(_ id: String, _ o: PurchaseOptions) -> Command {
        .buyWithOptions(ProductID(id), user: nil, quantity: 1, options: o)
    }

    @Test("renew-until-now: the purchase at the date, every renewal up to the clock, ids increasing, the clock unmoved")
    func renewUntilNow() throws {
        var h = MachineHarness(catalog: Self.catalog)
        try h.advance(to: "2026-06-01T00:00:00Z")
        let clock = h.state.clock
        let effects = try h.apply(Self.buy("m.month", Self.options("2025-06-15")))
        guard case .payment(.purchased(let first)) = effects.outcome else { Issue.record("\(effects.outcome)"); return }
        #expect(first.date == date("2025-06-15T00:00:00Z") && first.originalDate == first.date)
        let periods = effects.transactions.sorted { $0.id < $1.id }
        #expect(periods.count == 12)
        #expect(periods.map(\.date) == (0..<12).map { SubscriptionPeriod(iso8601: "P1M")!.advance(first.date, times: $0) })
        #expect(zip(periods, periods.dropFirst()).allSatisfy { $0.id < $1.id && $1.originalID == first.id })
        let sub = try #require(h.state.subscriptions[first.id])
        #expect(sub.status == .active && sub.expiresDate == date("2026-06-15T00:00:00Z") && sub.latestID == periods[11].id)
        #expect(h.state.clock == clock)
        let names = h.names(effects)
        #expect(names.first(where: { $0.hasPrefix("subscription") }) == "subscriptionStarted")
        #expect(names.filter { $0 == "subscriptionRenewed" }.count == 11)
    }

    @Test("cancel-immediately: one period, auto-renew off from the start, expired when the period ended")
    func cancelImmediately() throws {
        var h = MachineHarness(catalog: Self.catalog)
        try h.advance(to: "2026-06-01T00:00:00Z")
        let effects = try h.apply(Self.buy("m.month", Self.options("2026-01-10", .cancelImmediately)))
        #expect(effects.transactions.count == 1)
        let sub = try #require(h.subscription("m.month"))
        #expect(sub.status == .expired(.cancelled) && !sub.autoRenew && sub.expiresDate == date("2026-02-10T00:00:00Z"))
        #expect(
            h.names(effects) == [
                "transactionPurchasing", "transactionPurchased", "subscriptionStarted", "autoRenewStatusChanged",
                "subscriptionExpired",
            ])
        // Within its period it is still active.
        var g = MachineHarness(catalog: Self.catalog)
        try g.advance(to: "2026-06-01T00:00:00Z")
        try g.apply(Self.buy("m.month", Self.options("2026-05-20", .cancelImmediately)))
        #expect(g.subscription("m.month")?.status == .active && g.subscription("m.month")?.autoRenew == false)
    }

    @Test("a future date, a date before 1970 and an overlapping period are refused with the state unchanged")
    func refusals() throws {
        var h = MachineHarness(catalog: Self.catalog)
        try h.advance(to: "2026-06-01T00:00:00Z")
        let now = h.state.clock
        h.expectRefusal(
            Self.buy("one.unlock", Self.options("2026-06-02")), .backdate(.inFuture(date("2026-06-02T00:00:00Z"), clock: now)))
        h.expectRefusal(
            Self.buy("one.unlock", Self.options("1969-12-31")), .backdate(.beforeEpoch(date("1969-12-31T00:00:00Z"))))
        try h.apply(Self.buy("m.month", Self.options("2026-05-01")))
        h.expectRefusal(
            Self.buy("m.month", Self.options("2026-05-15")),
            .backdate(.overlaps(date("2026-05-15T00:00:00Z"), group: "a", until: date("2026-07-01T00:00:00Z"))))
        // The current moment is allowed ("a date in the past or the current moment").
        let t = try h.apply(Self.buy("one.unlock", Self.options(h.state.clock.rfc3339))).transactions.last
        #expect(t?.date == h.state.clock && t?.state == .purchased)
    }
}
