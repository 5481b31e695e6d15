/// Work a subscription purchase leaves for the end of the command that made it.
///
/// `Machine.complete` moves a transaction to purchased wherever that happens (a purchase, an
/// approved Ask to Buy request), before the purchase itself is recorded; what a subscription
/// purchase changes beyond its own transaction (the upgraded period marked `isUpgraded`, the
/// notifications) is queued by id in the apply's `Effects.followups` (not in the machine) and
/// carried out by `Machine.flushFollowups` at the end of the apply, so its events come after the
/// purchase's own.
enum Followup: Hashable, Sendable {
    /// A subscription began, or a lapsed one was bought again.
    case subscribed(TransactionID, resubscribed: Bool)
    /// An upgrade or same-duration crossgrade replaced the period of `from` with `to` at once.
    case changedProduct(from: TransactionID, to: TransactionID)
    /// The product the subscription renews into changed.
    case renewalPreferenceChanged(original: TransactionID, from: ProductID)
    /// Auto-renew was turned back on by buying the subscription again.
    case autoRenewChanged(original: TransactionID)
}
