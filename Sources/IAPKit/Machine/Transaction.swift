import IAPCrypto
import IAPTime

/// One payment transaction (`SKPaymentTransaction`), as the store persists and prints it.
///
/// Restored transactions and subscription renewals are new transactions that point at the
/// original purchase through `originalID` and `originalDate` (REFERENCE section 1).
public struct Transaction: Hashable, Sendable, Codable {
    public let id: TransactionID
    public var originalID: TransactionID
    public let productID: ProductID
    public let productType: ProductType
    public var quantity: Int
    /// The payment's `applicationUsername`, or nil.
    public var userID: UserID?
    public var state: TransactionState
    /// Whether the app called `finishTransaction`; unfinished ones stay in the queue.
    public var finished: Bool
    public var date: Timestamp
    public var originalDate: Timestamp
    public var storefront: String
    /// The product's price in the storefront's currency, per unit.
    public var price: Price
    public var currency: String
    /// Whether money moved: false for restores, failures, and re-buying what is already owned.
    public var charged: Bool
    public var downloads: [Download]
    /// Subscriptions: when this period ends.
    public var expiresDate: Timestamp?
    /// Subscriptions: identifies one billing period across devices (`web_order_line_item_id`).
    public var webOrderLineItemID: UInt64?
    /// Set by a refund (`cancellation_date` in receipts, `revocationDate` in StoreKit 2).
    public var revocationDate: Timestamp?
    /// 0: refunded for another reason, 1: refunded because of an issue in the app.
    public var revocationReason: Int?
    /// Set when the user upgraded to a higher level in the subscription group.
    public var isUpgraded: Bool
    /// The introductory offer this period was bought under, if any.
    public var offer: OfferKind?
    /// Why the transaction exists: a purchase or a subscription renewal.
    public var reason: Reason
    /// The subscription group (auto-renewables).
    public var subscriptionGroup: String?
    /// An immediate upgrade or crossgrade: the prorated credit for the unused part of the period
    /// it replaced, in that period's currency.
    public var upgradeCredit: Price?
    /// A tombstone: `iapctl delete` or `clear` removed the transaction from history. The store
    /// keeps the record (the journal is append-only) but hides it from dump, show and lookups.
    public var isDeleted: Bool

    public enum Reason: String, Hashable, Sendable, Codable {
        case purchase, renewal
    }

    public enum OfferKind: String, Hashable, Sendable, Codable {
        case freeTrial, payAsYouGo, payUpFront
    }

    public init(
        id: TransactionID, originalID: TransactionID, productID: ProductID, productType: ProductType, quantity: Int,
        userID: UserID?, state: TransactionState, finished: Bool = false, date: Timestamp, originalDate: Timestamp,
        storefront: String, price: Price, currency: String, charged: Bool, downloads: [Download] = [],
        expiresDate: Timestamp? = nil, webOrderLineItemID: UInt64? = nil, revocationDate: Timestamp? = nil,
        revocationReason: Int? = nil, isUpgraded: Bool = false, offer: OfferKind? = nil, reason: Reason = .purchase,
        subscriptionGroup: String? = nil, upgradeCredit: Price? = nil, isDeleted: Bool = false
    ) {
        self.id = id
        self.originalID = originalID
        self.productID = productID
        self.productType = productType
        self.quantity = quantity
        self.userID = userID
        self.state = state
        self.finished = finished
        self.date = date
        self.originalDate = originalDate
        self.storefront = storefront
        self.price = price
        self.currency = currency
        self.charged = charged
        self.downloads = downloads
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.isUpgraded = isUpgraded
        self.offer = offer
        self.reason = reason
        self.subscriptionGroup = subscriptionGroup
        self.upgradeCredit = upgradeCredit
        self.isDeleted = isDeleted
    }

    /// Purchased or restored: the app has the product to deliver.
    public var isDelivered: Bool { state.isDelivered }

    /// Whether the transaction is in the payment queue: not yet finished.
    public var isInQueue: Bool { !finished && !isDeleted }
}

extension Transaction {
    /// In the state file a transaction is its journal record, base64-encoded: a queue of many
    /// thousands of unfinished renewals then loads in a fraction of the time field-by-field JSON
    /// takes, and there is one binary form of a transaction to keep in step, not two.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let bytes = Base64.decode(text), let t = bytes.withUnsafeBytes({ TransactionRecordCodec.decode($0) }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a transaction record"))
        }
        self = t
    }

    public func encode(to encoder: any Encoder) throws {
        var w = ByteWriter(capacity: 160)
        TransactionRecordCodec.encode(self, into: &w)
        var container = encoder.singleValueContainer()
        try container.encode(Base64.encode(w.bytes))
    }
}
