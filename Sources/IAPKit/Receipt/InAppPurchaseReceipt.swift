import IAPTime

/// One in-app purchase of an app receipt (attribute 17: a SET of attributes 1701...1719).
public struct InAppPurchaseReceipt: Hashable, Sendable {
    public var quantity: Int?
    public var productID: String?
    public var transactionID: String?
    public var originalTransactionID: String?
    public var purchaseDate: Timestamp?
    public var originalPurchaseDate: Timestamp?
    /// Subscriptions: when the period ends (1708).
    public var expiresDate: Timestamp?
    public var webOrderLineItemID: Int64?
    /// Set when Apple refunded the purchase (1712).
    public var cancellationDate: Timestamp?
    public var isTrialPeriod: Bool?
    public var isInIntroOfferPeriod: Bool?
    /// The promotional offer the period was bought under (1721, `promotional_offer_id`).
    public var promotionalOfferID: String?
    /// Attributes of types iapctl does not model, kept as read.
    public var otherAttributes: [ReceiptAttribute]

    public init(
        quantity: Int? = nil, productID: String? = nil, transactionID: String? = nil, originalTransactionID: String? = nil,
        purchaseDate: Timestamp? = nil, originalPurchaseDate: Timestamp? = nil, expiresDate: Timestamp? = nil,
        webOrderLineItemID: Int64? = nil, cancellationDate: Timestamp? = nil, isTrialPeriod: Bool? = nil,
        isInIntroOfferPeriod: Bool? = nil, promotionalOfferID: String? = nil, otherAttributes: [ReceiptAttribute] = []
    ) {
        self.quantity = quantity
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferID = promotionalOfferID
        self.otherAttributes = otherAttributes
    }

    /// The order receipts are shown in: by purchase date, then by transaction id (numerically
    /// when both are numbers), so output is stable whatever order the payload SET has.
    static func precedes(_ a: InAppPurchaseReceipt, _ b: InAppPurchaseReceipt) -> Bool {
        let da = a.purchaseDate?.milliseconds ?? Int64.min
        let db = b.purchaseDate?.milliseconds ?? Int64.min
        if da != db { return da < db }
        let ta = a.transactionID ?? ""
        let tb = b.transactionID ?? ""
        if let na = UInt64(ta), let nb = UInt64(tb), na != nb { return na < nb }
        if ta != tb { return ta < tb }
        return (a.productID ?? "") < (b.productID ?? "")
    }
}
