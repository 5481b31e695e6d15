import IAPTime

/// Family Sharing: members joining and leaving, the account's family-shareable purchases
/// shared with each of them, and the revocations (REVOKE, `revocationType` FAMILY_REVOKE).
extension Machine {
    mutating func applyFamily(_ request: FamilyRequest, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        switch request {
        case .add(let name): try addMember(name, archive: archive, into: &effects)
        case .remove(let name): try removeMember(name, into: &effects)
        case .buy(let id, let member): try memberBuy(id, member: member, into: &effects)
        }
    }

    /// A member buys a consumable, non-consumable or auto-renewable subscription for itself. Apple keeps a member's own
    /// purchases apart from what the family shares ("each family member gets their own unique
    /// receipts and transactions"; for subscriptions, `Product.SubscriptionInfo.status` "can have
    /// more than one subscription status if your subscription supports Family Sharing. Provide
    /// the customer with service ... based on the highest level of service"), so the purchase is
    /// a new PURCHASED transaction of the member, charged, next to the FAMILY_SHARED one it may
    /// already have, which stays (and is still revoked if the family's purchase is). A member's own
    /// subscription is one period with auto-renew off (iapctl does not renew it; docs/family.md),
    /// notified SUBSCRIBED INITIAL_BUY; its status is what its dates say.
    private mutating func memberBuy(_ id: ProductID, member: String, into effects: inout Effects) throws(StoreError) {
        try state.checkMember(member)
        let product = try sellable(id)
        guard product.type != .nonRenewing, product.type != .autoRenewable || product.subscriptionPeriod != nil else {
            throw .family(.memberSubscription(id, member: member))
        }
        tickRunningDue(into: &effects)
        var t = newTransaction(product, user: nil, quantity: 1, state: .purchased)
        t.disposition = .finished
        if product.type == .autoRenewable, let period = product.subscriptionPeriod {
            // The member's own subscription: one period, auto-renew off (docs/family.md). It is
            // not the account's, so it takes no slot in `state.subscriptions` or the group.
            t.expiresDate = period.advance(t.date, times: 1)
            t.webOrderLineItemID = state.nextWebOrderLineItemID
            state.nextWebOrderLineItemID += 1
        }
        t.charged = true
        t.familyMember = member
        t.isMemberPurchase = true
        record(t, into: &effects)
        emit(.family(.memberPurchased(t)), into: &effects)
        effects.outcome = .payment(.purchased(t))
    }

    /// A member joins and gets every family-shareable purchase the account has now: Apple shares
    /// existing purchases with a new member ("Users can also choose whether to share their
    /// purchases with family"; a member who joins sees the organizer's shared purchases), each as
    /// a FAMILY_SHARED transaction of the member's own, dated when it joined.
    private mutating func addMember(_ name: String, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        guard Family.isValidName(name) else { throw .family(.badName(name)) }
        var family = state.familyGroup
        guard family.member(named: name) == nil else { throw .family(.duplicate(name)) }
        guard family.members.count < Family.maximumMembers else { throw .family(.full(name)) }
        family.members.append(Family.Member(name: name, joined: state.clock))
        state.familyGroup = family
        emit(.family(.memberAdded(name)), into: &effects)
        var shared: [Transaction] = []
        for purchase in try shareablePurchases(archive: archive) {
            shared.append(share(purchase, with: name, date: state.clock, into: &effects))
        }
        effects.outcome = .family(FamilyResult(member: name, added: true, shared: shared, revoked: []))
    }

    /// A member leaves: each of its shared transactions is revoked (revocationReason 0: "the
    /// revocation reason value is 0 if the customer leaves the family group or the owner stops
    /// sharing", App Store Server API, revocationReason), then it is removed.
    private mutating func removeMember(_ name: String, into effects: inout Effects) throws(StoreError) {
        try state.checkMember(name)
        let revoked = revokeShares(reason: 0, into: &effects) { $0.member == name }
        var family = state.familyGroup
        family.members.removeAll { $0.name == name }
        state.familyGroup = family
        emit(.family(.memberRemoved(name)), into: &effects)
        effects.outcome = .family(FamilyResult(member: name, added: false, shared: [], revoked: revoked))
    }

