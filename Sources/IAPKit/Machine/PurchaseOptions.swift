import IAPTime

/// The offer options of a purchase (`iapctl buy` options; StoreKit 2's `Product.PurchaseOption`,
/// StoreKit 1's `SKPayment.paymentDiscount`): at most one offer, the introductory offer
/// eligibility override, and the billing plan. Nothing here is trusted yet: the machine checks
/// signatures, nonces and eligibility before it charges anything.
public struct PurchaseOptions: Hashable, Sendable {
    /// The offer to redeem, as the app passed it.
    public enum Offer: Hashable, Sendable {
        /// `SKPaymentDiscount` / `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`.
        case promotional(PaymentDiscount)
        /// `promotionalOffer(_:compactJWS:)`: the offer id is inside the signed token.
        case promotionalJWS(String)
        /// An offer code, by reference name (StoreKit Test's `codeOffer(referenceName:)`).
        case code(referenceName: String)
        /// `winBackOffer(_:)`.
        case winBack(OfferID)
    }

    public var offer: Offer?
    /// `introductoryOfferEligibility(compactJWS:)`.
    public var introductoryEligibilityJWS: String?
    /// `billingPlanType(_:)`.
    public var billingPlan: BillingPlanType

    // MARK: - Backdated purchases (issue 15)

    /// StoreKit Test's `purchaseDate(_:renewalBehavior:)`: the purchase happens at this past
    /// date ("Specify a date in the past or the current moment. Dates in the future aren't
    /// valid"); nil means now.
    public var purchaseDate: Timestamp?
    /// What an auto-renewable bought at `purchaseDate` does up to now.
    public var renewalBehavior: RenewalBehavior = .renewUntilNow

    /// `Product.PurchaseOption.SubscriptionRenewalBehavior`.
    public enum RenewalBehavior: String, Hashable, Sendable, CaseIterable {
        /// "allows the subscription to renew continuously, up to the current date ... the testing
        /// environment generates transactions for all the subscription renewals up to the current
        /// date".
        case renewUntilNow = "renew-until-now"
        /// "cancels the subscription, resulting in only one subscription period": auto-renew is
        /// off from the purchase, so the subscription expires (VOLUNTARY) at the period's end.
        case cancelImmediately = "cancel-immediately"

        public static var names: [String] { allCases.map(\.rawValue) }
    }

    public init(offer: Offer? = nil, introductoryEligibilityJWS: String? = nil, billingPlan: BillingPlanType = .upFront) {
        self.offer = offer
        self.introductoryEligibilityJWS = introductoryEligibilityJWS
        self.billingPlan = billingPlan
    }

    /// The earliest purchase date: the Unix epoch (Apple's dates are milliseconds since 1970).
    public static let earliestPurchaseDate = Timestamp(milliseconds: 0)
}
