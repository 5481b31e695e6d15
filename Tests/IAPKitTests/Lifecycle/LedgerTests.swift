import IAPKit
import Testing

@Suite("The ledger (RMStore keychain persistence) on the state machine")
struct LedgerTests {
    static let coin = ProductID("com.x.coin42")

    @Test("counting happens at delivery (finish), not at purchase; units follow quantities; failures count nothing")
    func counting() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.coin42", quantity: 3)
        #expect(h.state.ledger.isEmpty, "purchased but not yet delivered")
        try h.apply(.finish([t.id]))
        #expect(h.state.ledger == [Self.coin: LedgerEntry(purchases: 1, units: 3, consumed: 0)])
        try h.apply(.setSetting(key: "payments-allowed", value: "false"))
        try h.apply(.finish([try h.buy("com.x.coin42").id]))
        #expect(h.state.ledger[Self.coin]?.purchases == 1)
    }

    @Test("restored transactions are delivered too")
    func restored() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.noads")
        try h.apply(.finishAll)
        try h.apply(.restore(user: nil))
        try h.apply(.finishAll)
        #expect(h.state.ledger[ProductID("com.x.noads")] == LedgerEntry(purchases: 2, units: 2, consumed: 0))
        #expect(h.state.ledger[ProductID("com.x.noads")]?.isOwned(.nonConsumable) == true)
    }

    @Test("consume: never below zero, consumables only; a consumable is owned while units are left")
    func consume() throws {
        var h = MachineHarness()
        try h.apply(.finish([try h.buy("com.x.coin42", quantity: 2).id]))
        let e = try h.apply(.consume(Self.coin, count: 1))
        #expect(e.events.map(\.kind) == [.productConsumed(Self.coin, count: 1, balance: 1)])
        h.expectRefusal(
            .consume(Self.coin, count: 2),
            .notAllowed("cannot consume 2 of 'com.x.coin42': its balance is 1 (see 'iapctl ledger')"))
        try h.apply(.consume(Self.coin, count: 1))
        #expect(h.state.ledger[Self.coin] == LedgerEntry(purchases: 1, units: 2, consumed: 2))
        #expect(h.state.ledger[Self.coin]?.isOwned(.consumable) == false)
        h.expectRefusal(
            .consume(ProductID("com.x.coin210"), count: 1),
            .notAllowed("cannot consume 1 of 'com.x.coin210': its balance is 0 (see 'iapctl ledger')"))
        h.expectRefusal(
            .consume(ProductID("com.x.noads"), count: 1),
            .notAllowed("cannot consume 'com.x.noads': it is nonConsumable; only consumables are consumed"))
        h.expectRefusal(.consume(Self.coin, count: 0), .usage("consume count 0 is out of range; use 1 to 1000000"))
        h.expectRefusal(
            .consume(ProductID("com.x.coin43"), count: 1),
            .unknownProduct(
                ProductID("com.x.coin43"),
                closest: [ProductID("com.x.coin42"), ProductID("com.x.coin1386"), ProductID("com.x.coin210")]))
    }
}
