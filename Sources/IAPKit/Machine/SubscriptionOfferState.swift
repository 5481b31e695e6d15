import IAPTime

/// What the store keeps of a subscription's offers and billing plan, beside the `Subscription`
/// record (keyed by the same original transaction id): the offer the current period is under,
/// an offer waiting for the next renewal, the introductory offer and win-back offers redeemed,
/// and the monthly plan's commitment.
public struct SubscriptionOfferState: Hashable, Sendable, Codable {
    /// An offer of the catalog, by kind and identifier (nil for an introductory offer), with the
    /// product and billing plan it belongs to: enough to find its terms again.
    public struct OfferRef: Hashable, Sendable, Codable {
        public var type: OfferType
        public var id: OfferID?
        public var product: ProductID
        public var billingPlan: BillingPlanType

        public init(type: OfferType, id: OfferID?, product: ProductID, billingPlan: BillingPlanType) {
            self.type = type
            self.id = id
            self.product = product
            self.billingPlan = billingPlan
        }
    }

    /// The monthly plan's twelve-payment commitment. Whether another commitment follows
    /// (`commitmentAutoRenewStatus`) is the subscription's auto-renew setting: turning it off
    /// during a commitment stops the next commitment, while the payments left in this one go on
    /// (the customer committed to twelve payments; see docs/offers.md, "Billing plans", for the
    /// sources: WWDC26 "What's new in Apple In-App Purchase", `commitmentAutoRenewStatus`).
    public struct Commitment: Hashable, Sendable, Codable {
        /// When the commitment's first payment began.
        public var start: Timestamp
        /// The payment the current period is, 1 to 12 (`billingPeriodNumber`).
        public var billingPeriod: Int

        public init(start: Timestamp, billingPeriod: Int) {
            self.start = start
            self.billingPeriod = billingPeriod
        }

        /// Whether payments of this commitment are still due after the current period.
        public var hasPaymentsLeft: Bool { billingPeriod < BillingPlan.commitmentPeriods }

        /// When the commitment ends: twelve months after it began.
        public var expiresDate: Timestamp {
            SubscriptionPeriod(value: BillingPlan.commitmentPeriods, unit: .month).advance(start)
        }
    }

    /// The offer the current period is under (with `Subscription.offerPeriodsLeft`, the
    /// pay-as-you-go periods still to come under it).
    public var current: OfferRef?
    /// An offer redeemed while subscribed, applying from the next renewal (an offer code or
    /// promotional offer for the active product, or with a downgrade).
    public var pending: OfferRef?
    /// Whether the group's introductory offer was used.
    public var introductoryRedeemed: Bool
    /// Each win-back offer redeemed, with when its offer period ended (the start of App Store
    /// Connect's "wait between offers").
    public var winBackRedemptions: [OfferID: Timestamp]
    /// The billing plan of the current period.
    public var billingPlan: BillingPlanType
    /// The billing plan the subscription renews in (`renewalBillingPlanType`): the current one,
    /// unless the customer chose another; within a commitment it applies when the commitment ends.
    public var renewalBillingPlan: BillingPlanType
    /// The monthly plan's commitment, while on it.
    public var commitment: Commitment?

    public init(
        current: OfferRef? = nil, pending: OfferRef? = nil, introductoryRedeemed: Bool = false,
        winBackRedemptions: [OfferID: Timestamp] = [:], billingPlan: BillingPlanType = .upFront,
        renewalBillingPlan: BillingPlanType? = nil, commitment: Commitment? = nil
    ) {
        self.current = current
        self.pending = pending
        self.introductoryRedeemed = introductoryRedeemed
        self.winBackRedemptions = winBackRedemptions
        self.billingPlan = billingPlan
        self.renewalBillingPlan = renewalBillingPlan ?? billingPlan
        self.commitment = commitment
    }

    /// Whether the subscription is within a commitment with payments still to come: it renews
    /// each month whatever its auto-renew setting, and plan changes wait for the commitment's end.
    public var isCommitted: Bool { commitment?.hasPaymentsLeft ?? false }

    /// Whether renewal information reports the same of `a` and `b`: an introductory offer in
    /// use, and whether one was used, are already in the transactions, so they are not reported;
    /// no state reports as a new one does. Compared field by field, without copies: a renewal
    /// asks each time (`SubscriptionOfferStateTests` checks it against the copy-and-compare
    /// definition for a change of every field).
    static func reportsSame(_ a: SubscriptionOfferState?, _ b: SubscriptionOfferState?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, nil): return a.reports(sameAs: SubscriptionOfferState())
        case (nil, let b?): return b.reports(sameAs: SubscriptionOfferState())
        case (let a?, let b?): return a.reports(sameAs: b)
        }
    }

    /// Every stored property but `introductoryRedeemed`, and `current` unless introductory.
    private func reports(sameAs other: SubscriptionOfferState) -> Bool {
        func reported(_ ref: OfferRef?) -> OfferRef? { ref?.type == .introductory ? nil : ref }
        return pending == other.pending && billingPlan == other.billingPlan
            && renewalBillingPlan == other.renewalBillingPlan && commitment == other.commitment
            && reported(current) == reported(other.current) && winBackRedemptions == other.winBackRedemptions
    }
}

extension OfferID: CodingKeyRepresentable {
    public var codingKey: any CodingKey { Key(stringValue: rawValue) }

    public init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
