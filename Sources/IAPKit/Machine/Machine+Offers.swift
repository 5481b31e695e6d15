import IAPTime

/// Subscription offers: the offer keys, purchases with offers (signatures, nonces, eligibility),
/// and the offers' terms as periods open.
extension Machine {
    // MARK: - Eligibility

    /// StoreKit's `isEligibleForIntroOffer` for a subscription group: whether a purchase in the
    /// group would start with its product's introductory offer. "You can make introductory offers
    /// to customers who haven't previously received an introductory offer for the given product,
    /// or for any products in the same subscription group" (StoreKit, "Implementing introductory
    /// offers in your app"); the store is one App Store account, so one introductory offer per
    /// group per store. A subscription from before iapctl recorded offers counts as having had one.
    public func isEligibleForIntroOffer(group: String) -> Bool {
        guard let id = state.subscriptionGroups[group] else { return true }
        guard let offers = state.subscriptionOffers(id) else { return false }
        return !offers.introductoryRedeemed
    }

    /// `isEligibleForIntroOffer` for a product: nil for a product that is not an auto-renewable
    /// subscription.
    public func isEligibleForIntroOffer(_ product: Product) -> Bool? {
        guard product.type == .autoRenewable else { return nil }
        return isEligibleForIntroOffer(group: product.subscriptionGroup ?? product.id.rawValue)
    }

    /// What the win-back rules read of the subscription `sub`.
    public func winBackSubscriber(_ sub: Subscription) -> WinBackEligibility.Subscriber {
        var churned = false
        if case .expired = sub.status, !sub.autoRenew { churned = true }
        return WinBackEligibility.Subscriber(
            churned: churned, paidSince: sub.recentStartDate ?? sub.originalDate, paidUntil: sub.expiresDate,
            redemptions: state.subscriptionOffers(sub.originalID)?.winBackRedemptions ?? [:])
    }

    /// `eligibleWinBackOfferIds` of a subscription now: the win-back offers of its product the
    /// customer may redeem, best first (empty unless it has churned).
    public func eligibleWinBackOfferIDs(_ sub: Subscription) -> [OfferID] {
        guard let product = catalog[sub.productID] else { return [] }
        return WinBackEligibility.eligible(product, for: winBackSubscriber(sub), at: state.clock)
    }

    /// The offer keys the store verifies signatures with, in id order.
    var offerKeys: [SubscriptionOfferKey] { state.offers.orderedKeys.compactMap(\.key) }

    // MARK: - Keys

    mutating func addOfferKey(_ record: OfferKeyRecord, into effects: inout Effects) throws(StoreError) {
        guard SubscriptionOfferKey.isValidID(record.id) else { throw .badArgument(.offerKeyID(record.id)) }
        guard record.key != nil else {
            throw .badInput(.notAP256Key(record.id))
        }
        state.offers.keys[record.id] = record
        emit(.offerKeyAdded(record), into: &effects)
    }

    mutating func removeOfferKey(_ id: String, into effects: inout Effects) throws(StoreError) {
        guard let record = state.offers.keys[id] else {
            throw .missing(.noOfferKey(id, known: state.offers.orderedKeys.map(\.id)))
        }
        state.offers.keys[id] = nil
        emit(.offerKeyRemoved(record), into: &effects)
    }

    // MARK: - Buying with offers

