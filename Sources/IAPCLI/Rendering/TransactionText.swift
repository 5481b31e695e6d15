import IAPKit

/// How transactions read for people: one summary line, or a table.
enum TransactionText {
    static func line(_ t: Transaction) -> String {
        var text = "\(t.state.name)  \(t.id)  \(t.productID)"
        if t.quantity != 1 { text += "  x\(t.quantity)" }
        if let storefront = Storefront.named(t.storefront) {
            text += "  \(storefront.localizedPrice(t.price * t.quantity))"
            if !t.charged { text += " (not charged)" }
        }
        if t.originalID != t.id { text += "  original \(t.originalID)" }
        if let kind = t.offer {
            let type = t.offerType ?? .introductory
            text += "  offer \(type.name)\(t.offerID.map { " \($0)" } ?? "") \(kind.rawValue)"
            if let period = t.offerPeriod { text += " \(period.iso8601)" }
        }
        if let c = t.commitment { text += "  monthly plan \(c.billingPeriodNumber)/\(c.totalBillingPeriods)" }
        if let e = t.state.error { text += "  \(e.domain) \(e.code) \(e.name): \(e.message)" }
        if let user = t.userID { text += "  user \(user.rawValue.prefix(12))…" }
        if t.finished { text += "  finished" }
        return text
    }

    static func table(_ ts: [Transaction]) -> String {
        var table = TextTable(["ID", "STATE", "PRODUCT", "QTY", "DATE", "ORIGINAL", "FINISHED"])
        for t in ts {
            table.add([
                t.id.description, t.state.name, t.productID.rawValue, String(t.quantity), t.date.rfc3339,
                t.originalID == t.id ? "-" : t.originalID.description, t.finished ? "yes" : "no",
            ])
        }
        return table.rendered
    }
}
