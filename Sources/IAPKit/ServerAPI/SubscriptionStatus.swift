/// The `status` of an auto-renewable subscription in the App Store Server API's
/// `lastTransactions` (Apple's `status` type).
public enum SubscriptionStatus: Int, Sendable, CaseIterable {
    case active = 1
    case expired = 2
    case billingRetry = 3
    case gracePeriod = 4
    case revoked = 5
}

/// Decides the status of a subscription from its latest transaction.
///
/// The subscription lifecycle (renewals, billing retry, grace periods) belongs to the
/// subscription engine; `iapctl serve` asks this hook so that engine can answer with its own
/// knowledge. `StoreSubscriptionStatus` answers from what every transaction carries.
public protocol SubscriptionStatusResolving: Sendable {
    func status(of latest: Transaction, session: StoreSession) -> SubscriptionStatus
}

/// The status from the transaction alone, against the store's clock: revoked when refunded,
/// active until `expiresDate`, expired from then on. A transaction without an expiry date is a
/// period that has not been given an end, so it is active. Billing retry and grace period need
/// renewal state the transaction does not hold; the subscription engine's resolver reports them.
public struct StoreSubscriptionStatus: SubscriptionStatusResolving {
    public init() {}

    public func status(of latest: Transaction, session: StoreSession) -> SubscriptionStatus {
        if latest.revocationDate != nil { return .revoked }
        if let expires = latest.expiresDate, expires <= session.state.clock { return .expired }
        return .active
    }
}
