import IAPTime

/// The simulated clock: moving it forward runs everything that falls due on the way.
extension Machine {
    /// The latest date the clock may reach: the end of year 9999, the last one RFC 3339 writes
    /// with four digits.
    public static let latestClock = Timestamp(milliseconds: 253_402_300_799_999)

    /// Moves the clock forward to `target`, running, in date order, every renewal, expiry and
    /// end of a grace or billing retry period that falls due up to and including `target`. Items
    /// due at the same instant run in original transaction id order, so the result does not
    /// depend on how the advance is split: one step of ten years and 120 steps of a month give
    /// the same transactions.
    mutating func advanceClock(to target: Timestamp, into effects: inout Effects) throws(StoreError) {
        guard target >= state.clock else {
            throw .refused(.clockBackwards(from: state.clock, to: target))
        }
        guard target <= Machine.latestClock else {
            throw .badArgument(.clockPastLimit(limit: Machine.latestClock, at: state.clock))
        }
        let from = state.clock
        let first = effects.events.count
        runDue(through: target, into: &effects)
        state.clock = target
        if target != from { emit(.clockAdvanced(from: from, to: target), into: &effects) }
        effects.outcome = .clockMoved(ClockMove(from: from, to: target, events: effects.events[first...]))
    }

    /// The clock step taken before a payment or restore (`clock-step`), running whatever falls
    /// due before the new time first, so that a purchase never jumps over a renewal.
    mutating func tickRunningDue(into effects: inout Effects) {
        let target = state.clock.adding(milliseconds: state.settings.clockStepMilliseconds)
        runDue(through: target, into: &effects)
        state.clock = target
    }

    /// The earliest date at which something falls due, or nil when nothing will.
    public var nextDueDate: Timestamp? {
        var earliest: Timestamp?
        for sub in state.subscriptions.values {
            if let d = sub.nextDueDate, earliest.map({ d < $0 }) ?? true { earliest = d }
        }
        return earliest
    }

    /// Runs everything due up to and including `target`, in (date, original id) order, moving the
    /// clock to each item's date as it goes (never backwards). Each subscription has at most one
    /// pending item, so the heap holds at most one entry per subscription.
    mutating func runDue(through target: Timestamp, into effects: inout Effects) {
        var due = DueQueue()
        for (id, sub) in state.subscriptions {
            if let d = sub.nextDueDate, d <= target { due.push(.init(date: d, originalID: id)) }
        }
        while let item = due.popMin() {
            guard let sub = state.subscriptions[item.originalID], sub.nextDueDate == item.date else { continue }
            if item.date > state.clock { state.clock = item.date }
            processDue(sub, at: item.date, into: &effects)
            // A renewal renews the family's shares at once, dated with it (not after the advance).
            if state.family != nil { shareWithFamily(into: &effects) }
            if let next = state.subscriptions[item.originalID]?.nextDueDate, next <= target {
                due.push(.init(date: next, originalID: item.originalID))
            }
        }
    }

    /// What happens to one subscription at its due date.
    private mutating func processDue(_ sub: Subscription, at date: Timestamp, into effects: inout Effects) {
        var sub = sub
        let id = sub.originalID
        switch sub.status {
        case .active:
            // Within the monthly plan's commitment the payments go on whatever auto-renew says.
            let committed = isCommitted(id)
            guard sub.autoRenew || committed else { return end(id, .cancelled, into: &effects) }
            // A price increase that needs consent and did not get it ends the subscription at
            // the renewal (EXPIRED/PRICE_INCREASE, expiration intent 3; issue 15).
            if let consent = state.priceConsents?[id], consent.status != .accepted {
                setPriceConsent(nil, for: id)
                return end(id, .priceIncreaseDeclined, into: &effects)
            }
            guard let product = catalog[committed ? sub.productID : sub.renewalProductID],
                product.price(in: state.settings.storefront) != nil
            else {
                return end(id, .productUnavailable, into: &effects)
            }
            if state.settings.billingIssues {
                failRenewal(id, at: date, period: product.subscriptionPeriod, into: &effects)
            } else {
                renew(sub, into: product, start: date, reanchor: false, recovered: false, into: &effects)
            }
        case .inGracePeriod(_, let retryUntil):
            sub.status = .inBillingRetry(until: retryUntil)
            state.subscriptions[id] = sub
            emit(.gracePeriodExpired(sub), into: &effects)
        case .inBillingRetry:
            end(id, .billingError, into: &effects)
        case .expired, .revoked:
            return
        }
    }

    /// A renewal that could not be charged (`billing-issues`): billing retry for 60 days, and
    /// with `grace-period` access for 6 more days (weekly subscriptions) or 16 (others), as
    /// Xcode's StoreKit testing and App Store Connect's Billing Grace Period do (REFERENCE
    /// section 8).
    private mutating func failRenewal(
        _ id: TransactionID, at date: Timestamp, period: SubscriptionPeriod?, into effects: inout Effects
    ) {
        guard var sub = state.subscriptions[id] else { return }
        let day: Int64 = 86_400_000
        let retryUntil = date.adding(milliseconds: 60 * day)
        if state.settings.gracePeriod {
            let graceDays: Int64 = (period ?? sub.cyclePeriod).isWeekly ? 6 : 16
            sub.status = .inGracePeriod(until: date.adding(milliseconds: graceDays * day), retryUntil: retryUntil)
        } else {
            sub.status = .inBillingRetry(until: retryUntil)
        }
        state.subscriptions[id] = sub
        emit(.renewalFailed(sub), into: &effects)
    }

    /// Ends a subscription with `intent`: no more renewals, auto-renew off.
    mutating func end(_ id: TransactionID, _ intent: Subscription.ExpirationIntent, into effects: inout Effects) {
        guard var sub = state.subscriptions[id] else { return }
        sub.status = .expired(intent)
        sub.autoRenew = false
        state.subscriptions[id] = sub
        // An ended subscription has no renewal left for a price increase (issue 15).
        setPriceConsent(nil, for: id)
        emit(.subscriptionExpired(sub), into: &effects)
    }
}
