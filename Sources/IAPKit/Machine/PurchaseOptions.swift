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

    public init(offer: Offer? = nil, introductoryEligibilityJWS: String? = nil, billingPlan: BillingPlanType = .upFront) {
        self.offer = offer
        self.introductoryEligibilityJWS = introductoryEligibilityJWS
        self.billingPlan = billingPlan
    }
}
