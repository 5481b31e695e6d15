import IAPTime

/// A payment the App Store started for the user (a promoted in-app purchase) that the app has
/// not added to the queue yet: RMStore's stored store payments.
public struct StoredPayment: Hashable, Sendable, Codable {
    public let productID: ProductID
    public let userID: UserID?
    public let quantity: Int
    /// When the App Store offered it.
    public let date: Timestamp

    public init(productID: ProductID, userID: UserID?, quantity: Int, date: Timestamp) {
        self.productID = productID
        self.userID = userID
        self.quantity = quantity
        self.date = date
    }
}

/// How the app answers `paymentQueue(_:shouldAddStorePayment:for:)` (setting `store-payments`).
///
/// - `accept`: StoreKit's default (true): the payment joins the queue now.
/// - `defer`: RMStore's fork without a payment acceptor: the payment is stored, and
///   `acceptStoredStorePayments` (`iapctl accept-stored`) adds it later.
/// - `decline`: DYFStoreKit: the delegate always returns NO and the app starts its own purchase of
///   the product (`DYFStoreManager addPayment:userIdentifier:`), unless payments are not allowed.
public enum StorePaymentPolicy: String, CaseIterable, Sendable, Codable {
    case accept
    case `defer`
    case decline

    public static var names: [String] { allCases.map(\.rawValue) }
}

/// What became of a store-initiated payment; the event is named after it.
public enum StorePaymentDecision: String, Sendable, Hashable {
    case accepted, deferred, declined
    /// A stored payment added to the queue by `accept-stored`.
    case acceptedLater

    public var eventName: String {
        switch self {
        case .accepted: return "storePaymentAccepted"
        case .deferred: return "storePaymentDeferred"
        case .declined: return "storePaymentDeclined"
        case .acceptedLater: return "storedPaymentAccepted"
        }
    }
}
