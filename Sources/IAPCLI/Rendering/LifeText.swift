import IAPKit

/// How issue 15's refund requests and price increases read for people.
enum LifeText {
    static func refundLine(_ t: Transaction, _ q: RefundRequest?, consumption: Int) -> String {
        guard let q else { return "refund of \(t.id) reversed: the entitlement is back" }
        var text = "refund request of \(t.id) (\(t.productID)) \(q.status.name)"
        switch q.status {
        case .open:
            text += " since \(q.requested.rfc3339)"
            if let reason = q.reason { text += ", reason: \(reason)" }
        case .approved(let p): text += ": \(p)% refunded (\(p == 100 ? "REFUND_FULL" : "REFUND_PRORATED"))"
        case .declined: text += ": nothing revoked"
        case .reversed: text += ": the refund was taken back, the entitlement is back"
        }
        text += "; consumption information received: \(consumption)"
        return text
    }

    /// `price-increase`'s first line: the increase and how many subscribers were told.
    static func increaseLine(_ p: PriceIncrease, subscribers n: Int) -> String {
        "price of \(p.productID) in \(p.storefront) raised\(p.consentRequired ? " (consent required)" : ""): \(n) subscriber\(n == 1 ? "" : "s") told"
    }

    /// A subscriber's price consent changed, as `price-increase` and `price-consent` print it.
    static func consentLine(_ original: TransactionID, _ c: PriceConsent) -> String {
        "subscription \(original): price increase \(c.status.rawValue)"
    }
}
