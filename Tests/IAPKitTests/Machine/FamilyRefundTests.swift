import Testing

@testable import IAPKit
@testable import IAPTime

/// The family through the purchaser's refunds and deletions: a reversed refund clears the
/// members' revocations, a refund of an older period leaves the members' current copies, and
/// `delete` takes the members' copies with the purchaser's transaction (docs/family.md).
@Suite("Family Sharing through refunds, reversals and deletions")
struct FamilyRefundTests {
    static func harness(members: [String] = ["alex", "sam"]) throws -> MachineHarness {
        var h = FamilyTests.harness()
        for m in members { try h.apply(.family(.add(m))) }
        return h
    }

    static func buy(_ h: inout MachineHarness, _ id: String) throws -> Transaction {
        let effects = try h.apply(.buy(ProductID(id), user: nil, quantity: 1))
        guard case .payment(let p) = effects.outcome else { throw HarnessError("no payment") }
        return p.transaction
    }

    static func family(_ effects: Effects) -> [(name: String, transaction: Transaction?)] {
        effects.events.compactMap { e in
            guard case .family(let change) = e.kind else { return nil }
            return (change.name, change.transaction)
        }
    }

    @Test("refund reverse of a shared non-consumable clears each member's revocation on the same transaction")
    func reverseNonConsumable() throws {
        var h = try Self.harness()
        let unlock = try Self.buy(&h, "shared.unlock")
        let before = try #require(h.state.family?.shares)
        try h.apply(.refund(unlock.id, reason: 1))
        #expect(h.state.family?.shares.isEmpty == true)
        // A member who joins while the purchase is refunded gets nothing; at the reversal it
        // gets a copy dated then, as a member joining gets what the account has.
        try h.apply(.family(.add("kim")))
        try h.advance("P1D")
        let reverse = try h.apply(.refundRequest(.reverse(unlock.id)))
        let changes = Self.family(reverse)
        #expect(changes.map(\.name) == ["familyRevocationCleared", "familyRevocationCleared", "familyTransactionShared"])
        #expect(changes.prefix(2).map { $0.transaction?.id } == before.map(\.latest.id))
        #expect(changes.allSatisfy { $0.transaction?.revocationDate == nil && $0.transaction?.revocationReason == nil })
        #expect(changes[2].transaction?.familyMember == "kim" && changes[2].transaction?.date == h.state.clock)
        // The shares resume with the same transactions; the copies are as before the refund.
        let after = try #require(h.state.family?.shares)
        #expect(after.map(\.member) == ["alex", "sam", "kim"])
        #expect(Array(after.prefix(2)) == before)
        #expect(h.transaction(before[0].latest.id) == before[0].latest)
        // Only the purchaser's REFUND_REVERSED is notified: Apple documents none for a member.
        #expect(reverse.events.compactMap(\.kind.serverNotification?.type) == ["REFUND_REVERSED"])
        #expect(FamilyTests.reloaded(h.state) == h.state)
    }

    @Test("refund reverse of a subscription's current period resumes the members' shares, which renew again")
    func reverseSubscription() throws {
        var h = try Self.harness(members: ["alex"])
        let sub = try Self.buy(&h, "shared.monthly")
        let copy = try #require(h.state.family?.shares.first?.latest)
        try h.apply(.refund(sub.id, reason: 0))
        let reverse = try h.apply(.refundRequest(.reverse(sub.id)))
        #expect(Self.family(reverse).map(\.name) == ["familyRevocationCleared"])
        #expect(h.state.family?.shares.map(\.latest) == [copy])
        let renewal = try h.advance("P1M")
        let renewed = Self.family(renewal)
        #expect(renewed.map(\.name) == ["familyTransactionShared"])
        #expect(renewed.first?.transaction?.originalID == copy.id && renewed.first?.transaction?.reason == .renewal)
        #expect(FamilyTests.reloaded(h.state) == h.state)
    }

    @Test("refund reverse after the refunded period is over: the subscription is expired, the members' copies stay revoked")
    func reverseAfterThePeriod() throws {
        var h = try Self.harness(members: ["alex"])
        let sub = try Self.buy(&h, "shared.monthly")
        let copy = try #require(h.state.family?.shares.first?.latest)
        try h.apply(.refund(sub.id, reason: 0))
        try h.advance("P2M")
        let reverse = try h.apply(.refundRequest(.reverse(sub.id)))
        #expect(Self.family(reverse).isEmpty, "\(h.names(reverse))")
        #expect(h.state.family?.shares.isEmpty == true)
        #expect(h.transaction(copy.id)?.revocationDate != nil)
        // No new copy of the reversed period either (it was the share's, dated in the past).
        #expect(reverse.transactions.allSatisfy { $0.familyMember == nil })
    }

    @Test("a refund of an older period leaves the subscription and the members' current copies; the current period's revokes")
    func olderPeriodRefund() throws {
        var h = try Self.harness(members: ["alex"])
        let first = try Self.buy(&h, "shared.monthly")
        try h.advance("P1M")
        let share = try #require(h.state.family?.shares.first)
        #expect(share.purchaserLatestID != first.id)
        let older = try h.apply(.refund(first.id, reason: 1))
        #expect(h.names(older) == ["transactionRevoked"])
        #expect(h.state.family?.shares == [share])
        #expect(h.state.subscriptions[first.id]?.status == .active)
        let current = try h.apply(.refund(share.purchaserLatestID, reason: 1))
        #expect(Self.family(current).map(\.name) == ["familyTransactionRevoked"])
        #expect(Self.family(current).first?.transaction?.id == share.latest.id)
        #expect(h.state.family?.shares.isEmpty == true)
    }

    @Test("delete of the purchaser's transaction deletes the members' copies of it, as if it never happened")
    func deletions() throws {
        var h = try Self.harness()
        let unlock = try Self.buy(&h, "shared.unlock")
        let copies = try #require(h.state.family?.shares.map(\.latest))
        let delete = try h.apply(.deleteTransaction(unlock.id))
        #expect(Self.family(delete).map(\.name) == ["familyTransactionDeleted", "familyTransactionDeleted"])
        #expect(copies.allSatisfy { h.transaction($0.id)?.isDeleted == true })
        #expect(h.state.family?.shares.isEmpty == true && h.state.family?.members.count == 2)
        #expect(delete.events.compactMap(\.kind.serverNotification?.type).isEmpty)

        // A subscription: deleting a period between the first and the current deletes the
        // members' copies of that period only; deleting the current period removes the
        // subscription (Xcode's delete) and so the shares.
        _ = try Self.buy(&h, "shared.monthly")
        try h.advance("P1M")
        let middle = try #require(h.state.family?.shares)
        try h.advance("P1M")
        let renewals = try #require(h.state.family?.shares)
        let older = try h.apply(.deleteTransaction(middle[0].purchaserLatestID))
        #expect(Self.family(older).map { $0.transaction?.id } == middle.map(\.latest.id))
        #expect(h.state.family?.shares == renewals)
        let current = try h.apply(.deleteTransaction(renewals[0].purchaserLatestID))
        #expect(Self.family(current).map { $0.transaction?.id } == renewals.map(\.latest.id))
        #expect(h.state.family?.shares.isEmpty == true && h.state.subscriptions.isEmpty)
        #expect(FamilyTests.reloaded(h.state) == h.state)
    }
}
