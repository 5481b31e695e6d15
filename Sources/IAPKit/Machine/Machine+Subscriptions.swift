import IAPTime

/// Auto-renewable and non-renewing subscriptions: purchases, renewals, plan changes inside a
/// group, billing issues, and the commands of Xcode's transaction manager.
extension Machine {
    // MARK: - Purchases

    /// Completes the purchase of a subscription product (called from `complete`, for purchases
    /// and approved Ask to Buy requests alike).
    mutating func completeSubscription(_ t: inout Transaction, product: Product, into effects: inout Effects) {
        t.downloads = downloads(for: product)
        switch product.type {
        case .autoRenewable: completeAutoRenewable(&t, product: product, into: &effects)
        case .nonRenewing: completeNonRenewing(&t, product: product)
        case .consumable, .nonConsumable: preconditionFailure("\(product.id) is not a subscription")
        }
    }

    /// A non-renewing subscription: the catalog's duration (times the quantity), counted from the
    /// later of now and the end of the time already bought, so buying early loses nothing.
    private mutating func completeNonRenewing(_ t: inout Transaction, product: Product) {
        t.charged = t.price > .zero || t.offerType != .code
        guard let period = product.subscriptionPeriod else { return }
        if var e = state.nonRenewing[product.id] {
            e.expiresDate = period.advance(max(t.date, e.expiresDate), times: t.quantity)
            e.latestID = t.id
            e.purchases += 1
            e.revocation = nil
            state.nonRenewing[product.id] = e
        } else {
            state.nonRenewing[product.id] = NonRenewingEntitlement(
                productID: product.id, firstID: t.id, latestID: t.id, expiresDate: period.advance(t.date, times: t.quantity),
                purchases: 1)
        }
        t.expiresDate = state.nonRenewing[product.id]?.expiresDate
    }

