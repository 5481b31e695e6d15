/// The offers of a product beyond its up-front introductory offer (`Product.introductoryOffer`):
/// the monthly plan's introductory offer, promotional offers, offer codes, win-back offers and
/// billing plans, each as App Store Connect and Xcode's StoreKit configuration editor set them up.
public struct ProductOffers: Hashable, Sendable {
    /// The introductory offer of the monthly billing plan (format-5 `introductoryOffers` hold one
    /// per plan); the up-front plan's is `Product.introductoryOffer`.
    public var monthlyIntroductoryOffer: IntroductoryOffer?
    public var promotional: [PromotionalOffer]
    public var codes: [OfferCode]
    public var winBack: [WinBackOffer]
    /// Billing plans besides up front: today at most the monthly plan.
    public var billingPlans: [BillingPlan]

    public init(
        monthlyIntroductoryOffer: IntroductoryOffer? = nil, promotional: [PromotionalOffer] = [], codes: [OfferCode] = [],
        winBack: [WinBackOffer] = [], billingPlans: [BillingPlan] = []
    ) {
        self.monthlyIntroductoryOffer = monthlyIntroductoryOffer
        self.promotional = promotional
        self.codes = codes
        self.winBack = winBack
        self.billingPlans = billingPlans
    }

    /// Whether there is nothing beyond the up-front introductory offer.
    public var isEmpty: Bool {
        monthlyIntroductoryOffer == nil && promotional.isEmpty && codes.isEmpty && winBack.isEmpty && billingPlans.isEmpty
    }

    public func promotionalOffer(_ id: OfferID) -> PromotionalOffer? { promotional.first { $0.id == id } }

    public func offerCode(referenceName: String) -> OfferCode? { codes.first { $0.referenceName == referenceName } }

    public func winBackOffer(_ id: OfferID) -> WinBackOffer? { winBack.first { $0.id == id } }

    public func billingPlan(_ type: BillingPlanType) -> BillingPlan? { billingPlans.first { $0.type == type } }
}