    /// A payment with offer options. What the App Store refuses about the offer (StoreKit's
    /// offer errors, see `OfferError`) fails the payment like any other refusal: a failed
    /// transaction, exit 1. What cannot be a payment at all (an unknown product, a billing plan
    /// the product does not have) is refused before one is made.
    mutating func buyWithOptions(
        _ id: ProductID, user: UserID?, quantity: Int, options: PurchaseOptions, archive: some TransactionArchive,
        into effects: inout Effects
    ) throws(StoreError) {
        let product = try sellable(id)
        guard PurchaseQuantity.range.contains(quantity) else { throw .quantityOutOfRange(quantity) }
        if quantity > 1 {
            guard PurchaseQuantity.allowsMany(product.type, settings: state.settings) else {
                throw .quantityNotAllowed(id, product.type)
            }
        }
        if options.billingPlan == .monthly {
            guard product.type == .autoRenewable, let plan = product.offers.billingPlan(.monthly) else {
                throw .badArgument(.noMonthlyPlan(id))
            }
            guard plan.price(in: state.settings.storefront) != nil else {
                throw .badArgument(.monthlyPlanNotSold(id, storefront: state.settings.storefront))
            }
        }
        let now = state.clock
        if let date = options.purchaseDate {
            guard date <= now else { throw .backdate(.inFuture(date, clock: now)) }
            guard date >= PurchaseOptions.earliestPurchaseDate else { throw .backdate(.beforeEpoch(date)) }
            // A subscription's periods cannot overlap the group's subscription (one per group).
            if let group = product.subscriptionGroup, let existing = state.subscriptionGroups[group],
                let sub = state.subscriptions[existing], sub.expiresDate > date
            {
                throw .backdate(.overlaps(date, group: group, until: sub.expiresDate))
            }
            // The purchase happens back then: the clock goes to `date` for it (nothing is due
            // between then and now that has not already run) and comes back to now below.
            state.clock = date
        } else {
            tickRunningDue(into: &effects)
        }
        var t = newTransaction(product, user: user, quantity: quantity, state: .purchasing)
        emit(.transactionUpdated(t), into: &effects)
        // The offer code redemption sheet (`presentOfferCodeRedeemSheet`) failing.
        var sheetError: TransactionError?
        if case .code = options.offer { sheetError = takeFault(.offerCodeRedeem, product: product.id, into: &effects) }
        if let sheetError {
            t.state = .failed(sheetError)
        } else {
            do {
                let request = try offerRequest(options, for: product, payer: t, archive: archive)
                if !request.isPlain { state.offers.requests[t.id] = request }
                settle(&t, product: product, into: &effects)
            } catch {
                t.state = .failed(TransactionError(offer: error))
            }
        }
        // A request waits with a deferred (Ask to Buy) or interrupted purchase; otherwise the
        // purchase used it or failed.
        let waits = t.state == .deferred || state.interruptedPurchases.contains { $0.transactionID == t.id }
        if !waits { state.offers.requests[t.id] = nil }
        record(t, into: &effects)
        emit(.transactionUpdated(t), into: &effects)
        if options.purchaseDate != nil { try catchUp(t, to: now, options.renewalBehavior, archive: archive, into: &effects) }
        effects.outcome = .payment(payment(t))
    }

    /// After a backdated purchase: the subscription it started begins (its SUBSCRIBED comes
    /// first), `cancel-immediately` turns auto-renew off, then everything due from the purchase
    /// date up to `now` runs (renewals, or the expiry) and the clock is back at `now` (never
    /// earlier than it was).
    private mutating func catchUp(
        _ t: Transaction, to now: Timestamp, _ behavior: PurchaseOptions.RenewalBehavior, archive: some TransactionArchive,
        into effects: inout Effects
    ) throws(StoreError) {
        try flushFollowups(archive: archive, into: &effects)
        if behavior == .cancelImmediately, t.productType == .autoRenewable, var sub = state.subscriptions[t.originalID],
            sub.latestID == t.id, sub.autoRenew
        {
            sub.autoRenew = false
            state.subscriptions[t.originalID] = sub
            emit(.autoRenewStatusChanged(sub), into: &effects)
        }
        runDue(through: now, into: &effects)
        if state.clock < now { state.clock = now }
    }

