import Testing

@testable import IAPKit

@Suite("Refunds, delete and clear")
struct RefundAndDeleteTests {
    @Test("refunding a non-consumable sets revocation, un-owns it, and restore leaves it out")
    func refundNonConsumable() throws {
        var h = MachineHarness()
        let noads = try h.buy("com.x.noads")
        try h.apply(.finishAll)
        let effects = try h.apply(.refund(noads.id, reason: 1))
        let t = try #require(effects.transactions.first)
        #expect(t.revocationDate == h.state.clock && t.revocationReason == 1 && t.finished)
        #expect(h.state.ownership.isEmpty)
        #expect(effects.events.map(\.kind) == [.transactionRevoked(t, nil)])
        #expect(effects.events.first?.kind.serverNotification == ServerNotification("REFUND"))
        #expect(try h.apply(.restore(user: nil)).transactions.isEmpty)
        #expect(h.archive.transactions[noads.id] == t)
    }

    @Test("refunding a subscription's current period revokes it: no access, no renewals, not restored")
    func refundSubscription() throws {
        var h = MachineHarness()
        let first = try h.buy("com.x.vip2")
        try h.advance("P4M")
        let current = try #require(h.subscription("com.x.vip2")?.latestID)
        let effects = try h.apply(.refund(current, reason: 0))
        let sub = try #require(h.subscription("com.x.vip2"))
        #expect(sub.status == .revoked(date: h.state.clock, reason: 0) && !sub.autoRenew && !sub.status.grantsAccess)
        #expect(effects.events.first?.kind == .transactionRevoked(effects.transactions[0], sub))
        #expect(h.state.ownership[ProductID("com.x.vip2")] == nil)
        #expect(try h.advance("P1Y").transactions.isEmpty)
        try h.apply(.finishAll)
        let restored = try h.apply(.restore(user: nil)).transactions
        #expect(restored.map(\.originalID) == [first.id])  // the first period, not the refunded one
        // An older period refunded leaves the subscription alone.
        var h2 = MachineHarness()
        let old = try h2.buy("com.x.vip2")
        try h2.advance("P4M")
        try h2.apply(.refund(old.id, reason: 0))
        #expect(h2.subscription("com.x.vip2")?.status == .active)
    }

    @Test("refunds are refused for what was not charged, what is not purchased, twice, and bad reasons")
    func refundRules() throws {
        var h = MachineHarness()
        let trial = try h.buy("com.x.vipmonthly")
        let coin = try h.buy("com.x.coin42")
        let noads = try h.buy("com.x.noads")
        let free = try h.buy("com.x.noads")
        try h.apply(.finishAll)
        let restored = try #require(try h.apply(.restore(user: nil)).transactions.first)
        try h.apply(.refund(coin.id, reason: 0))
        let before = h.state
        let cases: [(Command, Printed)] = [
            (
                .refund(trial.id, reason: 0),
                .notAllowed(
                    "cannot refund transaction \(trial.id): nothing was charged for it (a free trial, a repeat purchase of something owned, or a plan change that waits for the renewal)"
                )
            ),
            (
                .refund(free.id, reason: 0),
                .notAllowed(
                    "cannot refund transaction \(free.id): nothing was charged for it (a free trial, a repeat purchase of something owned, or a plan change that waits for the renewal)"
                )
            ),
            (.refund(coin.id, reason: 0), .notAllowed("transaction \(coin.id) was already refunded on \(h.state.clock)")),
            (
                .refund(restored.id, reason: 0),
                .notAllowed(
                    "cannot refund transaction \(restored.id): it is a restored copy; refund the original purchase \(noads.id)")
            ),
            (.refund(TransactionID(7), reason: 0), .notFound(StoreError.unknownTransaction(TransactionID(7)).description)),
            (.refund(noads.id, reason: 2), .usage("bad refund reason 2; use 0 (other) or 1 (an issue in the app)")),
        ]
        for (command, error) in cases {
            expectThrows(error) { try h.apply(command) }
        }
        #expect(h.state == before)
    }

    @Test("delete hides a transaction everywhere and takes what it gave")
    func delete() throws {
        var h = MachineHarness()
        let noads = try h.buy("com.x.noads")
        let coin = try h.buy("com.x.coin42")
        let effects = try h.apply(.deleteTransaction(noads.id))
        #expect(effects.transactions.map(\.id) == [noads.id] && effects.transactions[0].isDeleted)
        #expect(effects.events.map(\.name) == ["transactionDeleted"])
        #expect(h.state.queue.map(\.id) == [coin.id])
        #expect(h.state.ownership.isEmpty)
        #expect(try h.archive.transaction(noads.id) == nil)
        #expect(throws: StoreError.unknownTransaction(noads.id)) { try h.apply(.finish([noads.id])) }
        #expect(throws: StoreError.unknownTransaction(noads.id)) { try h.apply(.deleteTransaction(noads.id)) }
        #expect(throws: StoreError.unknownTransaction(noads.id)) { try h.apply(.refund(noads.id, reason: 0)) }
        // Buying again is a first purchase, charged.
        #expect(try h.buy("com.x.noads").charged)
    }

    @Test("deleting a subscription's current period removes the subscription; the group is new again")
    func deleteSubscription() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.vipmonthly")
        try h.advance("P2M")
        let current = try #require(h.subscription("com.x.vipmonthly")?.latestID)
        try h.apply(.deleteTransaction(current))
        #expect(h.state.subscriptions.isEmpty && h.state.subscriptionGroups.isEmpty && h.state.ownership.isEmpty)
        #expect(try h.advance("P1Y").transactions.isEmpty)
        #expect(try h.buy("com.x.vipmonthly").offer == .freeTrial)
    }

    @Test("clear deletes every transaction: empty queue, nothing owned, no subscriptions; events and clock stay")
    func clear() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.noads")
        _ = try h.buy("com.x.vip2")
        _ = try h.buy("com.x.vip1")
        try h.advance("P6M")
        try h.apply(.finishAll)
        let clock = h.state.clock
        let effects = try h.apply(.clearTransactions)
        #expect(effects.transactions.count == 5 && effects.transactions.allSatisfy(\.isDeleted))
        #expect(effects.events.map(\.kind) == [.transactionsCleared(count: 5)])
        #expect(
            h.state.queue.isEmpty && h.state.ownership.isEmpty && h.state.subscriptions.isEmpty && h.state.nonRenewing.isEmpty)
        #expect(h.state.clock == clock)
        #expect(try h.apply(.restore(user: nil)).transactions.isEmpty)
        #expect(try h.apply(.clearTransactions).events.map(\.kind) == [.transactionsCleared(count: 0)])
    }
}
