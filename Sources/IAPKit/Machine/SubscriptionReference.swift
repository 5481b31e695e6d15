/// How a command names a subscription: by a product of its group (`com.x.vip2`) or by the
/// original transaction id every period shares, as Xcode's transaction manager and App Store
/// Server API calls do.
public enum SubscriptionReference: Hashable, Sendable, CustomStringConvertible {
    case product(ProductID)
    case originalTransaction(TransactionID)

    /// A word from the command line: all digits is an original transaction id, anything else a
    /// product id.
    public init(parsing text: String) {
        if let id = TransactionID(parsing: text) { self = .originalTransaction(id) } else { self = .product(ProductID(text)) }
    }

    public var description: String {
        switch self {
        case .product(let id): return id.rawValue
        case .originalTransaction(let id): return id.description
        }
    }
}
