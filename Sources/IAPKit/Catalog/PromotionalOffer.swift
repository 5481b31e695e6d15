/// A promotional offer of an auto-renewable subscription (App Store Connect "promotional offers";
/// Xcode's `adHocOffers`; StoreKit's `Product.SubscriptionInfo.promotionalOffers`).
///
/// The app applies one with a signature from its server: StoreKit 1's `SKPaymentDiscount`, or
/// StoreKit 2's `promotionalOffer(_:compactJWS:)` ("Generating a signature for promotional
/// offers", "Generating JWS to sign App Store requests"). The app decides who is eligible; the
/// App Store checks the signature.
public struct PromotionalOffer: Hashable, Sendable {
    /// The promotional offer identifier (App Store Connect's "Promotional Offer Identifier",
    /// Xcode's `offerID`): the signed `offerIdentifier`.
    public let id: OfferID
    public let referenceName: String
    public let terms: OfferTerms

    public init(id: OfferID, referenceName: String, terms: OfferTerms) {
        self.id = id
        self.referenceName = referenceName
        self.terms = terms
    }
}
