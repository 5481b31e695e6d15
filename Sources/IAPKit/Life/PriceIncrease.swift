import IAPTime

/// A raised price of an auto-renewable subscription in one storefront (`iapctl price-increase`,
/// issue 15 item 1): what App Store Connect's price change does, and what SKTestSession's
/// `requestPriceIncreaseConsent(forProductIdentifier:)` starts in Xcode's tests.
///
/// From its date new purchases and renewals in that storefront cost `price` (the catalog's own
/// price is the one before any increase). With `consentRequired` every active subscriber must
/// agree (PRICE_INCREASE/PENDING; `priceIncreaseStatus` 0 until `price-consent ID accept`); one
/// who declines or never answers expires at the next renewal (EXPIRED/PRICE_INCREASE, expiration
/// intent 3: "If a customer doesn't agree to a price increase that requires their consent, their
/// subscription expires at the end of the current billing period"). Without consent the next
/// renewal charges the new price, and Apple notifies PRICE_INCREASE/ACCEPTED ("the system
/// notifies them of a price increase if the price increase doesn't require customer consent").
public struct PriceIncrease: Hashable, Sendable, Codable {
    public var productID: ProductID
    /// The storefront (ISO 3166-1 alpha-3) whose price changed.
    public var storefront: String
    /// The new price, per period, in the storefront's currency.
    public var price: Price
    public var consentRequired: Bool
    public var date: Timestamp

    public init(productID: ProductID, storefront: String, price: Price, consentRequired: Bool, date: Timestamp) {
        self.productID = productID
        self.storefront = storefront
        self.price = price
        self.consentRequired = consentRequired
        self.date = date
    }
}

/// A subscriber's side of a price increase: the new price it will renew at and whether it
/// agreed (SKTestSession's `consentToPriceIncrease()` / `declinePriceIncrease()`). Cleared by the
/// renewal that charges the new price.
public struct PriceConsent: Hashable, Sendable, Codable {
    public var productID: ProductID
    public var price: Price
    public var currency: String
    public var status: Status

    public enum Status: String, Hashable, Sendable, Codable {
        /// Waiting for the customer (priceIncreaseStatus 0).
        case pending
        /// Agreed, or no consent was needed (priceIncreaseStatus 1).
        case accepted
        /// Declined: the subscription expires at the next renewal (priceIncreaseStatus 0).
        case declined

        var code: UInt8 {
            switch self {
            case .pending: return 0
            case .accepted: return 1
            case .declined: return 2
            }
        }

        init?(code: UInt8) {
            switch code {
            case 0: self = .pending
            case 1: self = .accepted
            case 2: self = .declined
            default: return nil
            }
        }
    }

    public init(productID: ProductID, price: Price, currency: String, status: Status) {
        self.productID = productID
        self.price = price
        self.currency = currency
        self.status = status
    }

    /// `priceIncreaseStatus` of the renewal info (JWSRenewalInfoDecodedPayload): 0 "The customer
    /// hasn't yet responded to an auto-renewable subscription price increase that requires
    /// customer consent", 1 "The customer consented ... or the App Store has notified the
    /// customer of ... a price increase that doesn't require consent".
    public var priceIncreaseStatus: Int { status == .accepted ? 1 : 0 }
}
