import IAPKit
import Testing

@Suite("Interrupted purchases and fail-transactions on the state machine")
struct InterruptedPurchaseTests {
    @Test("a payment fails as interrupted and waits for resolve")
    func interrupted() throws {
        var h = MachineHarness { $0.interruptedPurchases = true }
        let t = try h.buy("com.x.coin42", user: UserID("u"), quantity: 2)
        #expect(t.state == .failed(TransactionError(.paymentCancelled)))
        #expect(
            h.state.interruptedPurchases == [
                InterruptedPurchase(transactionID: t.id, productID: t.productID, userID: UserID("u"), quantity: 2)
            ])
    }

    @Test("resolve completes it with a new purchased transaction; the failed one stays as it was")
    func resolve() throws {
        var h = MachineHarness { $0.interruptedPurchases = true }
        let t = try h.buy("com.x.noads")
        try h.apply(.finish([t.id]))
        try h.apply(.setSetting(key: "interrupted-purchases", value: "false"))
        let e = try h.apply(.resolve(t.id))
        let resolved = try #require(e.transactions.first)
        #expect(h.names(e) == ["interruptedPurchaseResolved", "transactionPurchased"])
        #expect(e.events.first?.kind == .interruptedPurchaseResolved(original: t.id, resolved: resolved.id))
        #expect(resolved.id != t.id && resolved.state == .purchased && resolved.charged)
        #expect(h.transaction(t.id)?.state == .failed(TransactionError(.paymentCancelled)))
        #expect(h.state.interruptedPurchases.isEmpty)
        #expect(h.state.ownership[resolved.productID]?.originalID == resolved.id)
    }

    @Test("resolving twice, something else, or an unknown id is refused")
    func refused() throws {
        var h = MachineHarness { $0.interruptedPurchases = true }
        let t = try h.buy("com.x.noads")
        try h.apply(.resolve(t.id))
        h.expectRefusal(
            .resolve(t.id),
            .notAllowed(
                "nothing to resolve for transaction \(t.id): it is failed (paymentCancelled), not an interrupted purchase waiting to be resolved"
            ))
        let resolved = h.state.queue.last!
        h.expectRefusal(
            .resolve(resolved.id),
            .notAllowed(
                "nothing to resolve for transaction \(resolved.id): it is purchased, not an interrupted purchase waiting to be resolved"
            ))
        h.expectRefusal(.resolve(TransactionID(3)), .unknownTransaction(TransactionID(3)))
    }

    @Test("fail-transactions fails every payment with its error; faults come first")
    func failTransactions() throws {
        var h = MachineHarness { $0.failTransactions = TransactionError(.unknown) }
        #expect(try h.buy("com.x.coin42").state == .failed(TransactionError(.unknown)))
        try h.apply(.addFault(.purchase, TransactionError(.paymentInvalid), count: 1, product: nil))
        #expect(try h.buy("com.x.coin42").state == .failed(TransactionError(.paymentInvalid)))
        #expect(h.state.interruptedPurchases.isEmpty)
    }
}
