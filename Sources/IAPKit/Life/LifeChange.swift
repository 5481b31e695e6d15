/// What issue 15's refund requests and price increases did (`EventKind.life`), named in
/// `iapctl events` by `name`. Event kinds 200-224 (`EventRecordCodec`).
public enum LifeChange: Hashable, Sendable {
    /// `refund request`: the customer asked for a refund (CONSUMPTION_REQUEST for a consumable,
    /// a non-renewing or an auto-renewable subscription: "the customer initiated a refund request
    /// for a consumable in-app purchase or auto-renewable subscription, and the App Store is
    /// requesting that you provide consumption data"; nothing for a non-consumable).
    case refundRequested(Transaction, RefundRequest)
    /// `refund decline`: the App Store refused; nothing was revoked (REFUND_DECLINED: "the App
    /// Store declined a refund request").
    case refundDeclined(Transaction, RefundRequest)
    /// `refund reverse`: a refund was taken back after the customer's dispute; the transaction
    /// is no longer revoked and what it bought is back (REFUND_REVERSED: "the App Store reversed
    /// a previously granted refund due to a dispute that the customer raised ... reinstate the
    /// content or services that you revoked"). The subscription, if the refund had ended one.
    case refundReversed(Transaction, Subscription?)
    /// `price-increase`: a subscription's price went up in a storefront; `subscribers` is how
    /// many active subscribers it reaches (each gets a `priceConsentChanged`).
    case priceIncreaseAnnounced(PriceIncrease, subscribers: Int)
    /// A subscriber's side of a price increase: told (PRICE_INCREASE/PENDING with consent, else
    /// PRICE_INCREASE/ACCEPTED), accepted (PRICE_INCREASE/ACCEPTED) or declined (no
    /// notification; EXPIRED/PRICE_INCREASE follows at the renewal).
    case priceConsentChanged(Subscription, PriceConsent)

    public var name: String {
        switch self {
        case .refundRequested: return "refundRequested"
        case .refundDeclined: return "refundDeclined"
        case .refundReversed: return "refundReversed"
        case .priceIncreaseAnnounced: return "priceIncreaseAnnounced"
        case .priceConsentChanged: return "priceConsentChanged"
        }
    }

    public var transaction: Transaction? {
        switch self {
        case .refundRequested(let t, _), .refundDeclined(let t, _), .refundReversed(let t, _): return t
        case .priceIncreaseAnnounced, .priceConsentChanged: return nil
        }
    }

    /// The V2 notification (type, subtype) the change is, if Apple sends one.
    public var serverNotification: ServerNotification? {
        switch self {
        case .refundRequested(let t, _):
            return t.productType == .nonConsumable ? nil : ServerNotification("CONSUMPTION_REQUEST")
        case .refundDeclined: return ServerNotification("REFUND_DECLINED")
        case .refundReversed: return ServerNotification("REFUND_REVERSED")
        case .priceIncreaseAnnounced: return nil
        case .priceConsentChanged(_, let c):
            switch c.status {
            case .pending: return ServerNotification("PRICE_INCREASE", "PENDING")
            case .accepted: return ServerNotification("PRICE_INCREASE", "ACCEPTED")
            case .declined: return nil
            }
        }
    }
}
