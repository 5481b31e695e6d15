import IAPJSON
import IAPTime

/// The public JSON shape of a subscription: what `iapctl subscriptions` prints and subscription
/// events carry, with the fields of `pending_renewal_info` (REFERENCE section 6) under StoreKit 2's
/// names. Keys are in declared order; every date has its `...Timestamp` twin.
public enum SubscriptionJSON {
    /// A subscription; with `renewal` (its renewal info now) and `offers` (its offer state), what
    /// `iapctl subscriptions` adds after the members above: `renewalOffer` (the offer the next
    /// renewal applies, as signed renewal info reports it), `renewalPrice`,
    /// `eligibleWinBackOfferIds`, and `offers` (the offer in effect and waiting, the billing plan
    /// and commitment; null for a store from before offers were recorded).
    public static func write(
        _ s: Subscription, renewal: RenewalInfo? = nil, offers: SubscriptionOfferState? = nil, into w: inout JSONWriter
    ) {
        w.beginObject()
        w.key("originalTransactionIdentifier")
        w.decimalString(s.originalID.rawValue)
        w.key("productIdentifier")
        w.string(s.productID.rawValue)
        w.key("productType")
        w.string(ProductType.autoRenewable.rawValue)
        w.key("subscriptionGroupIdentifier")
        w.string(s.group)
        writeRenewalState(s, into: &w)
        w.key("billingRetryEndDate")
        TransactionJSON.optionalDate(s.billingRetryEndDate, "billingRetryEndTimestamp", into: &w)
        w.key("latestTransactionIdentifier")
        w.decimalString(s.latestID.rawValue)
        w.key("originalPurchaseDate")
        TransactionJSON.optionalDate(s.originalDate, "originalPurchaseTimestamp", into: &w)
        w.key("periodStartDate")
        TransactionJSON.optionalDate(s.periodStart, "periodStartTimestamp", into: &w)
        w.key("webOrderLineItemIdentifier")
        w.decimalString(s.webOrderLineItemID)
        w.key("offerType")
        w.optionalString(s.offer?.rawValue)
        w.key("price")
        w.string(s.periodPrice.decimalString(fractionDigits: fractionDigits(of: s.currency)))
        w.key("currency")
        w.string(s.currency)
        w.key("upgradeCredit")
        if let credit = s.upgradeCredit {
            w.string(credit.decimalString(fractionDigits: fractionDigits(of: s.currency)))
        } else {
            w.null()
        }
        w.key("renewalCount")
        w.int(s.renewals)
        var revocation: (Timestamp, Int)?
        if case .revoked(let date, let reason) = s.status { revocation = (date, reason) }
        w.key("revocationDate")
        TransactionJSON.optionalDate(revocation?.0, "revocationTimestamp", into: &w)
        w.key("revocationReason")
        if let reason = revocation?.1 { w.int(reason) } else { w.null() }
        w.key("userIdentifier")
        w.optionalString(s.userID?.rawValue)
        if let renewal {
            w.key("renewalOffer")
            if let offer = renewal.renewalOffer {
                w.beginObject()
                w.key("type")
                w.string(offer.type.name)
                w.key("offerType")
                w.int(offer.type.rawValue)
                w.key("identifier")
                w.optionalString(offer.id?.rawValue)
                w.key("paymentMode")
                w.string(offer.kind.rawValue)
                w.key("offerDiscountType")
                w.string(offer.kind.discountType)
                w.key("offerPeriod")
                w.optionalString(offer.period?.iso8601)
                w.endObject()
            } else {
                w.null()
            }
            w.key("renewalPrice")
            if let price = renewal.renewalPrice, let currency = renewal.currency {
                w.string(price.decimalString(fractionDigits: fractionDigits(of: currency)))
            } else {
                w.null()
            }
            // Only while a price increase waits for the renewal (issue 15).
            if let status = renewal.priceIncreaseStatus {
                w.key("priceIncreaseStatus")
                w.int(status)
            }
            w.key("eligibleWinBackOfferIds")
            w.beginArray()
            for id in renewal.eligibleWinBackOfferIDs { w.string(id.rawValue) }
            w.endArray()
            w.key("offers")
            if let offers { OfferJSON.writeSubscriptionOffers(offers, into: &w) } else { w.null() }
        }
        w.endObject()
    }

    /// The renewal information of a subscription, as subscription events carry it: the fields of
    /// StoreKit 2's `RenewalInfo` (App Store Server Notifications' `signedRenewalInfo`) plus the
    /// status and expiry, and nothing a consumer of one notification does not need.
    public static func writeRenewalInfo(_ s: Subscription, into w: inout JSONWriter) {
        w.beginObject()
        w.key("originalTransactionIdentifier")
        w.decimalString(s.originalID.rawValue)
        w.key("productIdentifier")
        w.string(s.productID.rawValue)
        writeRenewalState(s, into: &w)
        w.endObject()
    }

    /// A non-renewing subscription in the same shape: no group, no auto-renewal, the status on the
    /// store's clock, and how many purchases made up the time.
    public static func write(_ e: NonRenewingEntitlement, clock: Timestamp, into w: inout JSONWriter) {
        w.beginObject()
        w.key("originalTransactionIdentifier")
        w.decimalString(e.firstID.rawValue)
        w.key("productIdentifier")
        w.string(e.productID.rawValue)
        w.key("productType")
        w.string(ProductType.nonRenewing.rawValue)
        w.key("subscriptionGroupIdentifier")
        w.null()
        w.key("status")
        w.string(e.statusName(at: clock))
        w.key("expiresDate")
        TransactionJSON.optionalDate(e.expiresDate, "expiresTimestamp", into: &w)
        w.key("autoRenewStatus")
        w.bool(false)
        w.key("autoRenewProductIdentifier")
        w.null()
        w.key("expirationIntent")
        w.null()
        w.key("latestTransactionIdentifier")
        w.decimalString(e.latestID.rawValue)
        w.key("purchaseCount")
        w.int(e.purchases)
        w.key("revocationDate")
        TransactionJSON.optionalDate(e.revocation?.date, "revocationTimestamp", into: &w)
        w.key("revocationReason")
        if let reason = e.revocation?.reason { w.int(reason) } else { w.null() }
        w.endObject()
    }

    static func fractionDigits(of currency: String) -> Int {
        Storefront.all.first { $0.currency == currency }?.fractionDigits ?? 2
    }

    /// The renewal state both shapes share, in one order: status through the grace period.
    static func writeRenewalState(_ s: Subscription, into w: inout JSONWriter) {
        w.key("status")
        w.string(s.status.name)
        w.key("expiresDate")
        TransactionJSON.optionalDate(s.expiresDate, "expiresTimestamp", into: &w)
        w.key("autoRenewStatus")
        w.bool(s.autoRenew)
        w.key("autoRenewProductIdentifier")
        w.string(s.renewalProductID.rawValue)
        w.key("expirationIntent")
        if let intent = s.expirationIntent { w.int(intent.rawValue) } else { w.null() }
        w.key("isInBillingRetryPeriod")
        w.bool(s.isInBillingRetry)
        w.key("gracePeriodExpiresDate")
        TransactionJSON.optionalDate(s.gracePeriodExpiresDate, "gracePeriodExpiresTimestamp", into: &w)
    }
}
