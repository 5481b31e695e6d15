/// The order id of a purchase: what Apple prints on the customer's e-mailed invoice ("Order
/// ID", ten characters of `0-9A-Z` such as `MK5TTTVWJH`) and what Look Up Order ID takes
/// (App Store Server API, look-up-order-id).
///
/// The App Store gives an order to each of its own records: a purchase that started an
/// ownership, was charged again, or renewed (`AppStoreServerAPI.isInHistory`'s set); a restored
/// copy or a transaction that never reached the App Store has none. iapctl has no cart, so each
/// order holds one transaction. The id is a bijection of the transaction id (an affine map modulo
/// 36^10 written in base 36), so it is deterministic, distinct per transaction, looks unlike the
/// transaction id, and maps back without an index.
public enum OrderIdentifier {
    static let modulus: UInt64 = 3_656_158_440_062_976  // 36^10
    static let multiplier: UInt64 = 1_000_003  // prime, so coprime with 36
    static let offset: UInt64 = 1_234_567_890_123
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    static let length = 10

    /// The inverse of `multiplier` modulo 36^10 (extended Euclid).
    static let inverse: UInt64 = {
        var (r0, r1) = (Int128(modulus), Int128(multiplier))
        var (t0, t1) = (Int128(0), Int128(1))
        while r1 != 0 {
            let q = r0 / r1
            (r0, r1) = (r1, r0 - q * r1)
            (t0, t1) = (t1, t0 - q * t1)
        }
        return UInt64((t0 % Int128(modulus) + Int128(modulus)) % Int128(modulus))
    }()

    static func mulmod(_ a: UInt64, _ b: UInt64) -> UInt64 {
        UInt64((UInt128(a) * UInt128(b)) % UInt128(modulus))
    }

    /// The order id of a transaction the App Store has an order for, else nil. A family member's
    /// shared copy has none: the order is the purchaser's ("When customers make one or more in-app
    /// purchases in your app, the App Store emails them a receipt. The receipt contains an order
    /// ID", App Store Server API, orderId), so Look Up Order ID finds the purchaser's transaction.
    public static func of(_ t: Transaction) -> String? {
        guard case .purchased = t.state, t.id == t.originalID || t.charged || t.reason == .renewal else { return nil }
        guard t.inAppOwnershipType == "PURCHASED" else { return nil }
        return text(for: t.id)
    }

    /// The order id the transaction id maps to.
    public static func text(for id: TransactionID) -> String {
        var n = (mulmod(id.rawValue % modulus, multiplier) + offset) % modulus
        var out = [UInt8](repeating: digits[0], count: length)
        for i in stride(from: length - 1, through: 0, by: -1) {
            out[i] = digits[Int(n % 36)]
            n /= 36
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The transaction id an order id names, or nil when the text is not ten characters of
    /// `0-9A-Z` (the transaction may still not exist).
    public static func transactionID(of text: String) -> TransactionID? {
        let bytes = Array(text.utf8)
        guard bytes.count == length else { return nil }
        var n: UInt64 = 0
        for b in bytes {
            guard let d = digits.firstIndex(of: b) else { return nil }
            n = n * 36 + UInt64(d)
        }
        let id = mulmod((n + modulus - offset) % modulus, inverse)
        return id == 0 ? nil : TransactionID(id)
    }
}
