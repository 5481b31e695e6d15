/// How many of a product one payment may buy (`SKMutablePayment.quantity`), declared once: the
/// machine enforces it, the CLI parses `--quantity` against it and help text quotes it.
///
/// StoreKit accepts quantities up to 10; App Store Connect lets only consumables be bought more
/// than one at a time, and iapctl's `nonrenewing-quantity` setting extends that to non-renewing
/// subscriptions (to test apps that sell several months at once).
public enum PurchaseQuantity {
    public static let range = 1...10

    /// Whether `type` may be bought more than one at a time under `settings`.
    public static func allowsMany(_ type: ProductType, settings: Settings) -> Bool {
        switch type {
        case .consumable: return true
        case .nonRenewing: return settings.nonRenewingQuantity
        case .nonConsumable, .autoRenewable: return false
        }
    }

    /// "1 to 10", for messages and help.
    public static var text: String { "\(range.lowerBound) to \(range.upperBound)" }
}
