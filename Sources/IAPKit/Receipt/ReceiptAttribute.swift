/// One attribute of a receipt payload: `SEQUENCE { type INTEGER, version INTEGER, value OCTET
/// STRING }` (REFERENCE section 5). The value holds DER: a UTF8String, IA5String or INTEGER, a
/// nested SET for in-app purchases, or raw bytes for the opaque value and the SHA-1 hash.
public struct ReceiptAttribute: Hashable, Sendable {
    public let type: Int
    public let version: Int
    /// The OCTET STRING's content.
    public let value: [UInt8]

    public init(type: Int, version: Int = 1, value: [UInt8]) {
        self.type = type
        self.version = version
        self.value = value
    }
}

/// The attribute types iapctl reads and writes (Apple's "Receipt Fields"; REFERENCE section 5).
enum ReceiptField {
    static let environment = 0
    static let bundleID = 2
    static let appVersion = 3
    static let opaqueValue = 4
    static let sha1Hash = 5
    static let creationDate = 12
    static let inAppPurchase = 17
    static let originalAppVersion = 19
    static let expirationDate = 21

    static let quantity = 1701
    static let productID = 1702
    static let transactionID = 1703
    static let purchaseDate = 1704
    static let originalTransactionID = 1705
    static let originalPurchaseDate = 1706
    static let expiresDate = 1708
    static let webOrderLineItemID = 1711
    static let cancellationDate = 1712
    /// `is_trial_period`: not in Apple's field table, but present in its receipts and read by
    /// receipt libraries; iapctl writes it for auto-renewable subscriptions.
    static let isTrialPeriod = 1713
    static let isInIntroOfferPeriod = 1719
    /// `promotional_offer_id`: "Subscription Offer Identifier ... ASN.1 Field Type 1721,
    /// UTF8STRING" (Apple's "Receipt Fields"), the identifier of the promotional offer a
    /// subscription period was bought under.
    static let promotionalOfferID = 1721
}
