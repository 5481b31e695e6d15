/// One step of a refund request (`Command.refundRequest`).
public enum RefundStep: Hashable, Sendable {
    /// `refund request TXID [--reason R]`.
    case request(TransactionID, reason: String?)
    /// `refund approve TXID [--percent N]` (1 to 100; 100 is a full refund).
    case approve(TransactionID, percent: Int)
    /// `refund decline TXID`.
    case decline(TransactionID)
    /// `refund reverse TXID`: of an approved request, or of Xcode's immediate refund.
    case reverse(TransactionID)
}

/// What an issue 15 command came to (`Outcome.life`).
public enum LifeOutcome: Hashable, Sendable {
    /// A refund or a refund step: the transaction after it, its request (nil for Xcode's
    /// immediate refund and for its reversal), the subscription it changed, if any, the server
    /// notification its event stands for (REFUND, REFUND_DECLINED, ...; nil for a request), and
    /// what the family's members got back or lost with it, in order (docs/family.md).
    case refund(
        Transaction, RefundRequest?, Subscription?, notification: ServerNotification?, family: [FamilyChange])
    /// A price increase: the subscribers it reached (original transaction ids, in order), and
    /// the consent each of them was given (pending, or accepted when no consent is required).
    case priceIncrease(PriceIncrease, subscribers: [TransactionID], consent: PriceConsent)
    /// A subscriber answered a price increase.
    case priceConsent(Subscription, PriceConsent)
}