    /// An auto-renewable subscription. The first purchase in a group starts a subscription (with
    /// the introductory offer, for which only new subscribers of the group are eligible, or the
    /// offer the purchase redeems). With an active subscription in the group, buying its product
    /// again charges nothing; another product is an upgrade, downgrade or crossgrade
    /// (`GroupChange`); an offer redeemed then applies from the next renewal (an upgrade's, at
    /// once). A lapsed subscription bought again starts a new period now, keeping its original
    /// transaction id. Within the monthly plan's commitment every change waits for its end.
    private mutating func completeAutoRenewable(_ t: inout Transaction, product: Product, into effects: inout Effects) {
        let group = product.subscriptionGroup ?? product.id.rawValue
        let request = takeOfferRequest(t.id)
        let plan = request?.billingPlan ?? .upFront
        guard let id = state.subscriptionGroups[group], var sub = state.subscriptions[id] else {
            var sub = Subscription(
                originalID: t.id, originalDate: t.date, group: group, userID: t.userID, productID: product.id, latestID: t.id,
                periodStart: t.date, expiresDate: t.date, webOrderLineItemID: 0, periodPrice: .zero, currency: t.currency,
                offer: nil, status: .active, autoRenew: true, renewalProductID: product.id, offerPeriodsLeft: 0,
                cycleAnchor: t.date, cyclePeriod: product.subscriptionPeriod ?? SubscriptionPeriod(value: 1, unit: .month),
                cycles: 0, upgradeCredit: nil, renewals: 0)
            state.offers.subscriptions[t.id] = SubscriptionOfferState(billingPlan: plan)
            open(
                startTerms(product, storefront: t.storefront, request: request, introEligible: true), of: product, start: t.date,
                reanchor: true, &t, &sub, into: &effects)
            state.subscriptions[t.id] = sub
            state.subscriptionGroups[group] = t.id
            effects.followups.append(.subscribed(t.id, resubscribed: false))
            return
        }
        t.originalID = sub.originalID
        t.originalDate = sub.originalDate
        if case .active = sub.status {
            let committed = isCommitted(id)
            if !committed, product.id != sub.productID, let current = catalog[sub.productID],
                GroupChange.isImmediate(from: current, to: product)
            {
                let credit = proratedCredit(sub, at: t.date)
                let replaced = sub.latestID
                var terms = SubscriptionTerms.regular(product, storefront: t.storefront, plan: plan)
                if let offer = request?.offer {
                    let ref = offerRef(offer, product: product, plan: plan)
                    if let offerTerms = SubscriptionTerms.terms(of: ref, in: catalog),
                        let first = SubscriptionTerms.offer(offerTerms, ref: ref, product: product, storefront: t.storefront)
                    {
                        terms = first
                    }
                }
                open(terms, of: product, start: t.date, reanchor: true, &t, &sub, into: &effects)
                t.upgradeCredit = credit
                sub.upgradeCredit = credit
                sub.renewalProductID = product.id
                effects.followups.append(.changedProduct(from: replaced, to: t.id))
            } else {
                // The same product, or a change that waits for the renewal (or the end of the
                // commitment): the current period goes on, nothing is charged, and the renewal
                // will be this product, under the offer the purchase redeemed.
                t.charged = false
                t.expiresDate = sub.expiresDate
                t.webOrderLineItemID = sub.webOrderLineItemID
                let before = state.subscriptionOffers(id)
                var offers = before ?? SubscriptionOfferState()
                if let offer = request?.offer {
                    offers.pending = offerRef(offer, product: product, plan: plan)
                }
                if let request, offers.renewalBillingPlan != request.billingPlan {
                    offers.renewalBillingPlan = request.billingPlan
                }
                state.offers.subscriptions[id] = offers
                noteOffersChanged(id, from: before, into: &effects)
                if request?.offer != nil {
                    effects.followups.append(.offerRedeemed(t.id))
                    sub.renewalProductID = product.id
                }
            }
            if sub.renewalProductID != product.id {
                effects.followups.append(.renewalPreferenceChanged(original: sub.originalID, from: sub.renewalProductID))
                sub.renewalProductID = product.id
            }
            if !sub.autoRenew {
                sub.autoRenew = true
                effects.followups.append(.autoRenewChanged(original: sub.originalID))
            }
        } else {
            let seriesStart = RecentSubscriptionStart.afterResubscribing(
                current: sub.recentStartDate ?? sub.originalDate, previousEnd: RecentSubscriptionStart.paidServiceEnd(sub),
                start: t.date)
            sub.recentStartDate = seriesStart == sub.originalDate ? nil : seriesStart
            var offers = state.subscriptionOffers(id) ?? SubscriptionOfferState(introductoryRedeemed: true)
            offers.pending = nil
            offers.commitment = nil
            offers.renewalBillingPlan = plan
            state.offers.subscriptions[id] = offers
            open(
                startTerms(product, storefront: t.storefront, request: request, introEligible: !offers.introductoryRedeemed),
                of: product, start: t.date, reanchor: true, &t, &sub, into: &effects)
            sub.autoRenew = true
            sub.renewalProductID = product.id
            effects.followups.append(.subscribed(t.id, resubscribed: true))
        }
        state.subscriptions[id] = sub
    }

    /// Starts a billing period of `sub` with transaction `t`: its end (from the cycle anchor, so
    /// month ends do not drift), a new web order line item id, the price and offer, and what the
    /// offers record of it (`recordOffers`).
    mutating func open(
        _ terms: PeriodTerms, of product: Product, start: Timestamp, reanchor: Bool, _ t: inout Transaction,
        _ sub: inout Subscription, into effects: inout Effects
    ) {
        // A raised price (issue 15) replaces the catalog's regular up-front price; offers keep theirs.
        var terms = terms
        if terms.offer == nil, terms.billingPlan == .upFront, let raised = raisedPrice(of: product.id, in: t.storefront) {
            terms.price = raised
        }
        if reanchor || product.id != sub.productID || terms.period != sub.cyclePeriod {
            sub.cycleAnchor = start
            sub.cyclePeriod = terms.period
            sub.cycles = 1
        } else {
            sub.cycles += 1
        }
        let expires = terms.period.advance(sub.cycleAnchor, times: sub.cycles)
        let webOrder = state.nextWebOrderLineItemID
        state.nextWebOrderLineItemID += 1
        t.expiresDate = expires
        t.webOrderLineItemID = webOrder
        t.price = terms.price
        t.offer = terms.offer
        t.charged = terms.price > .zero
        sub.productID = product.id
        sub.latestID = t.id
        sub.periodStart = start
        sub.expiresDate = expires
        sub.webOrderLineItemID = webOrder
        sub.periodPrice = terms.price
        sub.currency = t.currency
        sub.offer = terms.offer
        sub.offerPeriodsLeft = terms.offerPeriodsLeft
        sub.status = .active
        if state.ownership[product.id] == nil {
            state.ownership[product.id] = .init(originalID: sub.originalID, originalDate: sub.originalDate, userID: sub.userID)
        }
        recordOffers(terms, of: product, start: start, &t, sub, into: &effects)
    }

