import IAPTime

/// A win-back offer of an auto-renewable subscription (App Store Connect "win-back offers",
/// iOS 18; Xcode's `winbackOffers`; StoreKit's `Product.SubscriptionInfo.winBackOffers`).
///
/// "A win-back offer is a free or discounted offer for an auto-renewable subscription for
/// eligible customers whose subscription is churned. A churned subscription is one that has an
/// expirationDate in the past, and a willAutoRenew value of false" (StoreKit, "Supporting
/// win-back offers in your app"). The App Store decides eligibility from rules set in App Store
/// Connect and lists the offers a customer may redeem, best first, in the renewal info's
/// `eligibleWinBackOfferIds`; "Subscriptions in a Billing Grace Period or billing retry state
/// aren't eligible for win-back offers" (App Store Server API, eligibleWinBackOfferIds).
public struct WinBackOffer: Hashable, Sendable {
    /// Who may redeem the offer.
    public enum Eligibility: Hashable, Sendable {
        /// App Store Connect's criteria (App Store Connect API `WinBackOffer.Attributes`):
        /// `customerEligibilityPaidSubscriptionDurationInMonths` (a minimum of paid months,
        /// counting "only the most recent consecutive months of paid service" in the group),
        /// `customerEligibilityTimeSinceLastSubscribedInMonths` (a minimum and maximum), and the
        /// optional `customerEligibilityWaitBetweenOffersInMonths` (after the offer's period ends,
        /// before the same offer may be redeemed again) (WWDC24 "Implement App Store Offers").
        case rules(paidMonths: Int, monthsSinceLastSubscribed: ClosedRange<Int>, waitBetweenOffersMonths: Int?)
        /// Xcode's per-offer toggle: "we added a toggle in Xcode to change the eligibility per
        /// offer, so you don't need to worry about subscription statuses, and other eligibility
        /// criteria" (WWDC24): eligible whenever the subscription is churned, or never.
        case whenChurned(Bool)
    }

    /// App Store Connect's offer priority: high-priority offers come first among the eligible ones.
    public enum Priority: String, Hashable, Sendable, CaseIterable {
        case high, normal
    }

    public let id: OfferID
    public let referenceName: String
    public let terms: OfferTerms
    public let eligibility: Eligibility
    public let priority: Priority
    /// The first and last day the offer is available (App Store Connect's `startDate` and
    /// `endDate`, days in UTC); nil for no limit.
    public let startDate: Timestamp?
    public let endDate: Timestamp?

    public init(
        id: OfferID, referenceName: String, terms: OfferTerms, eligibility: Eligibility, priority: Priority = .normal,
        startDate: Timestamp? = nil, endDate: Timestamp? = nil
    ) {
        self.id = id
        self.referenceName = referenceName
        self.terms = terms
        self.eligibility = eligibility
        self.priority = priority
        self.startDate = startDate
        self.endDate = endDate
    }

    /// Whether the offer is on sale at `date`: on or after its start day, before the end of its end day.
    public func isAvailable(at date: Timestamp) -> Bool {
        if let startDate, date < startDate { return false }
        if let endDate, date.milliseconds >= endDate.milliseconds + 86_400_000 { return false }
        return true
    }
}
