/// What a purchase asked for beyond the product: an offer (already checked: its signature, nonce
/// and eligibility), the introductory offer eligibility a signed override set, and the billing
/// plan. The machine keeps it with the purchasing transaction until the purchase completes (at
/// once, or after Ask to Buy's approval), and applies it then.
public struct OfferRequest: Hashable, Sendable, Codable {
    /// An offer the purchase redeems.
    public enum Offer: Hashable, Sendable, Codable {
        case promotional(OfferID)
        case code(referenceName: String)
        case winBack(OfferID)

        public var type: OfferType {
            switch self {
            case .promotional: return .promotional
            case .code: return .code
            case .winBack: return .winBack
            }
        }

        /// The identifier signed data carries (`offerIdentifier`).
        public var id: OfferID {
            switch self {
            case .promotional(let id), .winBack(let id): return id
            case .code(let name): return OfferID(name)
            }
        }
    }

    public var offer: Offer?
    /// `introductoryOfferEligibility(compactJWS:)`: the server's decision, overriding the computed
    /// eligibility (true applies the introductory offer even if the account had one; false
    /// withholds it).
    public var introductoryOverride: Bool?
    public var billingPlan: BillingPlanType

    public init(offer: Offer? = nil, introductoryOverride: Bool? = nil, billingPlan: BillingPlanType = .upFront) {
        self.offer = offer
        self.introductoryOverride = introductoryOverride
        self.billingPlan = billingPlan
    }

    /// Whether the request changes nothing: no offer, no override, the up-front plan.
    public var isPlain: Bool { offer == nil && introductoryOverride == nil && billingPlan == .upFront }
}
