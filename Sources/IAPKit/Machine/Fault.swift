/// Where an injected fault can fire (`iapctl fault add POINT ...`).
///
/// Each point is a request the simulated App Store answers: a products request, a payment, a
/// restore, a download step, and, for the receipt and verification commands, a receipt refresh
/// and a verification. Those last two are consumed by the commands that perform them, through
/// `Machine.takeFault(_:product:)`.
public enum FaultPoint: String, CaseIterable, Sendable, Codable {
    case products
    case purchase
    case restore
    case refreshReceipt = "refresh-receipt"
    case download
    case verification
    // Issue 15: the rest of Xcode's `setSimulatedError(_:forAPI:)` categories (SKTestFailures).
    case subscriptionStatus = "subscription-status"
    case appTransaction = "app-transaction"
    case manageSubscriptions = "manage-subscriptions"
    case refundRequest = "refund-request"
    case offerCodeRedeem = "offer-code-redeem"

    public static var names: [String] { allCases.map(\.rawValue) }

    /// The StoreKit API category of Xcode's `setSimulatedError(_:forAPI:)` this point simulates
    /// (`SKTestSession.StoreKitAPI`, the `_storeKitErrors` entry's `name` in parentheses).
    public var xcodeAPI: String {
        switch self {
        case .products: return "loadProducts (Load Products)"
        case .purchase: return "purchase (Purchase)"
        case .restore: return "appStoreSync (App Store Sync)"
        case .refreshReceipt: return "SKReceiptRefreshRequest (StoreKit 1 only)"
        case .download: return "SKDownload (StoreKit 1 only)"
        case .verification: return "verification (Verification)"
        case .subscriptionStatus: return "subscriptionStatus (Subscription Status)"
        case .appTransaction: return "appTransaction (App Transaction)"
        case .manageSubscriptions: return "manageSubscriptions (Manage Subscriptions Sheet)"
        case .refundRequest: return "refundRequest (Refund Request Sheet)"
        case .offerCodeRedeem: return "offerCodeRedeem (Offer Code Redeem Sheet)"
        }
    }

    /// What a fault at this point does, for help and `fault list`.
    public var summary: String {
        switch self {
        case .products: return "the products request fails (productsRequestFailed)"
        case .purchase: return "a new payment fails with the error (transactionFailed)"
        case .restore: return "a restore fails (restoreFailed); --product: partway, at that product"
        case .refreshReceipt: return "the next receipt refresh fails"
        case .download: return "a download step or self-hosted download fails (downloadFailed)"
        case .verification: return "the next verification fails with the error"
        case .subscriptionStatus: return "subscription status fails: 'subscriptions' and 'jws renewal'"
        case .appTransaction: return "AppTransaction fails: 'jws app-transaction' and 'refresh-receipt'"
        case .manageSubscriptions: return "the manage subscriptions sheet fails: 'auto-renew on|off'"
        case .refundRequest: return "the refund request sheet fails: 'refund'"
        case .offerCodeRedeem: return "the offer code redemption sheet fails: 'buy --code-offer' (transactionFailed)"
        }
    }
}

/// One armed fault: it fires `remaining` more times, at `point`, for `productID` (or any product),
/// with `error`. Faults fire in the order they were added.
public struct Fault: Hashable, Sendable, Codable {
    /// Numbered from 1 in the order added.
    public let id: Int
    public let point: FaultPoint
    public let error: TransactionError
    /// How many more times it fires; a fault that reaches 0 is removed.
    public var remaining: Int
    /// Only requests about this product trigger it; nil means any.
    public let productID: ProductID?

    public init(id: Int, point: FaultPoint, error: TransactionError, remaining: Int, productID: ProductID?) {
        self.id = id
        self.point = point
        self.error = error
        self.remaining = remaining
        self.productID = productID
    }
}
