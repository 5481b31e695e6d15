import IAPCrypto

/// The device identifier a receipt is bound to: `UIDevice.identifierForVendor` as 16 bytes, the
/// first input of the receipt hash (attribute 5 = SHA-1(device id || opaque value || bundle id
/// attribute bytes), REFERENCE section 5; RMStore's `-[RMAppReceipt verifyReceiptHash]`).
public enum DeviceIdentifier {
    /// 32 hex digits, or a UUID with dashes (`8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E90`), as 16 bytes.
    public static func parse(_ text: String) -> [UInt8]? {
        var hex = text
        if text.count == 36 {
            let dashes = [8, 13, 18, 23]
            let chars = Array(text)
            guard dashes.allSatisfy({ chars[$0] == "-" }) else { return nil }
            hex = String(chars.enumerated().filter { !dashes.contains($0.offset) }.map(\.element))
        }
        guard hex.count == 32, let bytes = Hex.decode(hex) else { return nil }
        return bytes
    }

    /// The identifier a store uses when the `device-id` setting is `auto`: the first 16 bytes of
    /// SHA-256("iapctl device-id " + bundle id), so stores of the same app share a device and
    /// every run gives the same receipts.
    public static func derived(bundleID: String) -> [UInt8] {
        Array(SHA256.hash(Array("iapctl device-id \(bundleID)".utf8)).prefix(16))
    }

    /// A UUID-style rendering (`8E3A1F0C-5B7D-...`), as iOS prints identifierForVendor.
    public static func uuidString(_ bytes: [UInt8]) -> String {
        let hex = Hex.encode(bytes).uppercased()
        let chars = Array(hex)
        guard chars.count == 32 else { return hex }
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }
}

extension StoreState {
    /// The device identifier in force: the `device-id` setting, else one derived from the bundle id.
    public var deviceIdentifier: [UInt8] {
        settings.deviceID.flatMap(DeviceIdentifier.parse) ?? DeviceIdentifier.derived(bundleID: bundleID)
    }
}
