import Testing

@testable import IAPKit
@testable import IAPTime

/// Family Sharing on the state machine: members, shared FAMILY_SHARED transactions, renewals,
/// revocations, and the family surviving the store's binary state.
@Suite("Family Sharing on the state machine")
struct FamilyTests {
    static func product(_ id: String, _ type: ProductType, shareable: Bool) -> Product {
        Product(
            id: ProductID(id), type: type, referenceName: id, localizations: [.init(locale: "en_US", title: id, description: id)],
            prices: [.init(storefront: "USA", price: Price(decimal: "4.99")!)],
            subscriptionPeriod: type == .autoRenewable ? SubscriptionPeriod(iso8601: "P1M") : nil,
            subscriptionGroup: type == .autoRenewable ? "g" : nil, groupLevel: type == .autoRenewable ? 1 : nil,
            familyShareable: shareable)
    }

    static let catalog = Catalog(products: [
        product("shared.unlock", .nonConsumable, shareable: true),
        product("own.unlock", .nonConsumable, shareable: false),
        product("shared.monthly", .autoRenewable, shareable: true),
        product("shared.season", .nonRenewing, shareable: true),
    ])

    static func harness() -> MachineHarness { MachineHarness(catalog: catalog) }

    /// Buys `id` and returns the purchaser's transaction (the payment's outcome: the members'
    /// copies come after it in the effects).
    func buy(_ h: inout MachineHarness, _ id: String) throws -> Transaction {
        let effects = try h.apply(.buy(ProductID(id), user: nil, quantity: 1))
        guard case .payment(let p) = effects.outcome else { throw HarnessError("no payment") }
        return p.transaction
    }

    /// The state survives its binary delta: what the store would load back.
    static func reloaded(_ state: StoreState) -> StoreState? {
        var w = ByteWriter()
        StateDeltaCodec.encode(from: nil, to: state, into: &w)
        var s = StateDeltaCodec.base
        let ok = w.bytes.withUnsafeBytes { raw -> Bool in
            var r = ByteReader(raw)
            return StateDeltaCodec.apply(from: &r, to: &s)
        }
        guard ok else { return nil }
        s.replaceQueue(with: state.queue)
        return s
    }

    @Test("a shareable purchase gives each member a FAMILY_SHARED transaction of its own; a member added later gets it too")
    func sharing() throws {
        var h = Self.harness()
        try h.apply(.family(.add("alex")))
        let bought = try buy(&h, "shared.unlock")
        _ = try buy(&h, "own.unlock")
        let alex = try #require(h.state.family?.shares.first)
        var expected = Transaction(
            id: bought.id.next, originalID: bought.id.next, productID: ProductID("shared.unlock"), productType: .nonConsumable,
            quantity: 1, userID: nil, state: .purchased, disposition: .finished, date: bought.date, originalDate: bought.date,
            storefront: "USA", price: Price(decimal: "4.99")!, currency: "USD", charged: false)
        expected.familyMember = "alex"
        #expect(alex.latest == expected)
        #expect(alex.latest.inAppOwnershipType == "FAMILY_SHARED" && bought.inAppOwnershipType == "PURCHASED")
        #expect(alex.purchaserOriginalID == bought.id && alex.purchaserLatestID == bought.id)
        // Not in the account's payment queue: the member's device is not simulated.
        #expect(h.state.queue.map(\.id) == [bought.id, TransactionID(bought.id.rawValue + 2)])
        #expect(h.state.queue.allSatisfy { $0.familyMember == nil })
        let effects = try h.apply(.family(.add("sam")))
        #expect(h.names(effects) == ["familyMemberAdded", "familyTransactionShared"])
        guard case .family(let result) = effects.outcome else { Issue.record("\(effects.outcome)"); return }
        #expect(result.shared.map(\.familyMember) == ["sam"] && result.shared[0].productID == ProductID("shared.unlock"))
        #expect(result.shared[0].id > alex.latest.id && result.shared[0].date == h.state.clock)
        let family = try #require(h.state.family)
        #expect(family.members.map(\.name) == ["alex", "sam"])
        #expect(family.shares.map(\.member) == ["alex", "sam"])
        #expect(Self.reloaded(h.state) == h.state)
    }

