/// The App Store environment a store simulates (setting `environment`).
///
/// It decides the receipt's environment attribute (type 0) and which emulated verifyReceipt
/// endpoint accepts the store's receipts. Apple writes "ProductionSandbox" in sandbox receipts
/// (not "Sandbox", the name StoreKit 2 and the server APIs use), "Production" in App Store ones,
/// and Xcode's StoreKit testing writes "Xcode" (`Fixtures/vectors/xcode-app-receipt-*`).
/// "LocalTesting" is the StoreKit 2 name of on-device local testing; iapctl writes it as is.
public enum ReceiptEnvironment: String, CaseIterable, Sendable, Codable {
    case sandbox = "Sandbox"
    case production = "Production"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"

    public static var names: [String] { allCases.map(\.rawValue) }

    /// Parses a setting value: a name in any case, or the receipt spelling "ProductionSandbox".
    public init?(name: String) {
        let lowered = name.lowercased()
        if lowered == "productionsandbox" {
            self = .sandbox
            return
        }
        guard let match = ReceiptEnvironment.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
        self = match
    }

    /// The value of receipt attribute 0.
    public var receiptValue: String {
        switch self {
        case .sandbox: return "ProductionSandbox"
        case .production: return "Production"
        case .xcode: return "Xcode"
        case .localTesting: return "LocalTesting"
        }
    }

    /// The environment a receipt's attribute 0 names, if it is one Apple writes.
    public init?(receiptValue: String) {
        switch receiptValue {
        case "ProductionSandbox", "Sandbox": self = .sandbox
        case "Production": self = .production
        case "Xcode": self = .xcode
        case "LocalTesting": self = .localTesting
        default: return nil
        }
    }
}
