import IAPCrypto

/// The receipt and verification settings: `environment`, `device-id`, `shared-secret` and
/// `auto-finish` (issue 5). Kept apart from `Settings.swift` so each group of settings reads on
/// its own; `SettingKey`'s switches delegate each of these cases here, and every switch is
/// exhaustive over the group (no `default:`), so a new receipt setting is a compile error until
/// each part handles it.
enum ReceiptSetting {
    case environment, deviceID, sharedSecret, autoFinish

    var key: SettingKey {
        switch self {
        case .environment: return .environment
        case .deviceID: return .deviceID
        case .sharedSecret: return .sharedSecret
        case .autoFinish: return .autoFinish
        }
    }

    var summary: String {
        switch self {
        case .environment:
            return
                "Sandbox, Production, Xcode or LocalTesting: the receipt's environment and the verifyReceipt endpoint that accepts it"
        case .deviceID:
            return
                "the device's identifierForVendor (32 hex digits or a UUID) hashed into receipts, or 'auto' to derive it from the bundle id"
        case .sharedSecret:
            return "the app's shared secret that verifyReceipt wants for auto-renewable receipts (status 21004), or 'none'"
        case .autoFinish:
            return "true or false: run RMStore's pipeline on every purchase (verify the receipt, download, finish, count)"
        }
    }

    func value(in settings: Settings) -> String {
        switch self {
        case .environment: return settings.environment.rawValue
        case .deviceID: return settings.deviceID ?? "auto"
        case .sharedSecret: return settings.sharedSecret ?? "none"
        case .autoFinish: return settings.autoFinish ? "true" : "false"
        }
    }

    func set(_ text: String, in settings: inout Settings) throws(StoreError) {
        let rawValue = key.rawValue
        switch self {
        case .environment:
            guard let environment = ReceiptEnvironment(name: text) else {
                throw .badSettingValue(
                    key: rawValue, value: text, expected: "one of \(ReceiptEnvironment.names.joined(separator: ", "))")
            }
            settings.environment = environment
        case .deviceID:
            if text == "auto" {
                settings.deviceID = nil
            } else {
                guard let bytes = DeviceIdentifier.parse(text) else {
                    throw .badSettingValue(
                        key: rawValue, value: text,
                        expected: "32 hex digits or a UUID such as 8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E90, or auto")
                }
                settings.deviceID = Hex.encode(bytes)
            }
        case .sharedSecret:
            if text == "none" || text.isEmpty {
                settings.sharedSecret = nil
            } else {
                guard text.count <= 256, text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
                else {
                    throw .badSettingValue(
                        key: rawValue, value: text,
                        expected:
                            "printable ASCII without spaces, at most 256 characters (App Store secrets are 32 hex digits), or none"
                    )
                }
                settings.sharedSecret = text
            }
        case .autoFinish:
            switch text.lowercased() {
            case "true", "yes", "on", "1": settings.autoFinish = true
            case "false", "no", "off", "0": settings.autoFinish = false
            default: throw .badSettingValue(key: rawValue, value: text, expected: "true or false")
            }
        }
    }
}
