import IAPTime

/// Refund requests (issue 15, item 2): what the App Store does between a customer's "Report a
/// Problem" and its decision, which Xcode's StoreKit testing skips (its refunds are approved at
/// once: `refund TXID`, `Machine.refund`).
extension Machine {
    mutating func applyRefundStep(_ step: RefundStep, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        switch step {
        case .request(let id, let reason):
            let t = try refundable(id, archive: archive)
            if let open = state.refundRequests?[id], open.status == .open {
                throw .refused(.refundRequestOpen(id, since: open.requested))
            }
            let q = RefundRequest(transactionID: id, requested: state.clock, reason: reason)
            setRefundRequest(q)
            let requested = EventKind.life(.refundRequested(t, q))
            emit(requested, into: &effects)
            effects.outcome = .life(.refund(t, q, nil, notification: requested.serverNotification, family: []))
        case .approve(let id, let percent):
            guard RefundRequest.percentRange.contains(percent) else {
                throw .badArgument(.refundPercent(percent))
            }
            var q = try openRequest(id, archive: archive, verb: "approve")
            try refund(
                id, reason: 0, archive: archive, into: &effects, type: percent == 100 ? .refundFull : .refundProrated,
                percentage: RefundRequest.milliunits(percent: percent))
            q.status = .approved(percent: percent)
            q.decided = state.clock
            setRefundRequest(q)
            if case .life(.refund(let t, _, _, let notification, let family)) = effects.outcome {
                let sub = state.subscriptions[t.originalID]
                effects.outcome = .life(
                    .refund(t, q, sub?.latestID == id ? sub : nil, notification: notification, family: family))
            }
        case .decline(let id):
            var q = try openRequest(id, archive: archive, verb: "decline")
            guard let t = try visibleTransaction(id, archive: archive) else { throw .unknownTransaction(id) }
            q.status = .declined
            q.decided = state.clock
            setRefundRequest(q)
            let declined = EventKind.life(.refundDeclined(t, q))
            emit(declined, into: &effects)
            effects.outcome = .life(.refund(t, q, nil, notification: declined.serverNotification, family: []))
        case .reverse(let id):
            try reverseRefund(id, archive: archive, into: &effects)
        }
    }

    /// The open request of `id`, or why there is none.
    private func openRequest(_ id: TransactionID, archive: some TransactionArchive, verb: String) throws(StoreError)
        -> RefundRequest
    {
        guard try visibleTransaction(id, archive: archive) != nil else { throw .unknownTransaction(id) }
        guard let q = state.refundRequests?[id] else {
            throw .refused(.noRefundRequest(id, verb: verb))
        }
        guard q.status == .open else {
            throw .refused(.refundRequestAnswered(id, status: q.status.name))
        }
        return q
    }

    /// Takes a refund back: the transaction is no longer revoked (revocation date, reason, type
    /// and percentage cleared) and what it bought returns: a non-consumable is owned again, the
    /// subscription whose current period it paid is active again (or expired, if that period is
    /// over), a non-renewing subscription gets back the time the refund took.
    private mutating func reverseRefund(_ id: TransactionID, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        guard var t = try visibleTransaction(id, archive: archive) else { throw .unknownTransaction(id) }
        guard let revoked = t.revocationDate else {
            throw .refused(.notRefunded(id))
        }
        let percent = (t.revocationPercentage ?? 100_000) / 1000
        t.revocationDate = nil
        t.revocationReason = nil
        t.revocationType = nil
        t.revocationPercentage = nil
        record(t, into: &effects)
        var restored: Subscription?
        switch t.productType {
        case .consumable:
            break
        case .nonConsumable:
            if state.ownership[t.productID] == nil {
                state.ownership[t.productID] = .init(originalID: t.originalID, originalDate: t.originalDate, userID: t.userID)
            }
        case .autoRenewable:
            if var sub = state.subscriptions[t.originalID], sub.latestID == t.id, case .revoked = sub.status {
                if sub.expiresDate > state.clock {
                    sub.status = .active
                    sub.autoRenew = true
                    if state.ownership[sub.productID] == nil {
                        state.ownership[sub.productID] = .init(
                            originalID: sub.originalID, originalDate: sub.originalDate, userID: sub.userID)
                    }
                } else {
                    sub.status = .expired(.unknown)
                }
                state.subscriptions[t.originalID] = sub
                restored = sub
            }
        case .nonRenewing:
            if var e = moveTime(of: t, after: revoked, by: 1) {
                e.purchases += 1
                e.revocation = nil
                state.nonRenewing[t.productID] = e
            }
        }
        var q = state.refundRequests?[id]
        if q != nil {
            q?.status = .reversed(percent: percent)
            q?.decided = state.clock
            setRefundRequest(q!)
        }
        let reversed = EventKind.life(.refundReversed(t, restored))
        emit(reversed, into: &effects)
        let family = try reinstateShares(of: t, refunded: revoked, archive: archive, into: &effects)
        effects.outcome = .life(.refund(t, q, restored, notification: reversed.serverNotification, family: family))
    }

    private mutating func setRefundRequest(_ q: RefundRequest) {
        var all = state.refundRequests ?? [:]
        all[q.transactionID] = q
        state.refundRequests = all
    }
}