    /// The prorated refund of the unused part of the current period when an upgrade replaces it
    /// at `date`: price x (time left / period length), rounded down to the currency's smallest
    /// unit. A free period credits nothing.
    func proratedCredit(_ sub: Subscription, at date: Timestamp) -> Price {
        let total = sub.expiresDate.milliseconds - sub.periodStart.milliseconds
        let left = max(0, sub.expiresDate.milliseconds - date.milliseconds)
        guard total > 0, sub.periodPrice > .zero else { return .zero }
        let (high, low) = sub.periodPrice.milliunits.multipliedFullWidth(by: min(left, total))
        let milli = total.dividingFullWidth((high, low)).quotient
        let digits = Storefront.all.first { $0.currency == sub.currency }?.fractionDigits ?? 2
        var unit: Int64 = 1
        for _ in 0..<(3 - min(3, digits)) { unit *= 10 }
        return Price(milliunits: milli / unit * unit)
    }

    // MARK: - Renewals

    /// A renewal: a new purchased transaction with the subscription's original id and a new web
    /// order line item id, for the renewal product, delivered to the queue (REFERENCE section 1).
    @discardableResult
    mutating func renew(_ id: TransactionID, start: Timestamp, reanchor: Bool, recovered: Bool, into effects: inout Effects)
        -> Transaction?
    {
        // Within a commitment the subscription renews as it is; a change of product waits for
        // the commitment's end.
        guard let sub = state.subscriptions[id], let product = catalog[isCommitted(id) ? sub.productID : sub.renewalProductID]
        else { return nil }
        return renew(sub, into: product, start: start, reanchor: reanchor, recovered: recovered, into: &effects)
    }

    /// As `renew(_:start:reanchor:recovered:into:)`, with the subscription and the product it
    /// renews into at hand (a renewal that falls due has both).
    @discardableResult
    mutating func renew(
        _ sub: Subscription, into product: Product, start: Timestamp, reanchor: Bool, recovered: Bool,
        into effects: inout Effects
    ) -> Transaction {
        var sub = sub
        let id = sub.originalID
        var t = newTransaction(product, user: sub.userID, quantity: 1, state: .purchased)
        t.originalID = sub.originalID
        t.originalDate = sub.originalDate
        t.reason = .renewal
        let terms = SubscriptionTerms.renewal(
            sub, offers: state.subscriptionOffers(id), product: product, catalog: catalog, storefront: t.storefront)
        open(terms, of: product, start: start, reanchor: reanchor, &t, &sub, into: &effects)
        // The renewal charges the raised price: the increase is behind the subscriber.
        setPriceConsent(nil, for: id)
        sub.renewals += 1
        state.subscriptions[id] = sub
        record(t, into: &effects)
        emit(.subscriptionRenewed(t, sub, recovered: recovered), into: &effects)
        effects.outcome.addRenewal(t)
        return t
    }

    // MARK: - Commands

    /// The subscription a command names, or why there is none.
    public func subscriptionID(_ ref: SubscriptionReference) throws(StoreError) -> TransactionID {
        switch ref {
        case .product(let productID):
            guard let product = catalog[productID] else {
                throw .unknownProduct(productID, closest: catalog.closest(to: productID))
            }
            guard product.type == .autoRenewable, let group = product.subscriptionGroup else {
                throw .badArgument(.notASubscription(productID, product.type))
            }
            guard let id = state.subscriptionGroups[group] else {
                throw .missing(.noSubscriptionInGroup(group, product: productID))
            }
            return id
        case .originalTransaction(let id):
            guard state.subscriptions[id] != nil else {
                throw .missing(.noSubscription(id))
            }
            return id
        }
    }

    /// Turns auto-renew off or on. Off while a renewal is failing ends the subscription now:
    /// there is nothing left to retry. On needs a live subscription; a lapsed one is bought again.
    mutating func setAutoRenew(_ ref: SubscriptionReference, on: Bool, into effects: inout Effects) throws(StoreError) {
        let id = try subscriptionID(ref)
        guard var sub = state.subscriptions[id] else { return }
        effects.outcome = .subscriptionChanged(id, renewals: [])
        switch sub.status {
        case .expired, .revoked:
            throw .refused(.autoRenewOfEnded(original: sub.originalID, product: sub.productID, status: sub.status.name))
        case .active, .inGracePeriod, .inBillingRetry:
            break
        }
        guard sub.autoRenew != on else { return }
        sub.autoRenew = on
        state.subscriptions[id] = sub
        emit(.autoRenewStatusChanged(sub), into: &effects)
        if !on && sub.isInBillingRetry { end(id, .cancelled, into: &effects) }
    }