    @Test("renewals of the purchaser renew each member's share: a new id, the member's original id kept")
    func renewals() throws {
        var h = Self.harness()
        try h.apply(.family(.add("alex")))
        let first = try buy(&h, "shared.monthly")
        let original = try #require(h.state.family?.shares.first?.latest)
        #expect(original.originalID == original.id && original.expiresDate == first.expiresDate)
        try h.advance("P1M", times: 2)
        let share = try #require(h.state.family?.shares.first)
        #expect(share.latest.originalID == original.id && share.latest.reason == .renewal)
        #expect(share.latest.expiresDate == h.state.subscriptions[first.id]?.expiresDate)
        #expect(share.purchaserLatestID == h.state.subscriptions[first.id]?.latestID)
        #expect(h.eventNames.filter { $0 == "familyTransactionShared" }.count == 3)
        // Each member renewal right after the renewal it follows, dated with it.
        let last = Array(h.events.suffix(5))
        #expect(
            last.map(\.name) == [
                "subscriptionRenewed", "familyTransactionShared", "subscriptionRenewed", "familyTransactionShared",
                "clockAdvanced",
            ])
        #expect(last[0].date == last[1].date && last[2].date == last[3].date && last[1].date < last[3].date)
        #expect(Self.reloaded(h.state) == h.state)
    }

    @Test("a refund of the purchase, or the member leaving, revokes with REVOKE and the right revocationReason")
    func revocations() throws {
        var h = Self.harness()
        try h.apply(.family(.add("alex")))
        try h.apply(.family(.add("sam")))
        let unlock = try buy(&h, "shared.unlock")
        _ = try buy(&h, "shared.monthly")
        let refund = try h.apply(.refund(unlock.id, reason: 1))
        let revoked = refund.events.compactMap { e -> Transaction? in
            if case .family(.transactionRevoked(let t)) = e.kind { return t }
            return nil
        }
        #expect(revoked.map(\.familyMember) == ["alex", "sam"])
        #expect(revoked.allSatisfy { $0.revocationReason == 1 && $0.revocationDate == h.state.clock })
        #expect(refund.events.compactMap(\.kind.serverNotification?.type) == ["REFUND", "REVOKE", "REVOKE"])
        #expect(h.state.family?.shares.map(\.latest.productID.rawValue) == ["shared.monthly", "shared.monthly"])
        let leave = try h.apply(.family(.remove("alex")))
        #expect(h.names(leave) == ["familyTransactionRevoked", "familyMemberRemoved"])
        guard case .family(let result) = leave.outcome else { Issue.record("\(leave.outcome)"); return }
        #expect(result.revoked.count == 1 && result.revoked[0].revocationReason == 0)
        #expect(h.state.family?.members.map(\.name) == ["sam"])
        #expect(h.state.family?.shares.map(\.member) == ["sam"])
        #expect(Self.reloaded(h.state) == h.state)
    }

    @Test("bad names, duplicates, unknown members and a member's own copy are refused, state unchanged")
    func refusals() throws {
        var h = Self.harness()
        h.expectRefusal(.family(.remove("alex")), .family(.noFamily("alex")))
        h.expectRefusal(.family(.add("bad name")), .family(.badName("bad name")))
        h.expectRefusal(.family(.add("")), .family(.badName("")))
        try h.apply(.family(.add("alex")))
        h.expectRefusal(.family(.add("alex")), .family(.duplicate("alex")))
        h.expectRefusal(.family(.remove("alx")), .family(.unknownMember("alx", known: ["alex"])))
        #expect(StoreError.family(.unknownMember("alx", known: ["alex"])).description.contains("did you mean 'alex'?"))
        for name in ["b", "c", "d", "e"] { try h.apply(.family(.add(name))) }
        h.expectRefusal(.family(.add("f")), .family(.full("f")))
        let unlock = try buy(&h, "shared.unlock")
        let copy = try #require(h.state.family?.shares.first?.latest)
        h.expectRefusal(
            .refund(copy.id, reason: 0), .family(.memberTransaction(copy.id, member: "alex", purchaser: unlock.id)))
        h.expectRefusal(
            .deleteTransaction(copy.id), .family(.memberTransaction(copy.id, member: "alex", purchaser: unlock.id)))
    }

    @Test("a member's own purchase: PURCHASED, charged, next to its FAMILY_SHARED copy, which a refund still revokes")
    func memberOwnPurchase() throws {
        var h = Self.harness()
        try h.apply(.family(.add("alex")))
        let unlock = try buy(&h, "shared.unlock")
        let effects = try h.apply(.family(.buy(ProductID("shared.unlock"), member: "alex")))
        guard case .payment(.purchased(let own)) = effects.outcome else { Issue.record("\(effects.outcome)"); return }
        #expect(own.familyMember == "alex" && own.isMemberPurchase && own.charged && own.inAppOwnershipType == "PURCHASED")
        #expect(own.originalID == own.id && own.disposition == .finished)
        #expect(h.names(effects) == ["familyMemberPurchased"])
        #expect(effects.events.compactMap(\.kind.serverNotification?.type) == ["ONE_TIME_CHARGE"])
        // Not a purchase of the account: nothing new shared, the account's queue unchanged.
        #expect(h.state.family?.shares.count == 1 && h.state.queue.map(\.id) == [unlock.id])
        let refund = try h.apply(.refund(unlock.id, reason: 0))
        #expect(h.names(refund) == ["transactionRevoked", "familyTransactionRevoked"])
        #expect(h.transaction(own.id)?.revocationDate == nil)
        h.expectRefusal(
            .family(.buy(ProductID("shared.season"), member: "alex")),
            .family(.memberSubscription(ProductID("shared.season"), member: "alex")))
        #expect(Self.reloaded(h.state) == h.state)
    }

    @Test(
        "a member's own subscription: PURCHASED beside its FAMILY_SHARED copy, one period, not the account's, kept on refund and leaving"
    )
    func memberOwnSubscription() throws {
        var h = Self.harness()
        try h.apply(.family(.add("alex")))
        let monthly = try buy(&h, "shared.monthly")
        let shared = try #require(h.state.family?.shares.first?.latest)
        let before = h.state
        let effects = try h.apply(.family(.buy(ProductID("shared.monthly"), member: "alex")))
        guard case .payment(.purchased(let own)) = effects.outcome else { Issue.record("\(effects.outcome)"); return }
        #expect(own.familyMember == "alex" && own.isMemberPurchase && own.charged && own.inAppOwnershipType == "PURCHASED")
        #expect(own.originalID == own.id && own.id > shared.id && own.disposition == .finished)
        #expect(own.expiresDate == SubscriptionPeriod(iso8601: "P1M")!.advance(h.state.clock))
        #expect(own.webOrderLineItemID == before.nextWebOrderLineItemID)
        #expect(h.names(effects) == ["familyMemberPurchased"])
        let notes = effects.events.compactMap(\.kind.serverNotification)
        #expect(notes.map(\.type) == ["SUBSCRIBED"] && notes.map(\.subtype) == ["INITIAL_BUY"])
        // Whole state: only the counters moved; the account's subscriptions, groups, queue and
        // the family's shares are as before (the member's subscription takes no account slot).
        var expected = before
        expected.clock = own.date  // the machine's clock step
        expected.nextTransactionID = own.id.next
        expected.nextWebOrderLineItemID = before.nextWebOrderLineItemID + 1
        expected.nextEventSeq = h.state.nextEventSeq
        #expect(h.state == expected)
        #expect(h.transaction(own.id) == own && h.transaction(shared.id) == shared)
        // The purchaser's refund revokes the shared copy only; leaving revokes nothing of its own.
        let refund = try h.apply(.refund(monthly.id, reason: 1))
        #expect(h.names(refund) == ["transactionRevoked", "familyTransactionRevoked"])
        #expect(h.transaction(shared.id)?.revocationDate != nil && h.transaction(own.id) == own)
        try h.apply(.family(.remove("alex")))
        #expect(h.transaction(own.id) == own)
        #expect(Self.reloaded(h.state) == h.state)
    }
}
