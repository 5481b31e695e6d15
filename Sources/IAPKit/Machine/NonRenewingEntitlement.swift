import IAPTime

/// What the account holds of one non-renewing subscription product: the time bought so far.
///
/// Non-renewing subscriptions are managed by the app, not the App Store: StoreKit neither renews
/// nor restores them (REFERENCE section 1). The simulator still keeps their end date so that
/// buying again extends from the later of now and the current end, and `iapctl subscriptions`
/// can show what is left.
public struct NonRenewingEntitlement: Hashable, Sendable, Codable {
    public let productID: ProductID
    /// The first purchase of the product.
    public let firstID: TransactionID
    /// The latest purchase, which carries `expiresDate`.
    public var latestID: TransactionID
    /// When the time bought so far runs out.
    public var expiresDate: Timestamp
    /// How many purchases (not counting refunded ones).
    public var purchases: Int
    /// Set when a refund took away all the time that was left, until the next purchase.
    public var revocation: Revocation?

    public struct Revocation: Hashable, Sendable, Codable {
        public var date: Timestamp
        public var reason: Int
    }

    public init(productID: ProductID, firstID: TransactionID, latestID: TransactionID, expiresDate: Timestamp, purchases: Int) {
        self.productID = productID
        self.firstID = firstID
        self.latestID = latestID
        self.expiresDate = expiresDate
        self.purchases = purchases
    }

    /// `revoked`, `active` or `expired` on the store's clock.
    public func statusName(at clock: Timestamp) -> String {
        if revocation != nil { return "revoked" }
        return clock < expiresDate ? "active" : "expired"
    }
}
