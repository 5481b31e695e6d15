import IAPTime

/// One auto-renewable subscription of the account: the chain of billing periods in one
/// subscription group, as the App Store keeps it.
///
/// An account has at most one subscription per group, and every period of it (the first purchase,
/// each renewal, an upgrade or crossgrade inside the group) shares the original transaction id,
/// which keys `StoreState.subscriptions` (REFERENCE sections 1 and 6). The record carries what
/// `pending_renewal_info` reports (auto-renew status and product, expiration intent, grace and
/// billing retry) and what the simulator needs to renew without reading history: the current
/// period's transaction, dates, price and the renewal cycle's anchor.
public struct Subscription: Hashable, Sendable, Codable {
    public let originalID: TransactionID
    public let originalDate: Timestamp
    /// The subscription group (`subscription_group_identifier`).
    public let group: String
    /// The `applicationUsername` of the purchase that started the chain, carried onto renewals as
    /// StoreKit 2 carries `appAccountToken`.
    public var userID: UserID?
    /// The product of the current period.
    public var productID: ProductID
    /// The transaction that opened the current period: the purchase, a renewal or an upgrade.
    public var latestID: TransactionID
    /// When the current period began and ends.
    public var periodStart: Timestamp
    public var expiresDate: Timestamp
    /// The current period's `web_order_line_item_id`.
    public var webOrderLineItemID: UInt64
    /// What the current period cost, per unit, in `currency`: the base of an upgrade's credit.
    public var periodPrice: Price
    public var currency: String
    /// The introductory offer the current period is under, if any.
    public var offer: Transaction.OfferKind?
    public var status: Status
    /// `auto_renew_status`: whether the subscription renews at the end of the period.
    public var autoRenew: Bool
    /// `auto_renew_product_id`: the product the next period will be (differs from `productID`
    /// after a downgrade or a crossgrade to another duration, which wait for the renewal).
    public var renewalProductID: ProductID
    /// Pay-as-you-go introductory periods still to come after the current one.
    public var offerPeriodsLeft: Int
    /// Period ends are counted from an anchor (`cycleAnchor` + `cycles` x `cyclePeriod`) rather
    /// than from the previous end, so a subscription bought on January 31 renews on February 28
    /// and then on March 31, as the App Store's renewal dates do, instead of drifting to the 28th.
    public var cycleAnchor: Timestamp
    public var cyclePeriod: SubscriptionPeriod
    public var cycles: Int
    /// The credit of the last immediate upgrade or crossgrade: the unused part of the period it
    /// cut short, in the currency of that period.
    public var upgradeCredit: Price?
    /// How many periods renewed (not counting the first purchase, upgrades or resubscriptions).
    public var renewals: Int
    /// StoreKit 2's `recentSubscriptionStartDate`: the start of the latest run of paid service
    /// with no gap over 60 days; nil while that is `originalDate` (see `RecentSubscriptionStart`).
    public var recentStartDate: Timestamp? = nil

    /// Where a subscription is in its lifecycle (the `status` of StoreKit 2's
    /// `Product.SubscriptionInfo.RenewalState`, with the retry and grace dates it implies).
    public enum Status: Hashable, Sendable, Codable {
        /// Paid up to `expiresDate`.
        case active
        /// A renewal failed, but access continues until `until` (Billing Grace Period: 6 days for
        /// weekly subscriptions, 16 otherwise); the App Store retries until `retryUntil`.
        case inGracePeriod(until: Timestamp, retryUntil: Timestamp)
        /// A renewal failed and access has ended; the App Store retries until `until` (60 days
        /// after the failed renewal), after which the subscription expires.
        case inBillingRetry(until: Timestamp)
        /// Ended, and why (`expiration_intent`).
        case expired(ExpirationIntent)
        /// Refunded: access was taken away on `date` (`revocationDate`, `revocationReason`).
        case revoked(date: Timestamp, reason: Int)

        /// The status as `iapctl subscriptions` and JSON spell it.
        public var name: String {
            switch self {
            case .active: return "active"
            case .inGracePeriod: return "inGracePeriod"
            case .inBillingRetry: return "inBillingRetry"
            case .expired: return "expired"
            case .revoked: return "revoked"
            }
        }

        /// Whether the user may use what the subscription unlocks: paid, or in the grace period.
        public var grantsAccess: Bool {
            switch self {
            case .active, .inGracePeriod: return true
            case .inBillingRetry, .expired, .revoked: return false
            }
        }
    }

    /// `expiration_intent` of `pending_renewal_info` (REFERENCE section 6).
    public enum ExpirationIntent: Int, Hashable, Sendable, Codable {
        /// The user turned auto-renew off (or the subscription was expired on purpose).
        case cancelled = 1
        /// Billing retry ended without a successful charge.
        case billingError = 2
        case priceIncreaseDeclined = 3
        /// The renewal product is not for sale in the account's storefront.
        case productUnavailable = 4
        case unknown = 5
    }

    /// The next date something happens to this subscription on its own: the end of the period,
    /// of the grace period, or of billing retry. Nil once it has ended.
    public var nextDueDate: Timestamp? {
        switch status {
        case .active: return expiresDate
        case .inGracePeriod(let until, _): return until
        case .inBillingRetry(let until): return until
        case .expired, .revoked: return nil
        }
    }

    /// The expiration intent when the subscription has expired, else nil.
    public var expirationIntent: ExpirationIntent? {
        if case .expired(let intent) = status { return intent }
        return nil
    }

    /// The end of the grace period, while in it (`grace_period_expires_date`).
    public var gracePeriodExpiresDate: Timestamp? {
        if case .inGracePeriod(let until, _) = status { return until }
        return nil
    }

    /// The end of the billing retry window, while retrying (in grace or billing retry).
    public var billingRetryEndDate: Timestamp? {
        switch status {
        case .inGracePeriod(_, let retryUntil): return retryUntil
        case .inBillingRetry(let until): return until
        case .active, .expired, .revoked: return nil
        }
    }

    /// `is_in_billing_retry_period`.
    public var isInBillingRetry: Bool { billingRetryEndDate != nil }
}
