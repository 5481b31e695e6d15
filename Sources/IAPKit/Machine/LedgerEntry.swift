/// What the app has delivered of one product: RMStore's keychain persistence
/// (`RMStoreKeychainPersistence`), kept by the store.
///
/// RMStore's `persistTransaction:` adds one per transaction it reports finished, and
/// `consumeProductOfIdentifier:` takes one away, never below zero. iapctl keeps both numbers
/// apart: `purchases` counts delivered transactions (RMStore's count before any consumption), and
/// the consumable balance counts units, so a payment with quantity 3 gives 3 to consume (RMStore
/// ignores `SKPayment.quantity` and would count 1).
public struct LedgerEntry: Hashable, Sendable, Codable {
    /// Purchased and restored transactions delivered (reported finished).
    public var purchases: Int
    /// Units delivered: the sum of their quantities.
    public var units: Int
    /// Units consumed (`iapctl consume`).
    public var consumed: Int

    public init(purchases: Int = 0, units: Int = 0, consumed: Int = 0) {
        self.purchases = purchases
        self.units = units
        self.consumed = consumed
    }

    /// Units left to consume.
    public var balance: Int { units - consumed }

    /// Whether the product counts as owned: a consumable while units are left, anything else once
    /// delivered (RMStore's `isPurchasedProductOfIdentifier:`).
    public func isOwned(_ type: ProductType) -> Bool {
        type == .consumable ? balance > 0 : purchases > 0
    }
}