    /// What the account has now that a family can share: each owned family-shareable
    /// non-consumable (its original purchase) and the current period of each family-shareable
    /// subscription that gives access (active or in its grace period), in original id order.
    private func shareablePurchases(archive: some TransactionArchive) throws(StoreError) -> [Transaction] {
        var out: [Transaction] = []
        for (productID, owned) in state.ownership {
            guard let product = catalog[productID], product.familyShareable, product.type == .nonConsumable,
                let t = try visibleTransaction(owned.originalID, archive: archive), t.revocationDate == nil
            else { continue }
            out.append(t)
        }
        for sub in state.subscriptions.values {
            guard let product = catalog[sub.productID], product.familyShareable else { continue }
            switch sub.status {
            case .active, .inGracePeriod: break
            case .inBillingRetry, .expired, .revoked: continue
            }
            guard sub.expiresDate > state.clock, let t = try visibleTransaction(sub.latestID, archive: archive),
                t.revocationDate == nil
            else { continue }
            out.append(t)
        }
        return out.sorted { $0.originalID < $1.originalID }
    }

    /// A new FAMILY_SHARED transaction for `member` mirroring the purchaser's `purchase`: a new id,
    /// which is also its original id (the member's own), no charge, no user or offer of the
    /// purchaser's, the purchase's expiry and billing period; delivered and finished (the
    /// member's device is not simulated).
    @discardableResult
    private mutating func share(_ purchase: Transaction, with member: String, date: Timestamp, into effects: inout Effects)
        -> Transaction
    {
        let id = state.nextTransactionID
        state.nextTransactionID = id.next
        var t = memberCopy(of: purchase, id: id, originalID: id, originalDate: date, date: date, reason: .purchase)
        t.familyMember = member
        record(t, into: &effects)
        emit(.family(.transactionShared(t)), into: &effects)
        var family = state.familyGroup
        family.shares.append(
            Family.Share(member: member, purchaserOriginalID: purchase.originalID, purchaserLatestID: purchase.id, latest: t))
        state.familyGroup = family
        return t
    }

    private func memberCopy(
        of p: Transaction, id: TransactionID, originalID: TransactionID, originalDate: Timestamp, date: Timestamp,
        reason: Transaction.Reason
    ) -> Transaction {
        var t = Transaction(
            id: id, originalID: originalID, productID: p.productID, productType: p.productType, quantity: 1, userID: nil,
            state: .purchased, disposition: .finished, date: date, originalDate: originalDate, storefront: p.storefront,
            price: p.price, currency: p.currency, charged: false, expiresDate: p.expiresDate,
            webOrderLineItemID: p.webOrderLineItemID, reason: reason, subscriptionGroup: p.subscriptionGroup)
        t.familyMember = p.familyMember
        return t
    }

    /// Revokes the shares `matching` accepts, in order: each member's latest shared transaction
    /// gets `revocationDate` now and `revocationReason`, and the share ends.
    @discardableResult
    private mutating func revokeShares(reason: Int, into effects: inout Effects, matching: (Family.Share) -> Bool)
        -> [Transaction]
    {
        var family = state.familyGroup
        var revoked: [Transaction] = []
        var kept: [Family.Share] = []
        for share in family.shares {
            guard matching(share) else {
                kept.append(share)
                continue
            }
            var t = share.latest
            t.revocationDate = state.clock
            t.revocationReason = reason
            revoked.append(t)
        }
        family.shares = kept
        state.familyGroup = family
        for t in revoked {
            record(t, into: &effects)
            emit(.family(.transactionRevoked(t)), into: &effects)
        }
        return revoked
    }