    /// Ends a subscription now, as if the user had cancelled and the period had run out: the
    /// current period's transaction gets today's date as its `expiresDate` (Xcode's "Expire
    /// Subscription").
    mutating func expireSubscription(_ ref: SubscriptionReference, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        let id = try subscriptionID(ref)
        guard var sub = state.subscriptions[id] else { return }
        effects.outcome = .subscriptionChanged(id, renewals: [])
        switch sub.status {
        case .expired, .revoked:
            throw .refused(.alreadyEnded(original: sub.originalID, product: sub.productID, status: sub.status.name))
        case .active, .inGracePeriod, .inBillingRetry:
            break
        }
        try cutCurrentPeriod(&sub, archive: archive, into: &effects)
        state.subscriptions[id] = sub
        end(id, .cancelled, into: &effects)
    }

    /// Renews now, ahead of the period's end: the current period ends now and a new one of the
    /// renewal product starts (Xcode's "Renew Subscription"). A forced renewal succeeds whatever
    /// `billing-issues` says; a failing subscription is recovered with `resolve` instead.
    mutating func renewSubscription(_ ref: SubscriptionReference, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        let id = try subscriptionID(ref)
        guard var sub = state.subscriptions[id] else { return }
        effects.outcome = .subscriptionChanged(id, renewals: [])
        switch sub.status {
        case .active:
            break
        case .inGracePeriod, .inBillingRetry:
            throw .refused(.renewWithBillingIssue(original: id, product: sub.productID, status: sub.status.name))
        case .expired, .revoked:
            throw .refused(.renewEnded(original: sub.originalID, product: sub.productID, status: sub.status.name))
        }
        try requireRenewable(sub)
        try cutCurrentPeriod(&sub, archive: archive, into: &effects)
        state.subscriptions[id] = sub
        renew(id, start: state.clock, reanchor: true, recovered: false, into: &effects)
        runDue(through: state.clock, into: &effects)
    }

    /// Ends a billing issue with a successful charge now (Xcode's "Resolve Billing Issue"). From
    /// the grace period the renewal keeps its dates (the period starts when the failed one would
    /// have: no days are lost); from billing retry a new period starts now.
    mutating func resolveBillingIssue(_ ref: SubscriptionReference, into effects: inout Effects) throws(StoreError) {
        let id = try subscriptionID(ref)
        guard let sub = state.subscriptions[id] else { return }
        effects.outcome = .subscriptionChanged(id, renewals: [])
        switch sub.status {
        case .inGracePeriod:
            try requireRenewable(sub)
            renew(id, start: sub.expiresDate, reanchor: false, recovered: true, into: &effects)
        case .inBillingRetry:
            try requireRenewable(sub)
            renew(id, start: state.clock, reanchor: true, recovered: true, into: &effects)
        case .active, .expired, .revoked:
            throw .refused(.noBillingIssue(original: sub.originalID, product: sub.productID, status: sub.status.name))
        }
        runDue(through: state.clock, into: &effects)
    }

    private func requireRenewable(_ sub: Subscription) throws(StoreError) {
        guard let product = catalog[sub.renewalProductID], product.price(in: state.settings.storefront) != nil else {
            throw .refused(
                .notRenewable(
                    original: sub.originalID, product: sub.productID, renewal: sub.renewalProductID,
                    storefront: state.settings.storefront))
        }
    }

    /// Ends the current period now: its transaction's `expiresDate` becomes the clock.
    private mutating func cutCurrentPeriod(
        _ sub: inout Subscription, archive: some TransactionArchive, into effects: inout Effects
    ) throws(StoreError) {
        if sub.expiresDate > state.clock, var t = try visibleTransaction(sub.latestID, archive: archive) {
            t.expiresDate = state.clock
            record(t, into: &effects)
        }
        sub.expiresDate = min(sub.expiresDate, state.clock)
    }

    // MARK: - Restore