    /// Checks every offer option of a payment, in StoreKit's order (missing parts, the offer,
    /// the signature, its window and its nonce, the price, eligibility), and returns what the
    /// purchase will apply. The nonces are spent only when everything passed: a refused purchase
    /// leaves its signature unused.
    private mutating func offerRequest(
        _ options: PurchaseOptions, for product: Product, payer t: Transaction, archive: some TransactionArchive
    ) throws(OfferError) -> OfferRequest {
        var request = OfferRequest(billingPlan: options.billingPlan)
        let storefront = state.settings.storefront
        var nonces: [(OfferNonce, Timestamp)] = []
        if let jws = options.introductoryEligibilityJWS {
            guard product.type == .autoRenewable else {
                throw .unknownOffer(kind: "introductory offer", id: "-", product: product.id, known: [])
            }
            let claims = try SignedOfferJWS.verifyIntroductoryEligibility(
                jws, bundleID: state.bundleID, productID: product.id, keys: offerKeys, now: state.clock)
            try requireCustomersTransaction(claims.base.transactionID, archive: archive)
            try requireUnspent(claims.base.nonce)
            nonces.append((claims.base.nonce, claims.base.validUntil))
            request.introductoryOverride = claims.allowIntroductoryOffer
        }
        switch options.offer {
        case nil:
            break
        case .promotional(let discount):
            if !discount.missingParts.isEmpty {
                _ = try PromotionalOfferSignature.verify(
                    discount, bundleID: state.bundleID, productID: product.id, applicationUsername: t.userID?.rawValue,
                    keys: offerKeys, now: state.clock)
            }
            let offer = try promotionalOffer(discount.offerID, of: product)
            let verified = try PromotionalOfferSignature.verify(
                discount, bundleID: state.bundleID, productID: product.id, applicationUsername: t.userID?.rawValue,
                keys: offerKeys, now: state.clock)
            try requireUnspent(verified.nonce)
            try requirePlan(offer.terms, kind: "promotional offer", id: offer.id.rawValue, options: options)
            try requirePriced(offer.terms, kind: "promotional offer", id: offer.id.rawValue, storefront: storefront)
            try requireSubscriber(product, offer: offer.id)
            nonces.append((verified.nonce, verified.validUntil))
            request.offer = .promotional(offer.id)
        case .promotionalJWS(let token):
            let claims = try SignedOfferJWS.verifyPromotionalOffer(
                token, bundleID: state.bundleID, productID: product.id, keys: offerKeys, now: state.clock)
            let offer = try promotionalOffer(claims.offerID, of: product)
            try requireCustomersTransaction(claims.base.transactionID, archive: archive)
            try requireUnspent(claims.base.nonce)
            try requirePlan(offer.terms, kind: "promotional offer", id: offer.id.rawValue, options: options)
            try requirePriced(offer.terms, kind: "promotional offer", id: offer.id.rawValue, storefront: storefront)
            try requireSubscriber(product, offer: offer.id)
            nonces.append((claims.base.nonce, claims.base.validUntil))
            request.offer = .promotional(offer.id)
        case .code(let name):
            guard let code = product.offers.offerCode(referenceName: name) else {
                throw .unknownOffer(
                    kind: "offer code", id: name, product: product.id, known: product.offers.codes.map(\.referenceName))
            }
            switch code.discount {
            case .subscription(let terms):
                try requirePlan(terms, kind: "offer code", id: name, options: options)
                try requirePriced(terms, kind: "offer code", id: name, storefront: storefront)
                try requireCodeEligibility(code, product: product)
            case .oneTime:
                guard code.oneTimePrice(in: storefront) != nil else {
                    throw .invalidPrice("offer code '\(name)' of '\(product.id)' has no price in storefront \(storefront)")
                }
                try requireOneTimeEligibility(code, product: product)
            }
            request.offer = .code(referenceName: name)
        case .winBack(let id):
            guard product.type == .autoRenewable, let offer = product.offers.winBackOffer(id) else {
                throw .unknownOffer(
                    kind: "win-back offer", id: id.rawValue, product: product.id,
                    known: product.offers.winBack.map(\.id.rawValue))
            }
            try requirePlan(offer.terms, kind: "win-back offer", id: id.rawValue, options: options)
            try requirePriced(offer.terms, kind: "win-back offer", id: id.rawValue, storefront: storefront)
            guard let group = product.subscriptionGroup, let original = state.subscriptionGroups[group],
                let sub = state.subscriptions[original]
            else {
                throw .ineligible(
                    "win-back offers are for lapsed subscribers, and this account never subscribed to group '\(product.subscriptionGroup ?? product.id.rawValue)'"
                )
            }
            if let why = WinBackEligibility.refusal(offer, for: winBackSubscriber(sub), at: state.clock) {
                throw .ineligible(why)
            }
            request.offer = .winBack(id)
        }
        for (nonce, validUntil) in nonces { state.offers.spentNonces[nonce.lowercased] = validUntil }
        return request
    }

