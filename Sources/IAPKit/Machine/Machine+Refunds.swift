import IAPTime

/// Refunds and the clean-up actions of Xcode's transaction manager (refund, delete, clear).
extension Machine {
    /// Refunds a purchased, charged transaction: sets `revocationDate` (now) and
    /// `revocationReason` (0 other, 1 an issue in the app, as StoreKit 2's `revocationReason`)
    /// and takes away what it bought: a non-consumable is no longer owned (so no longer restored);
    /// refunding a subscription's current period revokes the subscription (no access, no more
    /// renewals); a non-renewing subscription loses the time that purchase had left to run.
    mutating func refund(
        _ id: TransactionID, reason: Int, archive: some TransactionArchive, into effects: inout Effects,
        type: RevocationType? = nil, percentage: Int? = nil
    )
        throws(StoreError)
    {
        guard reason == 0 || reason == 1 else {
            throw .badArgument(.refundReason(reason))
        }
        var t = try refundable(id, archive: archive)
        t.revocationDate = state.clock
        t.revocationReason = reason
        t.revocationType = type
        t.revocationPercentage = percentage
        record(t, into: &effects)
        var ended: Subscription?
        switch t.productType {
        case .consumable:
            break
        case .nonConsumable:
            if state.ownership[t.productID]?.originalID == t.originalID { state.ownership[t.productID] = nil }
        case .autoRenewable:
            if var sub = state.subscriptions[t.originalID], sub.latestID == t.id {
                sub.status = .revoked(date: state.clock, reason: reason)
                sub.autoRenew = false
                state.subscriptions[t.originalID] = sub
                setPriceConsent(nil, for: t.originalID)
                disown(sub.originalID)
                ended = sub
            }
        case .nonRenewing:
            if var e = takeBackTime(of: t) {
                e.purchases -= 1
                if e.expiresDate <= state.clock { e.revocation = .init(date: state.clock, reason: reason) }
                state.nonRenewing[t.productID] = e
            }
        }
        let revoked = EventKind.transactionRevoked(t, ended)
        emit(revoked, into: &effects)
        // The members' copies are revoked at the end of the apply (`shareWithFamily`), which
        // adds them to `family`.
        effects.outcome = .life(.refund(t, nil, ended, notification: revoked.serverNotification, family: []))
    }

    /// The transaction `id` if it can be refunded now: purchased (not a restored copy), charged,
    /// not refunded already; else why not.
    func refundable(_ id: TransactionID, archive: some TransactionArchive) throws(StoreError) -> Transaction {
        guard let t = try visibleTransaction(id, archive: archive) else { throw .unknownTransaction(id) }
        try refuseMemberTransaction(t)
        if let date = t.revocationDate { throw .refused(.alreadyRefunded(id, on: date)) }
        switch t.state {
        case .purchased:
            break
        case .restored:
            throw .refused(.refundRestored(id, original: t.originalID))
        case .purchasing, .failed, .deferred:
            throw .refused(.refundNotPurchased(id, state: t.state.name))
        }
        guard t.charged else {
            throw .refused(.refundUncharged(id))
        }
        return t
    }

    /// Deletes a transaction as if it never happened (Xcode's deleteTransaction). The store keeps
    /// a tombstone (disposition `.deleted`), which leaves the queue and is hidden from dump, show and every
    /// lookup. What it gave goes with it: deleting the purchase that made a non-consumable owned
    /// un-owns it; deleting a subscription's first or current-period transaction removes the
    /// subscription (the group is free again, with introductory offer eligibility); deleting a
    /// non-renewing purchase removes the time it had left. A family-shared purchase's copies of
    /// the members go too (`deleteShares`).
    mutating func deleteTransaction(_ id: TransactionID, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        guard let visible = try visibleTransaction(id, archive: archive) else { throw .unknownTransaction(id) }
        try refuseMemberTransaction(visible)
        let t = visible.deleted
        record(t, into: &effects)
        var subscriptionRemoved = false
        switch t.productType {
        case .consumable:
            break
        case .nonConsumable:
            if state.ownership[t.productID]?.originalID == t.id { state.ownership[t.productID] = nil }
        case .autoRenewable:
            if let sub = state.subscriptions[t.originalID], sub.latestID == t.id || sub.originalID == t.id {
                subscriptionRemoved = true
                state.subscriptions[sub.originalID] = nil
                state.subscriptionGroups[sub.group] = nil
                // Its offers go with it: the group's introductory offer is unused again.
                state.offers.subscriptions[sub.originalID] = nil
                disown(sub.originalID)
            }
        case .nonRenewing:
            if t.state == .purchased, t.charged, t.revocationDate == nil, var e = takeBackTime(of: t) {
                e.purchases -= 1
                state.nonRenewing[t.productID] = e.purchases > 0 && e.expiresDate > state.clock ? e : nil
            }
        }
        emit(.transactionDeleted(t), into: &effects)
        // The members' copies go with it (docs/family.md).
        let copies = try deleteShares(of: visible, subscriptionRemoved: subscriptionRemoved, archive: archive, into: &effects)
        effects.outcome = .deleted(t, familyCopies: copies)
    }

