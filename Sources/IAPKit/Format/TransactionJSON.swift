import IAPJSON
import IAPTime

/// The public JSON shape of a transaction (SPEC section 4), written in declared key order.
///
/// Every command that prints transactions (`buy`, `queue`, `finish`, `dump`, events) goes through
/// `write`, so the shape is defined once. Dates come with `...Timestamp` twins in milliseconds.
public enum TransactionJSON {
    public static func write(_ t: Transaction, into w: inout JSONWriter) { write(t, serverAPI: nil, into: &w) }

    /// The transaction with what the App Store Server API recorded about it (`show`): the
    /// app account token Set App Account Token gave it (`appAccountToken`) and every Send
    /// Consumption Information request (`consumptionInformation`), members present only then.
    /// With `refundRequest` (issue 15), its refund request (`LifeJSON`), present only then.
    public static func write(
        _ t: Transaction, serverAPI record: ServerAPIRecord?, refundRequest: RefundRequest? = nil, into w: inout JSONWriter
    ) {
        w.beginObject()
        w.key("transactionIdentifier")
        w.decimalString(t.id.rawValue)
        w.key("originalTransactionIdentifier")
        w.decimalString(t.originalID.rawValue)
        w.key("productIdentifier")
        w.string(t.productID.rawValue)
        w.key("productType")
        w.string(t.productType.rawValue)
        w.key("quantity")
        w.int(t.quantity)
        w.key("userIdentifier")
        w.optionalString(t.userID?.rawValue)
        w.key("state")
        w.string(t.state.name)
        w.key("finished")
        w.bool(t.finished)
        w.key("transactionDate")
        w.timestamp(t.date)
        w.key("transactionTimestamp")
        w.int(t.date.milliseconds)
        w.key("originalTransactionDate")
        w.timestamp(t.originalDate)
        w.key("originalTransactionTimestamp")
        w.int(t.originalDate.milliseconds)
        w.key("error")
        if let e = t.state.error { writeError(e, into: &w) } else { w.null() }
        w.key("storefront")
        w.string(t.storefront)
        w.key("price")
        w.string(t.price.decimalString(fractionDigits: Storefront.named(t.storefront)?.fractionDigits ?? 2))
        w.key("currency")
        w.string(t.currency)
        w.key("charged")
        w.bool(t.charged)
        w.key("downloads")
        w.beginArray()
        for d in t.downloads { DownloadJSON.write(d, into: &w) }
        w.endArray()
        w.key("expiresDate")
        optionalDate(t.expiresDate, "expiresTimestamp", into: &w)
        w.key("webOrderLineItemIdentifier")
        if let n = t.webOrderLineItemID { w.decimalString(n) } else { w.null() }
        w.key("revocationDate")
        optionalDate(t.revocationDate, "revocationTimestamp", into: &w)
        w.key("revocationReason")
        if let r = t.revocationReason { w.int(r) } else { w.null() }
        // Only after an approved refund request (issue 15), so other transactions print as before.
        if let type = t.revocationType {
            w.key("revocationType")
            w.string(type.rawValue)
            w.key("revocationPercentage")
            if let p = t.revocationPercentage { w.int(p) } else { w.null() }
        }
        w.key("isUpgraded")
        w.bool(t.isUpgraded)
        w.key("offerType")
        w.optionalString(t.offer?.rawValue)
        // The offer keys are written only when they have a value, so a transaction bought
        // without an offer prints as it always has.
        if t.offer != nil {
            w.key("offer")
            OfferJSON.writeTransactionOffer(t, into: &w)
        }
        if let plan = t.billingPlan {
            w.key("billingPlan")
            w.string(plan.rawValue)
        }
        if t.commitment != nil {
            w.key("commitment")
            OfferJSON.writeTransactionCommitment(t, into: &w)
        }
        w.key("transactionReason")
        w.string(t.reason.rawValue)
        w.key("subscriptionGroupIdentifier")
        w.optionalString(t.subscriptionGroup)
        w.key("upgradeCredit")
        if let credit = t.upgradeCredit {
            w.string(credit.decimalString(fractionDigits: Storefront.named(t.storefront)?.fractionDigits ?? 2))
        } else {
            w.null()
        }
        // The App Store's order id (Look Up Order ID), null for what has no order.
        w.key("orderIdentifier")
        w.optionalString(OrderIdentifier.of(t))
        // Family Sharing: only a member's transaction has these (so the account's own print as
        // they always have): StoreKit 2's ownershipType, the member, and the revocation type.
        if let member = t.familyMember {
            w.key("inAppOwnershipType")
            w.string(t.inAppOwnershipType)
            w.key("familyMember")
            w.string(member)
            if t.revocationDate != nil, !t.isMemberPurchase {
                w.key("revocationType")
                w.string("FAMILY_REVOKE")
            }
        }
        if let token = record?.appAccountToken {
            w.key("appAccountToken")
            w.string(token)
        }
        if let consumption = record?.consumption, !consumption.isEmpty {
            w.key("consumptionInformation")
            w.beginArray()
            for info in consumption { ConsumptionInformationJSON.write(info, into: &w) }
            w.endArray()
        }
        if let q = refundRequest {
            w.key("refundRequest")
            LifeJSON.write(q, consumption: record?.consumption ?? [], into: &w)
        }
        w.endObject()
    }

    /// Writes a date value followed by its timestamp twin (the caller has written the date key).
    static func optionalDate(_ date: Timestamp?, _ twin: StaticString, into w: inout JSONWriter) {
        if let date {
            w.timestamp(date)
            w.key(twin)
            w.int(date.milliseconds)
        } else {
            w.null()
            w.key(twin)
            w.null()
        }
    }

    public static func writeError(_ e: TransactionError, into w: inout JSONWriter) {
        w.beginObject()
        w.key("domain")
        w.string(e.domain)
        w.key("code")
        w.int(e.code)
        w.key("name")
        w.string(e.name)
        w.key("message")
        w.string(e.message)
        w.endObject()
    }

    /// One transaction as a compact JSON string.
    public static func string(_ t: Transaction) -> String {
        var w = JSONWriter()
        write(t, into: &w)
        return w.string
    }
}

/// The JSON shape of a hosted-content download (`SKDownload`).
public enum DownloadJSON {
    public static func write(_ d: Download, into w: inout JSONWriter) {
        w.beginObject()
        w.key("contentIdentifier")
        w.string(d.contentIdentifier)
        w.key("contentVersion")
        w.string(d.contentVersion)
        w.key("state")
        w.string(d.state.rawValue)
        w.key("progress")
        w.numberLiteral(progressText(d.progress))
        w.key("downloadedBytes")
        w.int(d.downloadedBytes)
        w.key("contentLength")
        w.int(d.contentLength)
        w.key("error")
        if let e = d.error { TransactionJSON.writeError(e, into: &w) } else { w.null() }
        w.endObject()
    }

    /// Progress with at most four decimals, computed exactly so output never depends on
    /// floating-point printing.
    public static func progressText(_ p: Double) -> String {
        let scaled = Int((p * 10_000).rounded(.down))
        if scaled >= 10_000 { return "1" }
        if scaled <= 0 { return "0" }
        var digits = String(scaled)
        digits = String(repeating: "0", count: 4 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "0." + digits
    }
}
