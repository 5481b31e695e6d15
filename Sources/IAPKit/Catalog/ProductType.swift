/// The four kinds of in-app purchase (`SKProduct`'s type in App Store Connect).
public enum ProductType: String, CaseIterable, Sendable, Codable {
    case consumable
    case nonConsumable
    case autoRenewable
    case nonRenewing

    /// StoreKit 1 restores non-consumables and auto-renewable subscriptions only; consumables and
    /// non-renewing subscriptions are never restored (REFERENCE section 1).
    public var isRestorable: Bool {
        switch self {
        case .nonConsumable, .autoRenewable: return true
        case .consumable, .nonRenewing: return false
        }
    }

    public var isSubscription: Bool {
        switch self {
        case .autoRenewable, .nonRenewing: return true
        case .consumable, .nonConsumable: return false
        }
    }

    /// The `type` value of a StoreKit 2 signed transaction.
    public var signedTypeName: String {
        switch self {
        case .consumable: return "Consumable"
        case .nonConsumable: return "Non-Consumable"
        case .autoRenewable: return "Auto-Renewable Subscription"
        case .nonRenewing: return "Non-Renewing Subscription"
        }
    }
}
