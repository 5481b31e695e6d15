import IAPJSON

/// The payload of signed renewal information (`JWSRenewalInfo`): Apple's
/// `JWSRenewalInfoDecodedPayload` (App Store Server API).
///
/// Keys in the order of the App Store's own payloads: `expirationIntent`,
/// `originalTransactionId`, `autoRenewProductId`, `productId`, `autoRenewStatus`,
/// `isInBillingRetryPeriod`, `gracePeriodExpiresDate`, `offerType`, `renewalPrice`, `currency`,
/// `signedDate`, `environment`, `recentSubscriptionStartDate`, `renewalDate`,
/// `offerDiscountType`, `appAccountToken`, then the offer fields `offerIdentifier`,
/// `eligibleWinBackOfferIds`, `offerPeriod`, `renewalBillingPlanType` and `commitmentInfo`,
/// then `appTransactionId` (the account's); absent fields are left out. `autoRenewStatus` is an
/// integer (0 off, 1 on), dates are milliseconds since 1970, `renewalPrice` is in milliunits.
public enum SignedRenewalInfoPayload {
    public static func write(_ r: RenewalInfo, context: SignedDataContext, into w: inout JSONWriter) {
        w.beginObject()
        if let intent = r.expirationIntent {
            w.key("expirationIntent")
            w.int(intent)
        }
        w.key("originalTransactionId")
        w.decimalString(r.originalTransactionID.rawValue)
        w.key("autoRenewProductId")
        w.string(r.autoRenewProductID.rawValue)
        w.key("productId")
        w.string(r.productID.rawValue)
        w.key("autoRenewStatus")
        w.int(r.autoRenew ? 1 : 0)
        if let retrying = r.isInBillingRetryPeriod {
            w.key("isInBillingRetryPeriod")
            w.bool(retrying)
        }
        if let status = r.priceIncreaseStatus {
            w.key("priceIncreaseStatus")
            w.int(status)
        }
        if let grace = r.gracePeriodExpiresDate {
            w.key("gracePeriodExpiresDate")
            w.int(grace.milliseconds)
        }
        if let offer = r.renewalOffer {
            w.key("offerType")
            w.int(offer.type.rawValue)
        }
        if let price = r.renewalPrice, let currency = r.currency {
            w.key("renewalPrice")
            w.int(price.milliunits)
            w.key("currency")
            w.string(currency)
        }
        w.key("signedDate")
        w.int(context.signedDate.milliseconds)
        w.key("environment")
        w.string(context.environmentName)
        w.key("recentSubscriptionStartDate")
        w.int(r.recentSubscriptionStartDate.milliseconds)
        w.key("renewalDate")
        w.int(r.renewalDate.milliseconds)
        if let offer = r.renewalOffer {
            w.key("offerDiscountType")
            w.string(offer.kind.discountType)
        }
        if let token = context.appAccountToken(original: r.originalTransactionID, purchased: r.appAccountToken) {
            w.key("appAccountToken")
            w.string(token)
        }
        if let id = r.renewalOffer?.id {
            w.key("offerIdentifier")
            w.string(id.rawValue)
        }
        if !r.eligibleWinBackOfferIDs.isEmpty {
            w.key("eligibleWinBackOfferIds")
            w.beginArray()
            for id in r.eligibleWinBackOfferIDs { w.string(id.rawValue) }
            w.endArray()
        }
        if let period = r.renewalOffer?.period {
            w.key("offerPeriod")
            w.string(period.iso8601)
        }
        if let plan = r.renewalBillingPlan {
            w.key("renewalBillingPlanType")
            w.string(plan.serverName)
        }
        if let c = r.commitment {
            w.key("commitmentInfo")
            w.beginObject()
            w.key("commitmentAutoRenewProductId")
            w.string(c.autoRenewProductID.rawValue)
            w.key("commitmentAutoRenewStatus")
            w.int(c.autoRenew ? 1 : 0)
            w.key("commitmentRenewalBillingPlanType")
            w.string(c.renewalBillingPlan.serverName)
            w.key("commitmentRenewalDate")
            w.int(c.renewalDate.milliseconds)
            if let price = c.renewalPrice {
                w.key("commitmentRenewalPrice")
                w.int(price.milliunits)
            }
            w.endObject()
        }
        if let app = context.appTransactionID {
            w.key("appTransactionId")
            w.string(app)
        }
        w.endObject()
    }

    public static func bytes(_ r: RenewalInfo, context: SignedDataContext) -> [UInt8] {
        var w = JSONWriter(capacity: 512)
        write(r, context: context, into: &w)
        return w.bytes
    }
}
