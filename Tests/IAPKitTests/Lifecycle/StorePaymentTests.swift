import IAPKit
import Testing

@testable import IAPTime

@Suite("Store-initiated (promoted) purchases on the state machine")
struct StorePaymentTests {
    static let noads = ProductID("com.x.noads")
    static let user = UserID("u1")

    @Test("accept (StoreKit's default): the payment joins the queue and is bought")
    func accept() throws {
        var h = MachineHarness()
        let e = try h.apply(.promote(Self.noads, user: Self.user))
        #expect(h.names(e) == ["storePaymentAccepted", "transactionPurchasing", "transactionPurchased"])
        let payment = StoredPayment(
            productID: Self.noads, userID: Self.user, quantity: 1, date: Timestamp.defaultStart.adding(milliseconds: 1000))
        #expect(e.events.first?.kind == .storePayment(.accepted, payment))
        #expect(e.transactions.map(\.date) == [payment.date], "one tick: the payment's date is the transaction's")
        #expect(h.state.storedPayments.isEmpty)
    }

    @Test("defer (RMStore): stored until accept-stored, which buys them oldest first")
    func deferAndAccept() throws {
        var h = MachineHarness { $0.storePayments = .defer }
        try h.apply(.promote(Self.noads, user: Self.user))
        try h.apply(.promote(ProductID("com.x.vip2"), user: nil))
        #expect(h.state.storedPayments.map(\.productID.rawValue) == ["com.x.noads", "com.x.vip2"])
        #expect(h.state.queue.isEmpty)
        let e = try h.apply(.acceptStoredPayments)
        #expect(
            h.names(e) == [
                "storedPaymentAccepted", "transactionPurchasing", "transactionPurchased",
                "storedPaymentAccepted", "transactionPurchasing", "transactionPurchased", "subscriptionStarted",
            ])
        #expect(e.transactions.map(\.userID) == [Self.user, nil])
        #expect(h.state.storedPayments.isEmpty)
        #expect(try h.apply(.acceptStoredPayments).events.isEmpty)
    }

    @Test("a stored payment whose product left the storefront fails with storeProductNotAvailable")
    func storefrontChanged() throws {
        var h = MachineHarness { $0.storePayments = .defer }
        try h.apply(.promote(Self.noads, user: nil))
        try h.apply(.setSetting(key: "storefront", value: "GBR"))
        let t = try #require(try h.apply(.acceptStoredPayments).transactions.first)
        #expect(t.state == .failed(TransactionError(.storeProductNotAvailable)))
    }

    @Test("decline (DYFStoreKit): dropped, and the app buys anew unless it cannot pay")
    func decline() throws {
        var h = MachineHarness { $0.storePayments = .decline }
        let e = try h.apply(.promote(Self.noads, user: Self.user))
        #expect(h.names(e) == ["storePaymentDeclined", "transactionPurchasing", "transactionPurchased"])
        var blocked = MachineHarness {
            $0.storePayments = .decline
            $0.paymentsAllowed = false
        }
        let dropped = try blocked.apply(.promote(Self.noads, user: nil))
        #expect(blocked.names(dropped) == ["storePaymentDeclined"])
        #expect(blocked.state.queue.isEmpty && blocked.state.storedPayments.isEmpty)
    }

    @Test("ask to buy applies to an accepted store payment")
    func askToBuy() throws {
        var h = MachineHarness { $0.askToBuy = true }
        let t = try #require(try h.apply(.promote(Self.noads, user: nil)).transactions.first)
        #expect(t.state == .deferred)
    }

    @Test("unknown products are refused, nothing stored")
    func unknown() {
        var h = MachineHarness { $0.storePayments = .defer }
        h.expectRefusal(
            .promote(ProductID("com.x.nope"), user: nil),
            .unknownProduct(
                ProductID("com.x.nope"), closest: [ProductID("com.x.noads"), ProductID("com.x.vip1"), ProductID("com.x.vip2")]))
    }
}
