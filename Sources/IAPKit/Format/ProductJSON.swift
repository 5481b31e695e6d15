import IAPJSON

/// The public JSON shape of a product (SPEC section 4), localized for a storefront and locale.
///
/// Subscriptions also show their offers as StoreKit's `Product.SubscriptionInfo` does
/// (`introductoryOffer`, `promotionalOffers`, `winBackOffers`, `pricingTerms` for billing plans)
/// and `isEligibleForIntroOffer`: "true if the customer is eligible for an introductory offer on
/// this auto-renewable subscription, or any auto-renewable subscription in the same subscription
/// group", which "may be true even if you haven't set up an introductory offer" (StoreKit,
/// `isEligibleForIntroOffer`). Offer codes show for every product type.
public enum ProductJSON {
    /// Writes `p`; `isEligibleForIntroOffer` is the account's eligibility in the product's
    /// subscription group (nil for products that are not auto-renewable subscriptions).
    public static func write(
        _ p: Product, storefront: Storefront, locale: String, isEligibleForIntroOffer: Bool? = nil, into w: inout JSONWriter
    ) {
        let text = p.localization(for: locale)
        let price = p.price(in: storefront.code) ?? .zero
        w.beginObject()
        w.key("productIdentifier")
        w.string(p.id.rawValue)
        w.key("type")
        w.string(p.type.rawValue)
        w.key("localizedTitle")
        w.string(text.title)
        w.key("localizedDescription")
        w.string(text.description)
        w.key("locale")
        w.string(text.locale)
        w.key("price")
        w.string(price.decimalString(fractionDigits: storefront.fractionDigits))
        w.key("currency")
        w.string(storefront.currency)
        w.key("localizedPrice")
        w.string(storefront.localizedPrice(price))
        w.key("storefront")
        w.string(storefront.code)
        w.key("subscriptionPeriod")
        w.optionalString(p.subscriptionPeriod?.iso8601)
        w.key("subscriptionGroupIdentifier")
        w.optionalString(p.subscriptionGroup)
        w.key("subscriptionGroupLevel")
        if let level = p.groupLevel { w.int(level) } else { w.null() }
        w.key("introductoryOffer")
        if let offer = p.introductoryOffer {
            terms(offer, storefront: storefront, into: &w)
        } else {
            w.null()
        }
        w.key("isEligibleForIntroOffer")
        if p.type == .autoRenewable, let eligible = isEligibleForIntroOffer { w.bool(eligible) } else { w.null() }
        w.key("promotionalOffers")
        w.beginArray()
        for offer in p.offers.promotional {
            terms(offer.terms, storefront: storefront, into: &w) { w in
                w.key("offerIdentifier")
                w.string(offer.id.rawValue)
                w.key("referenceName")
                w.string(offer.referenceName)
            }
        }
        w.endArray()
        w.key("offerCodes")
        w.beginArray()
        for code in p.offers.codes {
            let head: (inout JSONWriter) -> Void = { w in
                w.key("referenceName")
                w.string(code.referenceName)
            }
            switch code.discount {
            case .subscription(let t):
                terms(t, storefront: storefront, into: &w) { w in
                    head(&w)
                    w.key("eligibility")
                    w.beginArray()
                    for e in code.eligibility { w.string(e.rawValue) }
                    w.endArray()
                }
            case .oneTime:
                w.beginObject()
                head(&w)
                w.key("offerDiscountType")
                w.string("ONE_TIME")
                writePrice(code.oneTimePrice(in: storefront.code), storefront: storefront, into: &w)
                w.endObject()
            }
        }
        w.endArray()
        w.key("winBackOffers")
        w.beginArray()
        for offer in p.offers.winBack {
            terms(offer.terms, storefront: storefront, into: &w) { w in
                w.key("offerIdentifier")
                w.string(offer.id.rawValue)
                w.key("referenceName")
                w.string(offer.referenceName)
                w.key("priority")
                w.string(offer.priority.rawValue)
                w.key("startDate")
                w.optionalString(offer.startDate.map { String($0.rfc3339.prefix(10)) })
                w.key("endDate")
                w.optionalString(offer.endDate.map { String($0.rfc3339.prefix(10)) })
                w.key("eligibility")
                switch offer.eligibility {
                case .whenChurned(let flag):
                    w.beginObject()
                    w.key("whenChurned")
                    w.bool(flag)
                    w.endObject()
                case .rules(let paid, let since, let wait):
                    w.beginObject()
                    w.key("paidSubscriptionDurationInMonths")
                    w.int(paid)
                    w.key("timeSinceLastSubscribedInMonths")
                    w.beginObject()
                    w.key("minimum")
                    w.int(since.lowerBound)
                    w.key("maximum")
                    w.int(since.upperBound)
                    w.endObject()
                    w.key("waitBetweenOffersInMonths")
                    if let wait { w.int(wait) } else { w.null() }
                    w.endObject()
                }
            }
        }
        w.endArray()
        w.key("pricingTerms")
        w.beginArray()
        if p.type == .autoRenewable {
            w.beginObject()
            w.key("billingPlan")
            w.string(BillingPlanType.upFront.rawValue)
            w.key("billingPeriod")
            w.optionalString(p.subscriptionPeriod?.iso8601)
            writePrice(p.price(in: storefront.code), storefront: storefront, into: &w)
            w.key("commitment")
            w.null()
            w.endObject()
            for plan in p.offers.billingPlans {
                w.beginObject()
                w.key("billingPlan")
                w.string(plan.type.rawValue)
                w.key("billingPeriod")
                w.string(BillingPlan.monthlyPeriod.iso8601)
                writePrice(plan.price(in: storefront.code), storefront: storefront, into: &w)
                w.key("commitment")
                w.beginObject()
                w.key("period")
                w.optionalString(p.subscriptionPeriod?.iso8601)
                w.key("billingPeriods")
                w.int(BillingPlan.commitmentPeriods)
                writePrice(plan.commitmentPrice(in: storefront.code), storefront: storefront, into: &w)
                w.endObject()
                w.key("introductoryOffer")
                if let intro = p.introductoryOffer(for: plan.type) {
                    terms(intro, storefront: storefront, into: &w)
                } else {
                    w.null()
                }
                w.endObject()
            }
        }
        w.endArray()
        w.key("downloadable")
        w.bool(!p.hostedContent.isEmpty)
        w.key("hostedContent")
        w.beginArray()
        for c in p.hostedContent {
            w.beginObject()
            w.key("contentIdentifier")
            w.string(c.contentIdentifier)
            w.key("contentVersion")
            w.string(c.version)
            w.key("contentLength")
            w.int(c.contentLength)
            w.endObject()
        }
        w.endArray()
        w.key("familyShareable")
        w.bool(p.familyShareable)
        w.endObject()
    }

    /// An offer's terms as an object: `extra` writes the kind's own keys first.
    static func terms(
        _ t: OfferTerms, storefront: Storefront, into w: inout JSONWriter, extra: (inout JSONWriter) -> Void = { _ in }
    ) {
        w.beginObject()
        extra(&w)
        w.key("paymentMode")
        w.string(t.paymentMode.rawValue)
        w.key("period")
        w.string(t.period.iso8601)
        w.key("numberOfPeriods")
        w.int(t.numberOfPeriods)
        w.key("offerPeriod")
        w.string(t.offerPeriod)
        writePrice(t.paymentMode == .freeTrial ? .zero : t.price(in: storefront.code), storefront: storefront, into: &w)
        w.key("billingPlan")
        w.string(t.billingPlan.rawValue)
        w.endObject()
    }

    /// `price` (a decimal string in the storefront's digits) and `localizedPrice`; both null
    /// where the offer or plan is not priced in the storefront.
    static func writePrice(_ price: Price?, storefront: Storefront, into w: inout JSONWriter) {
        w.key("price")
        w.optionalString(price?.decimalString(fractionDigits: storefront.fractionDigits))
        w.key("localizedPrice")
        w.optionalString(price.map { storefront.localizedPrice($0) })
    }
}
