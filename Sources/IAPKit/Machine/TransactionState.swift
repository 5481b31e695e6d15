/// `SKPaymentTransactionState`: where a transaction is in its lifecycle (REFERENCE section 1).
///
/// addPayment -> purchasing -> purchased | failed | deferred; deferred -> purchased (approved) |
/// failed (declined). Restores create new transactions directly in `restored`.
public enum TransactionState: Hashable, Sendable, Codable {
    case purchasing
    case purchased
    /// Cancelled or failed before the user was charged; carries the error. Boxed, so a state is
    /// one word and a `Transaction`, which keeps its state beside its fields' box, stays small.
    indirect case failed(TransactionError)
    case restored
    /// Waiting for an outside action (Ask to Buy).
    case deferred

    /// The state's name as the JSON `state` key and `--state` filters spell it.
    public var name: String { kind.rawValue }

    /// `SKPaymentTransactionState`'s raw value.
    public var rawValue: Int {
        switch self {
        case .purchasing: return 0
        case .purchased: return 1
        case .failed: return 2
        case .restored: return 3
        case .deferred: return 4
        }
    }

    /// The states without their data: what `--state` filters and the JSON `state` key name.
    public enum Name: String, CaseIterable, Sendable {
        case purchasing, purchased, failed, restored, deferred
    }

    public var kind: Name {
        switch self {
        case .purchasing: return .purchasing
        case .purchased: return .purchased
        case .failed: return .failed
        case .restored: return .restored
        case .deferred: return .deferred
        }
    }

    /// Every state's name, in `SKPaymentTransactionState` order (derived, never hand-kept).
    public static let allNames = Name.allCases.map(\.rawValue)

    public var error: TransactionError? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// Whether the app has the product to deliver: purchased or restored (RMStore's
    /// `didPurchaseTransaction:` and `didRestoreTransaction:`; what the ledger counts).
    public var isDelivered: Bool {
        switch self {
        case .purchased, .restored: return true
        case .purchasing, .failed, .deferred: return false
        }
    }

    /// Whether `finishTransaction` is allowed: StoreKit raises on a purchasing transaction, and a
    /// deferred one is still waiting for its outcome (REFERENCE section 1).
    public var isFinishable: Bool {
        switch self {
        case .purchased, .failed, .restored: return true
        case .purchasing, .deferred: return false
        }
    }
}
