import IAPJSON

/// The JSON shapes of offers in iapctl's output: a transaction's `offer`, a subscription's
/// offer state, a subscription offer key.
public enum OfferJSON {
    /// A transaction's offer: `{type, offerType, identifier, paymentMode, offerDiscountType,
    /// offerPeriod}`, or null.
    public static func writeTransactionOffer(_ t: Transaction, into w: inout JSONWriter) {
        guard let kind = t.offer else { return w.null() }
        let type = t.offerType ?? .introductory
        w.beginObject()
        w.key("type")
        w.string(type.name)
        w.key("offerType")
        w.int(type.rawValue)
        w.key("identifier")
        w.optionalString(t.offerID?.rawValue)
        w.key("paymentMode")
        w.string(kind.rawValue)
        w.key("offerDiscountType")
        w.string(kind.discountType)
        w.key("offerPeriod")
        w.optionalString(t.offerPeriod?.iso8601)
        w.endObject()
    }

    /// A monthly-plan period's place in its commitment, or null.
    public static func writeTransactionCommitment(_ t: Transaction, into w: inout JSONWriter) {
        guard let c = t.commitment else { return w.null() }
        w.beginObject()
        w.key("billingPeriodNumber")
        w.int(c.billingPeriodNumber)
        w.key("totalBillingPeriods")
        w.int(c.totalBillingPeriods)
        w.key("commitmentExpiresDate")
        TransactionJSON.optionalDate(c.expiresDate, "commitmentExpiresTimestamp", into: &w)
        w.key("commitmentPrice")
        w.string(c.price.decimalString(fractionDigits: Storefront.named(t.storefront)?.fractionDigits ?? 2))
        w.endObject()
    }

    public static func writeRef(_ ref: SubscriptionOfferState.OfferRef?, into w: inout JSONWriter) {
        guard let ref else { return w.null() }
        w.beginObject()
        w.key("type")
        w.string(ref.type.name)
        w.key("identifier")
        w.optionalString(ref.id?.rawValue)
        w.key("productIdentifier")
        w.string(ref.product.rawValue)
        w.key("billingPlan")
        w.string(ref.billingPlan.rawValue)
        w.endObject()
    }

    /// A subscription's offer state.
    public static func writeSubscriptionOffers(_ s: SubscriptionOfferState, into w: inout JSONWriter) {
        w.beginObject()
        w.key("currentOffer")
        writeRef(s.current, into: &w)
        w.key("pendingOffer")
        writeRef(s.pending, into: &w)
        w.key("introductoryOfferRedeemed")
        w.bool(s.introductoryRedeemed)
        w.key("winBackRedemptions")
        w.beginArray()
        for (id, end) in s.winBackRedemptions.sorted(by: { $0.key < $1.key }) {
            w.beginObject()
            w.key("offerIdentifier")
            w.string(id.rawValue)
            w.key("offerEndDate")
            TransactionJSON.optionalDate(end, "offerEndTimestamp", into: &w)
            w.endObject()
        }
        w.endArray()
        w.key("billingPlan")
        w.string(s.billingPlan.rawValue)
        w.key("renewalBillingPlan")
        w.string(s.renewalBillingPlan.rawValue)
        w.key("commitment")
        if let c = s.commitment {
            w.beginObject()
            w.key("startDate")
            TransactionJSON.optionalDate(c.start, "startTimestamp", into: &w)
            w.key("billingPeriodNumber")
            w.int(c.billingPeriod)
            w.key("totalBillingPeriods")
            w.int(BillingPlan.commitmentPeriods)
            w.key("expiresDate")
            TransactionJSON.optionalDate(c.expiresDate, "expiresTimestamp", into: &w)
            w.endObject()
        } else {
            w.null()
        }
        w.endObject()
    }

    /// A subscription offer key: its id, where it came from and its fingerprint.
    public static func writeKey(_ key: OfferKeyRecord, into w: inout JSONWriter) {
        w.beginObject()
        w.key("keyIdentifier")
        w.string(key.id)
        w.key("origin")
        w.string(key.origin.rawValue)
        w.key("fingerprint")
        w.string(key.fingerprint)
        w.endObject()
    }
}
