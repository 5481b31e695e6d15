/// The length, price and offer of one billing period of an auto-renewable subscription, and the
/// rules that choose them: the one place the subscription engine (`Machine`) and the renewal
/// information (`RenewalInfo`) read the terms of a period, so what renewal info promises is what
/// the renewal charges.
///
/// An offer's terms apply by payment mode: a free trial or a pay-up-front offer is one period of
/// its whole duration (at no charge, or at the offer's price); pay as you go bills each of its
/// `numberOfPeriods` periods at the offer's price; then the subscription renews at the regular
/// price ("All subscriptions renew at the regular price when the introductory period is over",
/// StoreKit, "Implementing introductory offers in your app"). The monthly billing plan bills
/// every month (`BillingPlan.monthlyPeriod`) at the plan's price.
public struct PeriodTerms: Hashable, Sendable {
    public var period: SubscriptionPeriod
    public var price: Price
    /// The payment mode of the offer the period is under.
    public var offer: Transaction.OfferKind?
    /// Which offer that is.
    public var offerRef: SubscriptionOfferState.OfferRef?
    /// `offerPeriod`: the offer's whole duration.
    public var offerPeriod: SubscriptionPeriod?
    /// Pay-as-you-go periods still to come under the offer after this one.
    public var offerPeriodsLeft: Int = 0
    public var billingPlan: BillingPlanType = .upFront

    public init(
        period: SubscriptionPeriod, price: Price, offer: Transaction.OfferKind? = nil,
        offerRef: SubscriptionOfferState.OfferRef? = nil, offerPeriod: SubscriptionPeriod? = nil, offerPeriodsLeft: Int = 0,
        billingPlan: BillingPlanType = .upFront
    ) {
        self.period = period
        self.price = price
        self.offer = offer
        self.offerRef = offerRef
        self.offerPeriod = offerPeriod
        self.offerPeriodsLeft = offerPeriodsLeft
        self.billingPlan = billingPlan
    }
}

public enum SubscriptionTerms {
    /// A period without an offer: the product's period and price, or on the monthly plan one
    /// month at the plan's price (nil when the plan is not sold in the storefront).
    public static func regular(_ product: Product, storefront: String, plan: BillingPlanType = .upFront) -> PeriodTerms {
        switch plan {
        case .upFront:
            return PeriodTerms(
                period: product.subscriptionPeriod ?? SubscriptionPeriod(value: 1, unit: .month),
                price: product.price(in: storefront) ?? .zero)
        case .monthly:
            let price = product.offers.billingPlan(.monthly)?.price(in: storefront) ?? product.price(in: storefront) ?? .zero
            return PeriodTerms(period: BillingPlan.monthlyPeriod, price: price, billingPlan: .monthly)
        }
    }

    /// The first period under `terms` (an offer of `product`, named by `ref`); nil when the offer
    /// has no price in the storefront.
    public static func offer(
        _ terms: OfferTerms, ref: SubscriptionOfferState.OfferRef, product: Product, storefront: String
    ) -> PeriodTerms? {
        let kind = Transaction.OfferKind(terms.paymentMode)
        switch terms.paymentMode {
        case .freeTrial:
            return PeriodTerms(
                period: terms.duration, price: .zero, offer: kind, offerRef: ref, offerPeriod: terms.duration,
                billingPlan: terms.billingPlan)
        case .payUpFront:
            guard let price = terms.price(in: storefront) else { return nil }
            return PeriodTerms(
                period: terms.duration, price: price, offer: kind, offerRef: ref, offerPeriod: terms.duration,
                billingPlan: terms.billingPlan)
        case .payAsYouGo:
            guard let price = terms.price(in: storefront) else { return nil }
            return PeriodTerms(
                period: terms.period, price: price, offer: kind, offerRef: ref, offerPeriod: terms.duration,
                offerPeriodsLeft: terms.numberOfPeriods - 1, billingPlan: terms.billingPlan)
        }
    }

    /// The terms an offer reference stands for in `catalog`: the offer's terms, or nil when the
    /// catalog no longer has it.
    public static func terms(of ref: SubscriptionOfferState.OfferRef, in catalog: Catalog) -> OfferTerms? {
        guard let product = catalog[ref.product] else { return nil }
        switch ref.type {
        case .introductory: return product.introductoryOffer(for: ref.billingPlan)
        case .promotional: return ref.id.flatMap { product.offers.promotionalOffer($0)?.terms }
        case .code: return ref.id.flatMap { product.offers.offerCode(referenceName: $0.rawValue)?.terms }
        case .winBack: return ref.id.flatMap { product.offers.winBackOffer($0)?.terms }
        }
    }

    /// The next period of `sub` when it renews into `product` (its renewal product): an offer
    /// redeemed for the renewal starts; else the rest of a pay-as-you-go offer runs on (same
    /// product); else the regular price, in the billing plan the subscription renews in.
    public static func renewal(
        _ sub: Subscription, offers: SubscriptionOfferState?, product: Product, catalog: Catalog, storefront: String
    ) -> PeriodTerms {
        renewal(
            current: sub.productID, currentOffer: sub.offer, offerPeriodsLeft: sub.offerPeriodsLeft, offers: offers,
            product: product, catalog: catalog, storefront: storefront)
    }

    /// As `renewal(_:offers:product:catalog:storefront:)`, from what a subscription snapshot
    /// holds: the current period's product, its offer's payment mode and the pay-as-you-go
    /// periods left.
    public static func renewal(
        current: ProductID, currentOffer: Transaction.OfferKind?, offerPeriodsLeft: Int, offers: SubscriptionOfferState?,
        product: Product, catalog: Catalog, storefront: String
    ) -> PeriodTerms {
        // The plan renewed in: the monthly plan where the renewal product has one.
        var plan = offers?.isCommitted == true ? (offers?.billingPlan ?? .upFront) : (offers?.renewalBillingPlan ?? .upFront)
        if plan == .monthly && product.offers.billingPlan(.monthly) == nil { plan = .upFront }
        if let pending = offers?.pending, pending.product == product.id, let terms = terms(of: pending, in: catalog),
            let first = offer(terms, ref: pending, product: product, storefront: storefront)
        {
            return first
        }
        if product.id == current, offerPeriodsLeft > 0, currentOffer == .payAsYouGo {
            // The offer the current period is under; a store written before offers were
            // recorded has only introductory ones.
            let ref =
                offers?.current
                ?? SubscriptionOfferState.OfferRef(type: .introductory, id: nil, product: product.id, billingPlan: plan)
            if let terms = terms(of: ref, in: catalog), terms.paymentMode == .payAsYouGo, let price = terms.price(in: storefront)
            {
                return PeriodTerms(
                    period: terms.period, price: price, offer: .payAsYouGo, offerRef: ref, offerPeriod: terms.duration,
                    offerPeriodsLeft: offerPeriodsLeft - 1, billingPlan: terms.billingPlan)
            }
        }
        return regular(product, storefront: storefront, plan: plan)
    }
}