    private func promotionalOffer(_ id: OfferID, of product: Product) throws(OfferError) -> PromotionalOffer {
        guard product.type == .autoRenewable, let offer = product.offers.promotionalOffer(id) else {
            throw .unknownOffer(
                kind: "promotional offer", id: id.rawValue, product: product.id,
                known: product.offers.promotional.map(\.id.rawValue))
        }
        return offer
    }

    /// An offer is set up for one billing plan: the purchase must be on that plan.
    private func requirePlan(_ terms: OfferTerms, kind: String, id: String, options: PurchaseOptions) throws(OfferError) {
        guard terms.billingPlan == options.billingPlan else {
            let fix = terms.billingPlan == .monthly ? "buy with --billing-plan monthly" : "drop --billing-plan monthly"
            throw .wrongBillingPlan("\(kind) '\(id)' is set up for the \(terms.billingPlan.rawValue) billing plan; \(fix)")
        }
    }

    private func requirePriced(_ terms: OfferTerms, kind: String, id: String, storefront: String) throws(OfferError) {
        guard terms.isPriced(in: storefront) else {
            throw .invalidPrice(
                "\(kind) '\(id)' has no price in storefront \(storefront); it is priced in \(terms.prices.map(\.storefront).joined(separator: ", "))"
            )
        }
    }

    /// Promotional offers are for current and lapsed subscribers of the group: "You can provide
    /// lapsed or current subscribers a limited-time offer of a discounted or free period of
    /// service" and "You decide the criteria for which subscribers qualify" (StoreKit,
    /// "Implementing promotional offers in your app"); a customer who never subscribed in the
    /// group is a new subscriber, whom the introductory offer is for.
    private func requireSubscriber(_ product: Product, offer: OfferID) throws(OfferError) {
        let group = product.subscriptionGroup ?? product.id.rawValue
        guard state.subscriptionGroups[group] == nil else { return }
        throw .ineligible(
            "promotional offer '\(offer)' is for current and lapsed subscribers of group '\(group)', and this account never subscribed to it (new subscribers get the introductory offer)"
        )
    }

    /// Offer codes of subscriptions name who may redeem them: new subscribers of the group,
    /// existing ones (subscribed now, in grace or billing retry too), expired ones.
    private func requireCodeEligibility(_ code: OfferCode, product: Product) throws(OfferError) {
        let group = product.subscriptionGroup ?? product.id.rawValue
        let status: OfferCode.Eligibility
        if let original = state.subscriptionGroups[group], let sub = state.subscriptions[original] {
            switch sub.status {
            case .active, .inGracePeriod, .inBillingRetry: status = .existing
            case .expired, .revoked: status = .expired
            }
        } else {
            status = .new
        }
        guard code.eligibility.contains(status) else {
            let who = code.eligibility.map(\.rawValue).joined(separator: ", ")
            throw .ineligible(
                "offer code '\(code.referenceName)' is for \(who) subscribers of group '\(group)'; this account is \(status.rawValue == "new" ? "a new subscriber" : "an \(status.rawValue) subscriber")"
            )
        }
    }

    /// A one-time code cannot buy again what the account is entitled to: a non-consumable it
    /// owns, a non-renewing subscription still running ("non-consumables, non-renewing
    /// subscriptions, and auto-renewable subscriptions may block redemption if you're already
    /// entitled", StoreKit, "Supporting offer codes in your app"). Consumables are redeemable
    /// again and again.
    private func requireOneTimeEligibility(_ code: OfferCode, product: Product) throws(OfferError) {
        switch product.type {
        case .nonConsumable:
            if state.ownership[product.id] != nil {
                throw .ineligible("offer code '\(code.referenceName)' is for '\(product.id)', which the account already owns")
            }
        case .nonRenewing:
            if let e = state.nonRenewing[product.id], e.expiresDate > state.clock, e.revocation == nil {
                throw .ineligible(
                    "offer code '\(code.referenceName)' is for '\(product.id)', which the account has until \(e.expiresDate.rfc3339)"
                )
            }
        case .consumable, .autoRenewable:
            break
        }
    }

