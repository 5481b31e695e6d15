import IAPKit
import Testing

@Suite("Ask to Buy on the state machine")
struct AskToBuyTests {
    @Test("a payment ends deferred, uncharged, in the queue; it cannot be finished")
    func deferred() throws {
        var h = MachineHarness { $0.askToBuy = true }
        let t = try h.buy("com.x.noads")
        #expect(t.state == .deferred && !t.charged)
        #expect(h.eventNames == ["transactionPurchasing", "transactionDeferred"])
        h.expectRefusal(.finish([t.id]), .cannotFinish(t.id, state: "deferred"))
    }

    @Test("approve: purchased, charged, dated at approval, owned")
    func approve() throws {
        var h = MachineHarness { $0.askToBuy = true }
        let t = try h.buy("com.x.noads")
        let e = try h.apply(.approve(t.id))
        let approved = try #require(e.transactions.first)
        let when = t.date.adding(milliseconds: 1000)
        var expected = t
        expected.state = .purchased
        expected.charged = true
        expected.date = when
        expected.originalDate = when
        #expect(approved == expected)
        #expect(h.names(e) == ["transactionPurchased"])
        #expect(h.state.ownership[t.productID]?.originalID == t.id)
    }

    @Test("decline: failed with the given error, stays queued")
    func decline() throws {
        var h = MachineHarness { $0.askToBuy = true }
        let t = try h.buy("com.x.coin42")
        let e = try h.apply(.decline(t.id, error: TransactionError(.paymentCancelled)))
        #expect(e.transactions.first?.state == .failed(TransactionError(.paymentCancelled)))
        #expect(h.names(e) == ["transactionFailed"])
        #expect(h.state.queue.map(\.id) == [t.id])
        #expect(h.state.ownership.isEmpty)
    }

    @Test("approving or declining anything not deferred is refused (exit 4); unknown ids exit 3")
    func refused() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.coin42")
        h.expectRefusal(
            .approve(t.id),
            .notAllowed(
                "cannot approve transaction \(t.id): it is purchased; only deferred (Ask to Buy) transactions can be approved or declined"
            ))
        h.expectRefusal(
            .decline(t.id, error: TransactionError(.unknown)),
            .notAllowed(
                "cannot decline transaction \(t.id): it is purchased; only deferred (Ask to Buy) transactions can be approved or declined"
            ))
        try h.apply(.finish([t.id]))
        h.expectRefusal(
            .approve(t.id),
            .notAllowed(
                "cannot approve transaction \(t.id): it is finished; only deferred (Ask to Buy) transactions can be approved or declined"
            ))
        h.expectRefusal(.approve(TransactionID(5)), .unknownTransaction(TransactionID(5)))
        #expect(
            StoreError.refused(.storeHasHistory).exitCode == .notAllowed
                && StoreError.unknownTransaction(t.id).exitCode == .notFound)
    }
}
