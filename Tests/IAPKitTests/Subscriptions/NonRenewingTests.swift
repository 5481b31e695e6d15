import Testing

@testable import IAPKit

@Suite("Non-renewing subscriptions")
struct NonRenewingTests {
    @Test("the expiry is the purchase plus the catalog's duration; nothing renews")
    func purchase() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.vip1")
        #expect(t.expiresDate == date("2026-02-01T00:00:01Z") && t.charged && t.webOrderLineItemID == nil)
        #expect(
            h.state.nonRenewing == [
                ProductID("com.x.vip1"): NonRenewingEntitlement(
                    productID: ProductID("com.x.vip1"), firstID: t.id, latestID: t.id, expiresDate: date("2026-02-01T00:00:01Z"),
                    purchases: 1)
            ])
        #expect(h.state.subscriptions.isEmpty && h.state.ownership.isEmpty)
        #expect(try h.advance("P3M").transactions.isEmpty)
        #expect(h.state.nonRenewing[ProductID("com.x.vip1")]?.statusName(at: h.state.clock) == "expired")
    }

    @Test("buying again extends from the later of now and the current expiry")
    func extend() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.vip1")
        try h.advance(to: "2026-01-15T00:00:00Z")
        let early = try h.buy("com.x.vip1")
        #expect(early.expiresDate == date("2026-03-01T00:00:01Z"))
        try h.advance(to: "2026-06-10T00:00:00Z")
        let late = try h.buy("com.x.vip1")
        #expect(late.expiresDate == date("2026-07-10T00:00:01Z"))
        #expect(h.state.nonRenewing[ProductID("com.x.vip1")]?.purchases == 3)
    }

    @Test("a quantity buys that many periods (nonrenewing-quantity)")
    func quantity() throws {
        var h = MachineHarness { $0.nonRenewingQuantity = true }
        let t = try h.buy("com.x.vip1", quantity: 3)
        #expect(t.expiresDate == date("2026-04-01T00:00:01Z"))
    }

    @Test("never restored")
    func notRestored() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.vip1")
        try h.apply(.finishAll)
        #expect(try h.apply(.restore(user: nil)).transactions.isEmpty)
    }

    @Test("a refund takes back the time that purchase had left; with none left the entitlement is revoked")
    func refund() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.vip1")
        let second = try h.buy("com.x.vip1")  // Feb 1 .. Mar 1
        try h.apply(.refund(second.id, reason: 0))
        #expect(h.state.nonRenewing[ProductID("com.x.vip1")]?.expiresDate == date("2026-02-01T00:00:01Z"))
        #expect(h.state.nonRenewing[ProductID("com.x.vip1")]?.statusName(at: h.state.clock) == "active")
        try h.apply(.refund(first.id, reason: 1))
        let e = try #require(h.state.nonRenewing[ProductID("com.x.vip1")])
        #expect(
            e.revocation == .init(date: h.state.clock, reason: 1) && e.statusName(at: h.state.clock) == "revoked"
                && e.purchases == 0)
        let again = try h.buy("com.x.vip1")
        #expect(again.expiresDate == SubscriptionPeriod(value: 1, unit: .month).advance(again.date))
        #expect(h.state.nonRenewing[ProductID("com.x.vip1")]?.statusName(at: h.state.clock) == "active")
    }
}