    /// A signed `transactionId` names "any transaction that belongs to the customer": one of
    /// this store's.
    private func requireCustomersTransaction(_ id: String?, archive: some TransactionArchive) throws(OfferError) {
        guard let id else { return }
        guard let txid = TransactionID(parsing: id), (try? visibleTransaction(txid, archive: archive)) != nil else {
            throw .signatureMismatch(
                "the signed transactionId '\(id)' is not a transaction of this account; sign one of its transaction ids (see 'iapctl dump')"
            )
        }
    }

    /// A nonce is good for one purchase, ever ("A one-time UUID value that your server
    /// generates. Generate a new nonce for every signature", StoreKit, "Generating a signature
    /// for promotional offers"). A spent nonce is kept after its signature expired, so a new
    /// signature over an old nonce is refused too.
    private func requireUnspent(_ nonce: OfferNonce) throws(OfferError) {
        guard state.offers.spentNonces[nonce.lowercased] == nil else { throw .nonceReused(nonce.lowercased) }
    }

    // MARK: - Applying offers

    /// The offer request of a purchasing transaction, taken out of the state: the purchase
    /// completes with it now.
    mutating func takeOfferRequest(_ id: TransactionID) -> OfferRequest? {
        // Most stores hold no offer state at all: no empty tables to build and hash into.
        guard let request = state.offerState?.requests[id] else { return nil }
        state.offers.requests[id] = nil
        return request
    }

    /// An offer of `product` as a reference, on `plan`.
    func offerRef(_ offer: OfferRequest.Offer, product: Product, plan: BillingPlanType) -> SubscriptionOfferState.OfferRef {
        SubscriptionOfferState.OfferRef(type: offer.type, id: offer.id, product: product.id, billingPlan: plan)
    }

    /// The first period of a new (or resumed) subscription: the requested offer, else the
    /// introductory offer of the plan when the account is eligible (or a signed override says
    /// so), else the regular terms of the plan.
    func startTerms(_ product: Product, storefront: String, request: OfferRequest?, introEligible: Bool) -> PeriodTerms {
        let plan = request?.billingPlan ?? .upFront
        if let offer = request?.offer {
            let ref = offerRef(offer, product: product, plan: plan)
            if let terms = SubscriptionTerms.terms(of: ref, in: catalog),
                let first = SubscriptionTerms.offer(terms, ref: ref, product: product, storefront: storefront)
            {
                return first
            }
        }
        if request?.introductoryOverride ?? introEligible, let intro = product.introductoryOffer(for: plan) {
            let ref = SubscriptionOfferState.OfferRef(type: .introductory, id: nil, product: product.id, billingPlan: plan)
            if let first = SubscriptionTerms.offer(intro, ref: ref, product: product, storefront: storefront) { return first }
        }
        return SubscriptionTerms.regular(product, storefront: storefront, plan: plan)
    }