    /// `refund reverse` of the purchaser's `p` (its revocation already cleared): "refunds may be
    /// reversed in some scenarios, in which case these fields will be removed from the
    /// transaction and you should re-enable this content once more" (Apple, developer forums
    /// thread 757986, on revocationDate and revocationReason), so once the purchaser has the
    /// entitlement again (the non-consumable owned, the subscription's current period active)
    /// each member copy this refund revoked has its revocation cleared too and the share resumes
    /// (same transaction id, no new transaction). A member that joined after the refund gets a new
    /// copy dated now, as a member joining gets what the account has. The refund's members' copies
    /// are found after `p` in id order with the refund's revocation date (`refunded`). Returns
    /// the family changes, in order.
    mutating func reinstateShares(
        of p: Transaction, refunded: Timestamp, archive: some TransactionArchive, into effects: inout Effects
    ) throws(StoreError) -> [FamilyChange] {
        guard let family = state.family, !family.members.isEmpty, let product = catalog[p.productID],
            product.familyShareable, p.state == .purchased
        else { return [] }
        switch p.productType {
        case .nonConsumable:
            guard state.ownership[p.productID]?.originalID == p.originalID else { return [] }
        case .autoRenewable:
            guard let sub = state.subscriptions[p.originalID], sub.latestID == p.id, sub.expiresDate > state.clock else {
                return []
            }
            switch sub.status {
            case .active, .inGracePeriod: break
            case .inBillingRetry, .expired, .revoked: return []
            }
        case .consumable, .nonRenewing:
            return []
        }
        var changes: [FamilyChange] = []
        var revoked: [String: Transaction] = [:]
        var id = p.id.next
        while id < state.nextTransactionID {
            if let t = try visibleTransaction(id, archive: archive), let member = t.familyMember, !t.isMemberPurchase,
                t.productID == p.productID, t.revocationDate == refunded
            {
                revoked[member] = t
            }
            id = id.next
        }
        for member in family.members {
            guard
                !state.familyGroup.shares.contains(where: { $0.member == member.name && $0.purchaserOriginalID == p.originalID })
            else { continue }
            guard var t = revoked[member.name] else {
                changes.append(.transactionShared(share(p, with: member.name, date: state.clock, into: &effects)))
                continue
            }
            t.revocationDate = nil
            t.revocationReason = nil
            t.expiresDate = p.expiresDate
            record(t, into: &effects)
            emit(.family(.revocationCleared(t)), into: &effects)
            changes.append(.revocationCleared(t))
            var group = state.familyGroup
            group.shares.append(
                Family.Share(member: member.name, purchaserOriginalID: p.originalID, purchaserLatestID: p.id, latest: t))
            state.familyGroup = group
        }
        return changes
    }

    /// `delete` of the purchaser's `p` (Xcode's deleteTransaction: as if it never happened):
    /// the members' copies of it go too, each a tombstone like the purchaser's, and the shares
    /// that mirrored it end (a subscription's whole share when deleting `p` removed the
    /// subscription). A member's copies of `p` are found after it in id order: the same product
    /// and, for a subscription, the same `webOrderLineItemId` (each copy carries the period's).
    /// Returns the members' tombstones, in id order.
    mutating func deleteShares(
        of p: Transaction, subscriptionRemoved: Bool, archive: some TransactionArchive, into effects: inout Effects
    ) throws(StoreError) -> [Transaction] {
        guard let family = state.family, p.familyMember == nil, catalog[p.productID]?.familyShareable == true,
            p.productType == .nonConsumable || p.productType == .autoRenewable
        else { return [] }
        var deleted: [Transaction] = []
        var id = p.id.next
        scan: while id < state.nextTransactionID {
            defer { id = id.next }
            guard let t = try visibleTransaction(id, archive: archive), t.productID == p.productID else { continue }
            guard t.familyMember != nil else {
                // A new purchase of the non-consumable by the account: later copies are its.
                if p.productType == .nonConsumable, t.originalID != p.originalID { break scan }
                continue
            }
            if !t.isMemberPurchase, p.productType == .nonConsumable || t.webOrderLineItemID == p.webOrderLineItemID {
                deleted.append(t)
            }
        }
        let tombstones = deleted.map(\.deleted)
        for t in tombstones {
            record(t, into: &effects)
            emit(.family(.transactionDeleted(t)), into: &effects)
        }
        var group = family
        group.shares.removeAll { share in
            guard share.purchaserOriginalID == p.originalID else { return false }
            return p.productType == .nonConsumable || subscriptionRemoved || share.purchaserLatestID == p.id
        }
        state.familyGroup = group
        return tombstones
    }

