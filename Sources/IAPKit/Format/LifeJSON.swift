import IAPJSON
import IAPTime

/// The JSON of issue 15's refund requests and price increases: a refund request (with the
/// consumption information the backend sent for its transaction), a price increase, a
/// subscriber's consent, and the members their events add.
public enum LifeJSON {
    /// `{"transactionIdentifier", "status", "reason", "requestDate", "requestTimestamp",
    /// "decisionDate", "decisionTimestamp", "percent", "consumptionInformation": [...]}`.
    public static func write(_ q: RefundRequest, consumption: [ConsumptionInformation], into w: inout JSONWriter) {
        w.beginObject()
        w.key("transactionIdentifier")
        w.decimalString(q.transactionID.rawValue)
        w.key("status")
        w.string(q.status.name)
        w.key("reason")
        w.optionalString(q.reason)
        w.key("requestDate")
        TransactionJSON.optionalDate(q.requested, "requestTimestamp", into: &w)
        w.key("decisionDate")
        TransactionJSON.optionalDate(q.decided, "decisionTimestamp", into: &w)
        w.key("percent")
        switch q.status {
        case .approved(let p), .reversed(let p): w.int(p)
        case .open, .declined: w.null()
        }
        w.key("consumptionInformation")
        w.beginArray()
        for info in consumption { ConsumptionInformationJSON.write(info, into: &w) }
        w.endArray()
        w.endObject()
    }

    public static func write(_ p: PriceIncrease, into w: inout JSONWriter) {
        w.beginObject()
        w.key("productIdentifier")
        w.string(p.productID.rawValue)
        w.key("storefront")
        w.string(p.storefront)
        w.key("price")
        let currency = Storefront.named(p.storefront)?.currency ?? ""
        w.string(p.price.decimalString(fractionDigits: SubscriptionJSON.fractionDigits(of: currency)))
        w.key("currency")
        w.string(currency)
        w.key("consentRequired")
        w.bool(p.consentRequired)
        w.key("date")
        TransactionJSON.optionalDate(p.date, "timestamp", into: &w)
        w.endObject()
    }

    public static func write(_ c: PriceConsent, into w: inout JSONWriter) {
        w.beginObject()
        w.key("productIdentifier")
        w.string(c.productID.rawValue)
        w.key("price")
        w.string(c.price.decimalString(fractionDigits: SubscriptionJSON.fractionDigits(of: c.currency)))
        w.key("currency")
        w.string(c.currency)
        w.key("status")
        w.string(c.status.rawValue)
        w.key("priceIncreaseStatus")
        w.int(c.priceIncreaseStatus)
        w.endObject()
    }

    /// The members an event adds after `seq`, `name`, `date`.
    static func writeEventFields(_ change: LifeChange, _ kind: EventKind, into w: inout JSONWriter) {
        switch change {
        case .refundRequested(let t, let q), .refundDeclined(let t, let q):
            w.key("refundRequest")
            write(q, consumption: [], into: &w)
            EventJSON.transactionAndSubscription(t, nil, kind, into: &w)
        case .refundReversed(let t, let s):
            EventJSON.transactionAndSubscription(t, s, kind, into: &w)
        case .priceIncreaseAnnounced(let p, let n):
            w.key("priceIncrease")
            write(p, into: &w)
            w.key("subscribers")
            w.int(n)
        case .priceConsentChanged(let s, let c):
            w.key("priceConsent")
            write(c, into: &w)
            EventJSON.transactionAndSubscription(nil, s, kind, into: &w)
        }
    }
}
