/// An offer code (App Store Connect "offer codes"; Xcode's `codeOffers`): "alphanumeric codes
/// that provide In-App Purchases at a discount or for free, for a specific duration", for every
/// product type ("Offer codes are available for all in-app purchase types: consumables,
/// non-consumables, non-renewing subscriptions, and auto-renewable subscriptions", StoreKit,
/// "Supporting offer codes in your app").
///
/// A transaction redeemed with one has `offerType` 3 and its `offerIdentifier` is the offer's
/// reference name, which is how iapctl names it (`buy --code-offer REFERENCE_NAME`, StoreKit
/// Test's `codeOffer(referenceName:)`).
public struct OfferCode: Hashable, Sendable {
    /// Who may redeem a subscription offer code (App Store Connect's customer eligibility,
    /// Xcode's `eligibility` list).
    public enum Eligibility: String, Hashable, Sendable, CaseIterable {
        /// Never subscribed to the subscription group.
        case new
        /// Subscribed now (the offer applies from the next renewal).
        case existing
        /// Subscribed before, and the subscription has expired.
        case expired
    }

    /// What redeeming the code gives.
    public enum Discount: Hashable, Sendable {
        /// An auto-renewable subscription's offer terms.
        case subscription(OfferTerms)
        /// A consumable, non-consumable or non-renewing subscription at this price (0 is free):
        /// `offerDiscountType` `ONE_TIME` in signed data.
        case oneTime(prices: [Product.StorefrontPrice], anyStorefront: Bool)
    }

    public let referenceName: String
    public let discount: Discount
    /// For subscriptions: who may redeem it; empty for other product types, whose eligibility
    /// the App Store does not restrict.
    public let eligibility: [Eligibility]

    public init(referenceName: String, discount: Discount, eligibility: [Eligibility]) {
        self.referenceName = referenceName
        self.discount = discount
        self.eligibility = eligibility
    }

    /// The offer identifier signed data carries: the reference name.
    public var id: OfferID { OfferID(referenceName) }

    /// The subscription terms, for an auto-renewable subscription's code.
    public var terms: OfferTerms? {
        if case .subscription(let terms) = discount { return terms }
        return nil
    }

    /// The one-time price in `storefront` of a code for another product type; nil when it has
    /// none there or is a subscription code.
    public func oneTimePrice(in storefront: String) -> Price? {
        guard case .oneTime(let prices, let anyStorefront) = discount else { return nil }
        return Product.price(prices, anyStorefront: anyStorefront, in: storefront)
    }
}