    /// Records what a period that opened under `terms` means for the offers: the transaction's
    /// offer fields, the offer in effect, a used introductory offer or win-back offer, the billing
    /// plan and the monthly plan's commitment. Emits `subscriptionOffersChanged` when what renewal
    /// information reports changed.
    mutating func recordOffers(
        _ terms: PeriodTerms, of product: Product, start: Timestamp, _ t: inout Transaction, _ sub: Subscription,
        into effects: inout Effects
    ) {
        let before = state.subscriptionOffers(sub.originalID)
        var offers = before ?? SubscriptionOfferState()
        t.offerType = terms.offerRef?.type ?? (terms.offer != nil ? .introductory : nil)
        t.offerID = terms.offerRef?.id
        t.offerPeriod = terms.offerPeriod
        t.billingPlan = product.offers.billingPlans.isEmpty ? nil : terms.billingPlan
        t.commitment = nil
        offers.current = terms.offerRef
        if let ref = terms.offerRef {
            if offers.pending == ref { offers.pending = nil }
            switch ref.type {
            case .introductory: offers.introductoryRedeemed = true
            case .winBack:
                if let id = ref.id { offers.winBackRedemptions[id] = (terms.offerPeriod ?? terms.period).advance(start) }
            case .promotional, .code: break
            }
        }
        if offers.pending?.product != sub.renewalProductID { offers.pending = nil }
        offers.billingPlan = terms.billingPlan
        if !offers.isCommitted { offers.renewalBillingPlan = terms.billingPlan }
        if terms.billingPlan == .monthly, terms.period == BillingPlan.monthlyPeriod, terms.offer != .freeTrial,
            let plan = product.offers.billingPlan(.monthly)
        {
            // A monthly payment: the next of the commitment, or the first of a new one. A free
            // trial is no payment: the twelve payments begin after it.
            if var c = offers.commitment, c.hasPaymentsLeft {
                c.billingPeriod += 1
                offers.commitment = c
            } else {
                offers.commitment = SubscriptionOfferState.Commitment(start: start, billingPeriod: 1)
            }
            if let c = offers.commitment {
                t.commitment = TransactionCommitment(
                    billingPeriodNumber: c.billingPeriod, totalBillingPeriods: BillingPlan.commitmentPeriods,
                    expiresDate: c.expiresDate, price: plan.commitmentPrice(in: t.storefront) ?? .zero)
            }
        } else if terms.billingPlan == .upFront {
            offers.commitment = nil
        }
        state.offers.subscriptions[sub.originalID] = offers
        noteOffersChanged(sub.originalID, from: before, to: offers, into: &effects)
    }

    /// Emits `subscriptionOffersChanged` when what renewal information reports of the
    /// subscription's offers changed (an introductory offer in use alone is already in its
    /// transactions, so it does not make one).
    mutating func noteOffersChanged(_ original: TransactionID, from before: SubscriptionOfferState?, into effects: inout Effects)
    {
        guard let after = state.subscriptionOffers(original) else { return }
        noteOffersChanged(original, from: before, to: after, into: &effects)
    }

    /// As `noteOffersChanged(_:from:into:)`, with the state after the change at hand.
    private mutating func noteOffersChanged(
        _ original: TransactionID, from before: SubscriptionOfferState?, to after: SubscriptionOfferState,
        into effects: inout Effects
    ) {
        guard !SubscriptionOfferState.reportsSame(before, after) else { return }
        emit(.subscriptionOffersChanged(original: original, after), into: &effects)
    }

    /// Whether a subscription is within a commitment with payments left: it renews each month
    /// whatever its auto-renew setting.
    func isCommitted(_ original: TransactionID) -> Bool {
        state.subscriptionOffers(original)?.isCommitted ?? false
    }
}

extension TransactionError {
    /// The error a purchase fails with when the App Store refuses its offer: StoreKit's code and
    /// message, with the reason.
    public init(offer error: OfferError) {
        let code = error.skErrorCode
        self.init(
            domain: TransactionError.skErrorDomain, code: code.rawValue, name: code.name,
            message: "\(code.message) (\(error.description))")
    }
}

extension Machine {
    /// An offer code redeemed for a consumable, non-consumable or non-renewing subscription: the
    /// purchase costs the code's one-time price (`offerDiscountType` ONE_TIME, `offerType` 3).
    mutating func applyOneTimeOffer(_ t: inout Transaction, product: Product) {
        guard let request = takeOfferRequest(t.id), case .code(let name)? = request.offer,
            let price = product.offers.offerCode(referenceName: name)?.oneTimePrice(in: t.storefront)
        else { return }
        t.price = price
        t.offer = .oneTime
        t.offerType = .code
        t.offerID = OfferID(name)
    }
}
