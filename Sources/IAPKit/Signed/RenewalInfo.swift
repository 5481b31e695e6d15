import IAPTime

/// What the signed renewal information of an auto-renewable subscription says: the fields of
/// Apple's `JWSRenewalInfoDecodedPayload` ("a decoded payload containing subscription renewal
/// information for an auto-renewable subscription", App Store Server API) that the store knows.
///
/// Built from the subscription engine's record (`Subscription`) for `iapctl jws renewal` and the
/// server, or from the snapshot a subscription event carries for notifications
/// (`NotificationLog`); `SignedRenewalInfoPayload` writes it.
public struct RenewalInfo: Hashable, Sendable {
    public var originalTransactionID: TransactionID
    /// `productId`: the product of the current period.
    public var productID: ProductID
    /// `autoRenewProductId`: "the product identifier of the product that renews at the next
    /// billing period".
    public var autoRenewProductID: ProductID
    /// `autoRenewStatus`: 1 on, 0 off.
    public var autoRenew: Bool
    /// `expirationIntent` (1 cancelled, 2 billing error, 3 price increase declined, 4 product
    /// unavailable, 5 other), once the subscription expired.
    public var expirationIntent: Int?
    /// `isInBillingRetryPeriod`, written once the subscription is not active (Apple leaves it out
    /// of an active subscription's renewal info).
    public var isInBillingRetryPeriod: Bool?
    /// `gracePeriodExpiresDate`, while in the Billing Grace Period.
    public var gracePeriodExpiresDate: Timestamp?
    /// The offer the next period renews under: the rest of a pay-as-you-go introductory offer.
    public var renewalOffer: Transaction.OfferKind?
    /// `renewalPrice` (milliunits) and `currency` of the next period, when the renewal product is
    /// priced in the storefront.
    public var renewalPrice: Price?
    public var currency: String?
    /// `recentSubscriptionStartDate` (see `Subscription.recentStartDate`).
    public var recentSubscriptionStartDate: Timestamp
    /// `renewalDate`: "the UNIX time, in milliseconds, when the most recent auto-renewable
    /// subscription purchase expires ... always present ... even for expired subscriptions".
    public var renewalDate: Timestamp
    /// `appAccountToken`, when the subscriber's user id is a UUID.
    public var appAccountToken: String?
    /// The subscription's status (the App Store Server API's `status`; a notification's
    /// `data.status`).
    public var status: SubscriptionStatus

    public init(
        originalTransactionID: TransactionID, productID: ProductID, autoRenewProductID: ProductID, autoRenew: Bool,
        expirationIntent: Int?, isInBillingRetryPeriod: Bool?, gracePeriodExpiresDate: Timestamp?,
        renewalOffer: Transaction.OfferKind?, renewalPrice: Price?, currency: String?, recentSubscriptionStartDate: Timestamp,
        renewalDate: Timestamp, appAccountToken: String?, status: SubscriptionStatus
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.autoRenewProductID = autoRenewProductID
        self.autoRenew = autoRenew
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.renewalOffer = renewalOffer
        self.renewalPrice = renewalPrice
        self.currency = currency
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.appAccountToken = appAccountToken
        self.status = status
    }

    /// The renewal info of a subscription as the engine holds it now. The next period's price is
    /// what `renew` would charge: the renewal product in the storefront of the current period's
    /// transaction (`storefront`), under the rest of a pay-as-you-go offer if one is running.
    public init(_ sub: Subscription, storefront: String, catalog: Catalog) {
        var price: Price?
        var currency: String?
        var offer: Transaction.OfferKind?
        if let product = catalog[sub.renewalProductID], let regular = product.price(in: storefront),
            let shop = Storefront.named(storefront)
        {
            price = regular
            currency = shop.currency
            if product.id == sub.productID, sub.offerPeriodsLeft > 0, let intro = product.introductoryOffer,
                intro.paymentMode == .payAsYouGo, let introPrice = intro.price(in: storefront)
            {
                price = introPrice
                offer = .payAsYouGo
            }
        }
        self.init(
            originalTransactionID: sub.originalID, productID: sub.productID, autoRenewProductID: sub.renewalProductID,
            autoRenew: sub.autoRenew, expirationIntent: sub.expirationIntent?.rawValue,
            isInBillingRetryPeriod: sub.status == .active ? nil : sub.isInBillingRetry,
            gracePeriodExpiresDate: sub.gracePeriodExpiresDate, renewalOffer: offer, renewalPrice: price, currency: currency,
            recentSubscriptionStartDate: sub.recentStartDate ?? sub.originalDate, renewalDate: sub.expiresDate,
            appAccountToken: AppAccountToken.token(for: sub.userID), status: SubscriptionStatus(sub.status))
    }
}

extension SubscriptionStatus {
    /// The API's status of a subscription engine status: active 1, expired 2, billing retry 3,
    /// grace period 4, revoked 5 (App Store Server API, status).
    public init(_ status: Subscription.Status) {
        switch status {
        case .active: self = .active
        case .expired: self = .expired
        case .inBillingRetry: self = .billingRetry
        case .inGracePeriod: self = .gracePeriod
        case .revoked: self = .revoked
        }
    }
}
