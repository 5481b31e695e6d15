/// What a subscription offer charges: a free trial, pay as you go, or pay up front, for a number
/// of periods, priced per storefront (StoreKit's `Product.SubscriptionOffer`: `paymentMode`,
/// `period`, `periodCount`, `price`; StoreKit 1's `SKProductDiscount`).
///
/// Every kind of subscription offer (introductory, promotional, offer code, win-back) has these
/// terms; "All subscriptions renew at the regular price when the introductory period is over"
/// (StoreKit, "Implementing introductory offers in your app"), and the same holds for the others.
/// Offers belong to one billing plan (Xcode's `billingPlanType` on each offer).
public struct OfferTerms: Hashable, Sendable {
    /// `Product.SubscriptionOffer.PaymentMode`; in signed data `offerDiscountType` `FREE_TRIAL`,
    /// `PAY_AS_YOU_GO`, `PAY_UP_FRONT`.
    public enum PaymentMode: String, Sendable, CaseIterable {
        case freeTrial, payAsYouGo, payUpFront

        /// The App Store Server API's `offerDiscountType`.
        public var discountType: String {
            switch self {
            case .freeTrial: return "FREE_TRIAL"
            case .payAsYouGo: return "PAY_AS_YOU_GO"
            case .payUpFront: return "PAY_UP_FRONT"
            }
        }
    }

    public let paymentMode: PaymentMode
    /// One offer period: what pay as you go bills each time (`P1M`); for a free trial or pay up
    /// front, the offer lasts `numberOfPeriods` of these.
    public let period: SubscriptionPeriod
    public let numberOfPeriods: Int
    /// Price per storefront for pay-as-you-go (per period) and pay-up-front (total); empty for a trial.
    public let prices: [Product.StorefrontPrice]
    /// As `Product.anyStorefront`: the one price of a `.storekit` offer applies in every storefront.
    public let anyStorefront: Bool
    /// The billing plan the offer is set up for.
    public let billingPlan: BillingPlanType

    public init(
        paymentMode: PaymentMode, period: SubscriptionPeriod, numberOfPeriods: Int, prices: [Product.StorefrontPrice],
        anyStorefront: Bool = false, billingPlan: BillingPlanType = .upFront
    ) {
        self.paymentMode = paymentMode
        self.period = period
        self.numberOfPeriods = numberOfPeriods
        self.prices = prices
        self.anyStorefront = anyStorefront
        self.billingPlan = billingPlan
    }

    /// The offer's price in `storefront`, or nil when it has none there (a free trial has none).
    public func price(in storefront: String) -> Price? {
        Product.price(prices, anyStorefront: anyStorefront, in: storefront)
    }

    /// Whether the offer can be applied in `storefront`: a free trial everywhere, a paid offer
    /// where it has a price (StoreKit's `invalidOfferPrice` otherwise).
    public func isPriced(in storefront: String) -> Bool {
        paymentMode == .freeTrial || price(in: storefront) != nil
    }

    /// The whole time the offer covers: `numberOfPeriods` periods (`P1M` x 3 is `P3M`).
    public var duration: SubscriptionPeriod {
        SubscriptionPeriod(value: period.value * numberOfPeriods, unit: period.unit)
    }

    /// The App Store Server API's `offerPeriod`: the offer's duration as an ISO 8601 period.
    public var offerPeriod: String { duration.iso8601 }
}

/// An introductory offer of an auto-renewable subscription (`SKProductDiscount`,
/// `Product.SubscriptionInfo.introductoryOffer`): its terms, nothing more. "You can make
/// introductory offers to customers who haven't previously received an introductory offer for
/// the given product, or for any products in the same subscription group" (StoreKit,
/// "Implementing introductory offers in your app").
public typealias IntroductoryOffer = OfferTerms
