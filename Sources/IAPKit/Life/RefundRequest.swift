import IAPTime

/// A customer's refund request for one transaction, as the App Store keeps it while it decides
/// (issue 15, item 2): opened by `refund request`, then approved (REFUND), declined
/// (REFUND_DECLINED) or, after an approval, reversed (REFUND_REVERSED). Xcode's StoreKit testing
/// only knows the immediate, always approved refund (`refund TXID`); the sandbox cannot produce
/// CONSUMPTION_REQUEST or REFUND_DECLINED at all.
///
/// Kept in `StoreState.refundRequests` by transaction id (state field 200); the consumption
/// information the backend sends through the App Store Server API (Send Consumption Information
/// v1 and v2, `ServerAPIRecord.consumption`) is what Apple weighs to decide, and is shown with the
/// request.
public struct RefundRequest: Hashable, Sendable, Codable {
    public var transactionID: TransactionID
    /// When the customer asked (the store's clock).
    public var requested: Timestamp
    /// The customer's reason, as typed (`--reason`), if any.
    public var reason: String?
    public var status: Status
    /// When the request was approved, declined or its refund reversed.
    public var decided: Timestamp?

    public enum Status: Hashable, Sendable, Codable {
        /// Waiting for the App Store's decision.
        case open
        /// Refunded: `percent` of the price (100: REFUND_FULL, less: REFUND_PRORATED).
        case approved(percent: Int)
        /// Refused: nothing was revoked (REFUND_DECLINED).
        case declined
        /// The refund was taken back after a dispute: the entitlement returned (REFUND_REVERSED).
        case reversed(percent: Int)

        public var name: String {
            switch self {
            case .open: return "open"
            case .approved: return "approved"
            case .declined: return "declined"
            case .reversed: return "reversed"
            }
        }
    }

    public init(
        transactionID: TransactionID, requested: Timestamp, reason: String?, status: Status = .open, decided: Timestamp? = nil
    ) {
        self.transactionID = transactionID
        self.requested = requested
        self.reason = reason
        self.status = status
        self.decided = decided
    }

    /// `revocationPercentage` is in milliunits: 100% is 100000 (App Store Server Notifications,
    /// revocationPercentage: "The percentage, in milliunits, of the transaction that the App
    /// Store has refunded or revoked").
    public static func milliunits(percent: Int) -> Int { percent * 1000 }

    /// Apple's `ConsumptionRequestReason` values: a request whose reason is one of them sends it
    /// as CONSUMPTION_REQUEST's `data.consumptionRequestReason`.
    public static let appleReasons = ["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER"]

    /// The percentages `refund approve --percent` accepts.
    public static let percentRange = 1...100
}

/// `revocationType` of a signed transaction (JWSTransactionDecodedPayload.revocationType):
/// REFUND_FULL, REFUND_PRORATED, FAMILY_REVOKE.
public enum RevocationType: String, Hashable, Sendable, Codable, CaseIterable {
    case refundFull = "REFUND_FULL"
    case refundProrated = "REFUND_PRORATED"
    case familyRevoke = "FAMILY_REVOKE"

    /// The code the transaction record stores (never reuse one).
    var code: UInt64 {
        switch self {
        case .refundFull: return 1
        case .refundProrated: return 2
        case .familyRevoke: return 3
        }
    }

    init?(code: UInt64) {
        guard let type = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = type
    }
}
