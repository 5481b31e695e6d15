import IAPKit
import IAPTime

/// How subscriptions read for people: a table, or one line.
enum SubscriptionText {
    static func line(_ s: Subscription) -> String {
        var text = "\(s.status.name)  \(s.originalID)  \(s.productID)  expires \(s.expiresDate.rfc3339)"
        text += s.autoRenew ? "  auto-renew on" : "  auto-renew off"
        if s.renewalProductID != s.productID { text += "  renews as \(s.renewalProductID)" }
        if let grace = s.gracePeriodExpiresDate { text += "  grace until \(grace.rfc3339)" }
        if let retry = s.billingRetryEndDate { text += "  retrying until \(retry.rfc3339)" }
        if let intent = s.expirationIntent { text += "  intent \(intent.rawValue) (\(intentName(intent)))" }
        return text
    }

    /// What the table does not show of a subscription's offers: the offer the next renewal
    /// applies and the win-back offers it may redeem (nothing when there are neither).
    static func offerLines(_ s: Subscription, _ r: RenewalInfo) -> [String] {
        var lines: [String] = []
        if let offer = r.renewalOffer, s.status == .active || s.autoRenew {
            let id = offer.id.map { " \($0)" } ?? ""
            lines.append("\(s.originalID)  renews under the \(offer.type.name) offer\(id) (\(offer.kind.rawValue))")
        }
        if let c = r.commitment {
            lines.append(
                "\(s.originalID)  in a 12-month commitment until \(c.renewalDate.rfc3339); then \(c.autoRenew ? "renews" : "ends")"
            )
        }
        if !r.eligibleWinBackOfferIDs.isEmpty {
            lines.append("\(s.originalID)  win-back offers: \(r.eligibleWinBackOfferIDs.map(\.rawValue).joined(separator: ", "))")
        }
        return lines
    }

    static func intentName(_ intent: Subscription.ExpirationIntent) -> String {
        switch intent {
        case .cancelled: return "cancelled"
        case .billingError: return "billing error"
        case .priceIncreaseDeclined: return "price increase declined"
        case .productUnavailable: return "product unavailable"
        case .unknown: return "unknown"
        }
    }

    static func table(_ subs: [Subscription], _ nonRenewing: [NonRenewingEntitlement], clock: Timestamp) -> String {
        var table = TextTable(["ORIGINAL", "PRODUCT", "STATUS", "EXPIRES", "AUTO-RENEW", "RENEWS AS", "INTENT"])
        for s in subs {
            table.add([
                s.originalID.description, s.productID.rawValue, s.status.name, s.expiresDate.rfc3339, s.autoRenew ? "on" : "off",
                s.renewalProductID.rawValue, s.expirationIntent.map { "\($0.rawValue) \(intentName($0))" } ?? "-",
            ])
        }
        for e in nonRenewing {
            table.add([
                e.firstID.description, e.productID.rawValue, e.statusName(at: clock), e.expiresDate.rfc3339, "-", "-", "-",
            ])
        }
        return table.rendered
    }
}