    /// Deletes every transaction (Xcode's clearTransactions): a tombstone for each one still
    /// visible, the queue emptied, nothing owned, no subscriptions. One `transactionsCleared`
    /// event says how many.
    mutating func clearTransactions(archive: some TransactionArchive, into effects: inout Effects) throws(StoreError) {
        var count = 0
        var id = TransactionID.first
        let end = state.nextTransactionID
        while id < end {
            if let t = try visibleTransaction(id, archive: archive)?.deleted {
                record(t, into: &effects)
                count += 1
            }
            id = id.next
        }
        state.ownership = [:]
        state.subscriptions = [:]
        state.subscriptionGroups = [:]
        state.nonRenewing = [:]
        // The offers of the subscriptions and of waiting payments go too; the offer keys and the
        // spent nonces stay (they are the app's and the App Store's, not the account's history).
        state.offers.subscriptions = [:]
        state.offers.requests = [:]
        // The members stay in the family; what they had through it went with the transactions.
        var family = state.familyGroup
        family.shares = []
        state.familyGroup = family
        emit(.transactionsCleared(count: count), into: &effects)
    }

    /// A family member's FAMILY_SHARED transaction is the App Store's copy of the purchaser's:
    /// it is refunded or removed through the purchase or the member (`family remove`).
    private func refuseMemberTransaction(_ t: Transaction) throws(StoreError) {
        guard let member = t.familyMember else { return }
        if t.isMemberPurchase {
            throw .refused(.memberOwnPurchase(t.id, member: member))
        }
        let purchaser = state.family?.shares.first { $0.latest.id == t.id }?.purchaserLatestID
        throw .family(.memberTransaction(t.id, member: member, purchaser: purchaser ?? t.originalID))
    }

    /// Removes the ownership entries of a subscription's products.
    mutating func disown(_ originalID: TransactionID) {
        for (product, owned) in state.ownership.sorted(by: { $0.key < $1.key }) where owned.originalID == originalID {
            state.ownership[product] = nil
        }
    }

    /// The non-renewing entitlement of `t`'s product with the time `t` still had to run taken
    /// out: the part of its period after now, or none when its period is over. Later purchases,
    /// which were stacked after it, move earlier by as much.
    func takeBackTime(of t: Transaction) -> NonRenewingEntitlement? {
        moveTime(of: t, after: state.clock, by: -1)
    }

    /// The non-renewing entitlement of `t`'s product with the part of `t`'s period after `date`
    /// taken out (`sign` -1, a refund or a deletion) or given back (`sign` +1, a reversed refund:
    /// `date` is when the refund took it). Nil when the product has no entitlement or no period.
    func moveTime(of t: Transaction, after date: Timestamp, by sign: Int64) -> NonRenewingEntitlement? {
        guard var e = state.nonRenewing[t.productID], let end = t.expiresDate,
            let period = catalog[t.productID]?.subscriptionPeriod
        else { return nil }
        let start = period.advance(end, times: -t.quantity)
        let unused = max(0, end.milliseconds - max(start.milliseconds, date.milliseconds))
        e.expiresDate = e.expiresDate.adding(milliseconds: sign * unused)
        return e
    }
}
