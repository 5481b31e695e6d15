import IAPKit
import Testing

@testable import IAPTime

@Suite("Purchases on the state machine")
struct PurchaseTests {
    @Test("buy goes purchasing then purchased, both as events, and waits in the queue")
    func buyLifecycle() throws {
        var h = MachineHarness()
        let effects = try h.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 2))
        let t = try #require(effects.transactions.first)
        let expected = Transaction(
            id: .first, originalID: .first, productID: ProductID("com.x.coin42"), productType: .consumable, quantity: 2,
            userID: nil, state: .purchased, disposition: .queued, date: Timestamp.defaultStart.adding(milliseconds: 1000),
            originalDate: Timestamp.defaultStart.adding(milliseconds: 1000), storefront: "USA", price: Price(milliunits: 990),
            currency: "USD", charged: true)
        #expect(t == expected)
        #expect(effects.events.map(\.name) == ["transactionPurchasing", "transactionPurchased"])
        #expect(effects.events.map(\.seq) == [1, 2])
        #expect(h.state.queue == [expected])
        #expect(h.state.nextTransactionID == TransactionID.first.next)
        #expect(h.state.nextEventSeq == 3)
    }

    @Test("finishing removes from the queue; finishing twice, unknown ids and purchasing ones are refused")
    func finishRules() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.coin42")
        let before = h.state
        try h.apply(.finish([t.id]))
        #expect(h.state.queue.isEmpty)
        #expect(h.archive.transactions[t.id]?.finished == true)
        #expect(before != h.state)
        let after = h.state
        #expect(throws: StoreError.alreadyFinished(t.id)) { try h.apply(.finish([t.id])) }
        #expect(throws: StoreError.unknownTransaction(TransactionID(42))) { try h.apply(.finish([TransactionID(42)])) }
        #expect(h.state == after)
    }

    @Test("finish is all or nothing")
    func finishAtomic() throws {
        var h = MachineHarness()
        let a = try h.buy("com.x.coin42")
        let before = h.state
        #expect(throws: StoreError.unknownTransaction(TransactionID(7))) { try h.apply(.finish([a.id, TransactionID(7)])) }
        #expect(h.state == before)
        #expect(h.state.queue.map(\.id) == [a.id])
    }

    @Test("payments not allowed: a failed transaction with SKError paymentNotAllowed that stays queued")
    func paymentsNotAllowed() throws {
        var h = MachineHarness { $0.paymentsAllowed = false }
        let t = try h.buy("com.x.coin42")
        #expect(t.state == .failed(TransactionError(.paymentNotAllowed)))
        #expect(t.state.error?.code == 4)
        #expect(t.charged == false)
        #expect(h.state.queue.map(\.id) == [t.id])
        try h.apply(.finishAll)
        #expect(h.state.queue.isEmpty)
    }

    @Test("re-buying an owned non-consumable is free and points at the first purchase")
    func rebuyOwned() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.noads")
        let second = try h.buy("com.x.noads")
        #expect(first.charged && !second.charged)
        #expect(second.id != first.id)
        #expect(second.originalID == first.id)
        #expect(second.originalDate == first.date)
        #expect(second.state == .purchased)
    }

    @Test(
        "quantity rules",
        arguments: [
            ("com.x.coin42", 0, StoreError.quantityOutOfRange(0)),
            ("com.x.coin42", 11, StoreError.quantityOutOfRange(11)),
            ("com.x.noads", 2, StoreError.quantityNotAllowed(ProductID("com.x.noads"), .nonConsumable)),
            ("com.x.vip2", 3, StoreError.quantityNotAllowed(ProductID("com.x.vip2"), .autoRenewable)),
            ("com.x.vip1", 2, StoreError.quantityNotAllowed(ProductID("com.x.vip1"), .nonRenewing)),
        ])
    func quantity(id: String, quantity: Int, error: StoreError) {
        var h = MachineHarness()
        #expect(throws: error) { try h.buy(id, quantity: quantity) }
        #expect(h.state == MachineHarness().state)
    }

    @Test("the nonrenewing-quantity setting allows REFERENCE's quantity rule for non-renewing subscriptions")
    func nonRenewingQuantitySetting() throws {
        var h = MachineHarness { $0.nonRenewingQuantity = true }
        #expect(try h.buy("com.x.vip1", quantity: 2).quantity == 2)
    }

    @Test("unknown products are refused with the closest known ids")
    func unknownProduct() {
        var h = MachineHarness()
        #expect(
            throws: StoreError.unknownProduct(
                ProductID("com.x.coin43"),
                closest: [ProductID("com.x.coin42"), ProductID("com.x.coin1386"), ProductID("com.x.coin210")])
        ) {
            try h.buy("com.x.coin43")
        }
        #expect(h.events.isEmpty)
    }

    @Test("restore gives new restored transactions for non-consumables and auto-renewables only")
    func restore() throws {
        var h = MachineHarness()
        let noads = try h.buy("com.x.noads")
        _ = try h.buy("com.x.coin42")
        _ = try h.buy("com.x.vip1")
        let vip = try h.buy("com.x.vip2")
        try h.apply(.finishAll)
        let effects = try h.apply(.restore(user: UserID("u1")))
        let restored = effects.transactions
        #expect(restored.map(\.productID.rawValue) == ["com.x.noads", "com.x.vip2"])
        #expect(restored.map(\.originalID) == [noads.id, vip.id])
        #expect(restored.map(\.originalDate) == [noads.date, vip.date])
        #expect(restored.allSatisfy { $0.state == .restored && !$0.charged && $0.userID == UserID("u1") && !$0.finished })
        #expect(Set(restored.map(\.id)).isDisjoint(with: [noads.id, vip.id]))
        #expect(effects.events.map(\.name) == ["transactionRestored", "transactionRestored", "restoreFinished"])
        #expect(effects.events.last?.kind == .restoreFinished(count: 2, user: UserID("u1")))
    }

    @Test("launch redelivers every unfinished transaction, oldest first")
    func launch() throws {
        var h = MachineHarness()
        let a = try h.buy("com.x.coin42")
        let b = try h.buy("com.x.coin210")
        let c = try h.buy("com.x.coin686")
        try h.apply(.finish([b.id]))
        let effects = try h.apply(.launch)
        #expect(
            effects.events.map(\.kind) == [.appLaunched(unfinished: 2), .transactionRedelivered(a), .transactionRedelivered(c)])
    }

    @Test("products requests list unknown and unpriced ids as invalid")
    func products() throws {
        var h = MachineHarness()
        let (valid, invalid) = h.machine.productsRequest([
            ProductID("com.x.coin42"), ProductID("nope"), ProductID("com.x.coin42"),
        ])
        #expect(valid.map(\.id.rawValue) == ["com.x.coin42"])
        #expect(invalid == [ProductID("nope")])
        try h.apply(.requestProducts([]))
        #expect(h.eventNames == ["productsRequestFinished"])
    }

    @Test("settings are validated and recorded")
    func settings() throws {
        var h = MachineHarness()
        try h.apply(.setSetting(key: "storefront", value: "jpn"))
        #expect(h.state.settings.storefront == "JPN")
        #expect(
            throws: StoreError.badSettingValue(
                key: "storefront", value: "XXX",
                expected:
                    "a storefront code; use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN (all 175: docs/catalog.md)"
            )
        ) {
            try h.apply(.setSetting(key: "storefront", value: "XXX"))
        }
        #expect(throws: StoreError.unknownSetting("storefrnt", suggestion: "storefront")) {
            try h.apply(.setSetting(key: "storefrnt", value: "USA"))
        }
        let t = try h.buy("com.x.coin42")
        #expect(t.currency == "JPY" && t.price == Price(milliunits: 120_000) && t.storefront == "JPN")
    }

    @Test("the same commands give the same state and events (determinism)")
    func determinism() throws {
        func script() throws -> (StoreState, [Event]) {
            var h = MachineHarness()
            _ = try h.buy("com.x.coin42", user: UserID.forAccount("a"))
            _ = try h.buy("com.x.noads")
            try h.apply(.finishAll)
            try h.apply(.restore(user: nil))
            try h.apply(.launch)
            return (h.state, h.events)
        }
        let (s1, e1) = try script()
        let (s2, e2) = try script()
        #expect(s1 == s2)
        #expect(e1 == e2)
        #expect(e1.map { EventJSON.bytes($0) } == e2.map { EventJSON.bytes($0) })
    }
}
