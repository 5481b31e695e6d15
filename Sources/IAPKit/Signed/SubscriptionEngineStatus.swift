/// The `status` of a subscription as the subscription engine knows it (`StoreState.subscriptions`):
/// active, expired, in billing retry, in the Billing Grace Period, or revoked (App Store Server
/// API, status: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
///
/// `iapctl serve` installs it in place of `StoreSubscriptionStatus`, which can only tell active,
/// expired and revoked from a transaction's own dates. A transaction whose subscription the
/// engine does not know (a store written before it) falls back to that.
public struct SubscriptionEngineStatus: SubscriptionStatusResolving {
    public init() {}

    public func status(of latest: Transaction, session: StoreSession) -> SubscriptionStatus {
        guard let sub = session.state.subscriptions[latest.originalID] else {
            return StoreSubscriptionStatus().status(of: latest, session: session)
        }
        return SubscriptionStatus(sub.status)
    }
}