    /// Restored transactions for auto-renewable subscriptions. `all` (StoreKit 1): one for every
    /// billing period not refunded (the purchase, each renewal, upgraded periods), oldest first,
    /// found by walking history from the oldest subscription's first purchase; `latest`: one for
    /// each subscription's current period. Each restored transaction carries the period's product,
    /// expiry, web order line item id and offer, and points at the original purchase.
    mutating func restoreSubscriptions(user: UserID?, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError) -> Int
    {
        let subs = state.subscriptions.values.sorted { $0.originalID < $1.originalID }
        guard let first = subs.first?.originalID else { return 0 }
        var periods: [Transaction] = []
        switch state.settings.restoreRenewals {
        case .latest:
            for sub in subs {
                if case .revoked = sub.status { continue }
                if let t = try visibleTransaction(sub.latestID, archive: archive), t.revocationDate == nil { periods.append(t) }
            }
        case .all:
            var seen: Set<UInt64> = []
            var id = first
            while id < state.nextTransactionID {
                if let t = try visibleTransaction(id, archive: archive), t.productType == .autoRenewable,
                    state.subscriptions[t.originalID] != nil, t.state == .purchased, t.revocationDate == nil,
                    let period = t.webOrderLineItemID, seen.insert(period).inserted
                {
                    periods.append(t)
                }
                id = id.next
            }
        }
        for period in periods {
            guard let product = catalog[period.productID] else { continue }
            var r = newTransaction(product, user: user ?? period.userID, quantity: 1, state: .restored)
            r.originalID = period.originalID
            r.originalDate = period.originalDate
            r.expiresDate = period.expiresDate
            r.webOrderLineItemID = period.webOrderLineItemID
            r.offer = period.offer
            r.offerType = period.offerType
            r.offerID = period.offerID
            r.offerPeriod = period.offerPeriod
            r.billingPlan = period.billingPlan
            r.commitment = period.commitment
            r.isUpgraded = period.isUpgraded
            r.reason = period.reason
            r.downloads = downloads(for: product)
            record(r, into: &effects)
            emit(.transactionUpdated(r), into: &effects)
        }
        return periods.count
    }

    // MARK: - Plumbing

    /// A transaction from the queue or history, unless deleted.
    func visibleTransaction(_ id: TransactionID, archive: some TransactionArchive) throws(StoreError) -> Transaction? {
        if let queued = state.queued(id) { return queued }
        guard let t = try archive.transaction(id), !t.isDeleted else { return nil }
        return t
    }

    /// Carries out what subscription purchases left for the end of the command (`Followup`).
    mutating func flushFollowups(archive: some TransactionArchive, into effects: inout Effects) throws(StoreError) {
        guard !effects.followups.isEmpty else { return }
        let work = effects.followups
        effects.followups = []
        for item in work {
            switch item {
            case .subscribed(let id, let resubscribed):
                guard let t = try visibleTransaction(id, archive: archive), let sub = state.subscriptions[t.originalID] else {
                    continue
                }
                emit(.subscriptionStarted(t, sub, resubscribed: resubscribed), into: &effects)
            case .changedProduct(let from, let to):
                guard var old = try visibleTransaction(from, archive: archive),
                    let new = try visibleTransaction(to, archive: archive),
                    let sub = state.subscriptions[new.originalID]
                else { continue }
                old.isUpgraded = true
                record(old, into: &effects)
                emit(.subscriptionUpgraded(from: old, to: new, sub), into: &effects)
            case .renewalPreferenceChanged(let original, let from):
                guard let sub = state.subscriptions[original] else { continue }
                emit(
                    .renewalPreferenceChanged(sub, from: from, change: change(from: sub.productID, to: sub.renewalProductID)),
                    into: &effects)
            case .autoRenewChanged(let original):
                guard let sub = state.subscriptions[original] else { continue }
                emit(.autoRenewStatusChanged(sub), into: &effects)
            case .offerRedeemed(let id):
                guard let t = try visibleTransaction(id, archive: archive), let sub = state.subscriptions[t.originalID],
                    let offer = state.subscriptionOffers(t.originalID)?.pending
                else { continue }
                emit(
                    .offerRedeemed(t, sub, offer: offer, change: change(from: sub.productID, to: sub.renewalProductID)),
                    into: &effects)
            }
        }
    }

    /// The kind of a pending plan change, nil when the renewal product is the current one again.
    private func change(from current: ProductID, to renewal: ProductID) -> GroupChange? {
        guard current != renewal, let a = catalog[current], let b = catalog[renewal] else { return nil }
        return GroupChange(from: a, to: b)
    }
}
