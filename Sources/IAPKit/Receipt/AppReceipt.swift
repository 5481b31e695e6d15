import IAPCrypto
import IAPTime

/// The payload of an App Store app receipt (REFERENCE section 5): what `receipt --json` and
/// `receipt decode` show and what the verifiers check. Every field is optional because receipts
/// iapctl did not make may lack any of them; iapctl's own receipts have them all.
public struct AppReceipt: Hashable, Sendable {
    /// Attribute 0 as written: "ProductionSandbox", "Production", "Xcode", ...
    public var environment: String?
    public var bundleID: String?
    /// Attribute 2's value bytes (the DER UTF8String): the third input of the receipt hash.
    public var bundleIDData: [UInt8]?
    /// `CFBundleVersion` (attribute 3).
    public var appVersion: String?
    public var opaqueValue: [UInt8]?
    /// SHA-1(device id || opaque value || bundle id data) (attribute 5).
    public var sha1Hash: [UInt8]?
    public var creationDate: Timestamp?
    public var originalAppVersion: String?
    /// Attribute 21: Xcode writes 4001-01-01; App Store receipts of VPP apps carry one.
    public var expirationDate: Timestamp?
    /// In payload order.
    public var inAppPurchases: [InAppPurchaseReceipt]
    /// Attributes of types iapctl does not model (Xcode's 1 and 8, say), kept as read.
    public var otherAttributes: [ReceiptAttribute]

    public init(
        environment: String? = nil, bundleID: String? = nil, bundleIDData: [UInt8]? = nil, appVersion: String? = nil,
        opaqueValue: [UInt8]? = nil, sha1Hash: [UInt8]? = nil, creationDate: Timestamp? = nil,
        originalAppVersion: String? = nil, expirationDate: Timestamp? = nil, inAppPurchases: [InAppPurchaseReceipt] = [],
        otherAttributes: [ReceiptAttribute] = []
    ) {
        self.environment = environment
        self.bundleID = bundleID
        self.bundleIDData = bundleIDData
        self.appVersion = appVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.creationDate = creationDate
        self.originalAppVersion = originalAppVersion
        self.expirationDate = expirationDate
        self.inAppPurchases = inAppPurchases
        self.otherAttributes = otherAttributes
    }

    /// The in-app purchases sorted by purchase date, then transaction id.
    public var inAppPurchasesInOrder: [InAppPurchaseReceipt] { inAppPurchases.sorted(by: InAppPurchaseReceipt.precedes) }

    /// SHA-1(device id || opaque value || bundle id data): what attribute 5 must hold for the
    /// receipt to belong to this device (RMStore's `verifyReceiptHash`).
    public func expectedHash(deviceID: [UInt8]) -> [UInt8]? {
        guard let opaqueValue, let bundleIDData else { return nil }
        var sha = SHA1()
        sha.update(deviceID)
        sha.update(opaqueValue)
        sha.update(bundleIDData)
        return sha.finalize()
    }
}
