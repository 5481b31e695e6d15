import IAPCrypto

/// What a local verification compares a receipt with: the trusted root and the app's own facts
/// (RMStore's `RMStoreAppReceiptVerifier`: `bundleIdentifier`, `bundleVersion`, the device's
/// `identifierForVendor`), and optionally a transaction or product that must be in it.
public struct ReceiptExpectations: Sendable {
    public var root: Certificate
    public var bundleID: String
    public var appVersion: String
    public var deviceID: [UInt8]
    /// True when `deviceID` is only a guess (the store's own device, for a receipt from
    /// elsewhere): a hash mismatch then means the receipt's device is unknown, not that the
    /// receipt was moved to another device.
    public var deviceIDIsAssumed: Bool
    public var transactionID: String?
    public var productID: String?

    public init(
        root: Certificate, bundleID: String, appVersion: String, deviceID: [UInt8], deviceIDIsAssumed: Bool = false,
        transactionID: String? = nil, productID: String? = nil
    ) {
        self.root = root
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.deviceID = deviceID
        self.deviceIDIsAssumed = deviceIDIsAssumed
        self.transactionID = transactionID
        self.productID = productID
    }
}