    /// Keeps the family in step with what this apply did to the account's transactions (run at
    /// the end of every apply): a new family-shareable purchase is shared with every member; a
    /// renewal (or an upgrade in the group) of a shared subscription renews each member's share
    /// with a new transaction of the member's original id; a change of the current period's
    /// expiry (expire, renew now) follows; a refund of the purchase or of the current period
    /// revokes the shares ("the revocation reason for Family Sharing transactions matches the
    /// value of the purchaser's revocation reason", App Store Server API, revocationReason).
    mutating func shareWithFamily(into effects: inout Effects) {
        guard let family = state.family, !family.members.isEmpty else { return }
        let changed = effects.transactions.filter { $0.familyMember == nil && !$0.isMemberPurchase }.sorted { $0.id < $1.id }
        let reversed = Set(
            effects.events.compactMap { e -> TransactionID? in
                guard case .life(.refundReversed(let t, _)) = e.kind else { return nil }
                return t.id
            })
        var changes: [FamilyChange] = []
        defer { effects.outcome.addFamily(changes) }
        for p in changed {
            guard let product = catalog[p.productID], product.familyShareable, !p.isDeleted, p.state == .purchased,
                p.productType == .nonConsumable || p.productType == .autoRenewable
            else { continue }
            if p.revocationDate != nil {
                // Only what the account loses is revoked: a non-consumable's refund, or the
                // current period's, which revokes the subscription (`Machine.refund`); a refund
                // of an older period leaves the subscription, and the members' current copies.
                let revoked = revokeShares(reason: p.revocationReason ?? 0, into: &effects) {
                    $0.purchaserOriginalID == p.originalID && (p.productType == .nonConsumable || $0.purchaserLatestID == p.id)
                }
                changes += revoked.map(FamilyChange.transactionRevoked)
                continue
            }
            // A reversed refund resumed its shares itself (`reinstateShares`); one that gave the
            // account nothing back (the period is over) shares nothing either.
            if reversed.contains(p.id) { continue }
            for member in state.familyGroup.members {
                var group = state.familyGroup
                guard
                    let i = group.shares.firstIndex(where: { $0.member == member.name && $0.purchaserOriginalID == p.originalID })
                else {
                    // Not shared yet: a first purchase (a repeat delivery of an owned
                    // non-consumable is already shared).
                    changes.append(.transactionShared(share(p, with: member.name, date: p.date, into: &effects)))
                    continue
                }
                var s = group.shares[i]
                guard p.productType == .autoRenewable else { continue }
                if p.id > s.purchaserLatestID {
                    let id = state.nextTransactionID
                    state.nextTransactionID = id.next
                    var t = memberCopy(
                        of: p, id: id, originalID: s.latest.originalID, originalDate: s.latest.originalDate, date: p.date,
                        reason: .renewal)
                    t.familyMember = member.name
                    s.latest = t
                    s.purchaserLatestID = p.id
                    group.shares[i] = s
                    state.familyGroup = group
                    record(t, into: &effects)
                    emit(.family(.transactionShared(t)), into: &effects)
                    changes.append(.transactionShared(t))
                } else if p.id == s.purchaserLatestID, p.expiresDate != s.latest.expiresDate {
                    s.latest.expiresDate = p.expiresDate
                    group.shares[i] = s
                    state.familyGroup = group
                    record(s.latest, into: &effects)
                }
            }
        }
    }
}
