/// What `restoreCompletedTransactions` delivers for auto-renewable subscriptions.
///
/// StoreKit 1 "creates a new transaction for every completed transaction the user made,
/// essentially replaying history" (In-App Purchase Programming Guide, "Restoring Purchased
/// Products"; `SKPaymentQueue.restoreCompletedTransactions`: "a new transaction for each
/// previously completed transaction that can be restored"), so every billing period of a
/// subscription (the purchase and each renewal) comes back: that is the default, `all`.
/// `latest` delivers only each subscription's current period, as StoreKit 2's current
/// entitlements do, for apps that only look at the newest transaction.
public enum RestoreRenewals: String, Hashable, Sendable, Codable, CaseIterable {
    case all, latest
}
