/// An exact decimal price, kept as an integer count of milliunits (1/1000 of the currency unit).
///
/// Milliunits are what StoreKit 2's signed transactions carry (`price: 990` for 0.99); keeping
/// integers avoids the rounding that `Double` would bring into receipts and ledgers.
public struct Price: Hashable, Comparable, Sendable, Codable {
    public let milliunits: Int64

    public init(milliunits: Int64) { self.milliunits = milliunits }

    public static let zero = Price(milliunits: 0)

    public static func < (lhs: Price, rhs: Price) -> Bool { lhs.milliunits < rhs.milliunits }

    /// Parses a non-negative decimal such as `0.99`, `6`, `120.000` (at most three fraction digits).
    public init?(decimal text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 12,
            whole.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let units = Int64(whole)
        else { return nil }
        var milli: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 3, fraction.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { return nil }
            milli = Int64(String(fraction) + String(repeating: "0", count: 3 - fraction.count))!
        }
        milliunits = units * 1000 + milli
    }

    /// The price as a decimal string with exactly `fractionDigits` digits after the point
    /// (`0.99` for USD, `6.00` for CNY, `120` for JPY).
    public func decimalString(fractionDigits: Int) -> String {
        let units = milliunits / 1000
        let milli = milliunits % 1000
        switch fractionDigits {
        case 0: return String(units)
        case 1: return "\(units).\(milli / 100)"
        case 2: return "\(units).\(milli / 10 < 10 ? "0" : "")\(milli / 10)"
        default:
            let m = String(milli)
            return "\(units).\(String(repeating: "0", count: 3 - m.count))\(m)"
        }
    }

    /// Whether the price has no digits below the currency's smallest unit.
    public func fits(fractionDigits: Int) -> Bool {
        switch fractionDigits {
        case 0: return milliunits % 1000 == 0
        case 1: return milliunits % 100 == 0
        case 2: return milliunits % 10 == 0
        default: return true
        }
    }

    /// The price rounded to `fractionDigits` decimals, half to even, as Foundation's currency
    /// formatter rounds: Xcode keeps one `displayPrice` per product and shows it in the currency
    /// of whichever storefront the test session runs in, so 0.99 is ¥1 in Japan and 2.50 is ¥2.
    public func rounded(toFractionDigits fractionDigits: Int) -> Price {
        let step: Int64
        switch fractionDigits {
        case 0: step = 1000
        case 1: step = 100
        case 2: step = 10
        default: return self
        }
        let low = milliunits / step * step
        let rest = milliunits - low
        let up = rest * 2 > step || (rest * 2 == step && (low / step) % 2 == 1)
        return Price(milliunits: up ? low + step : low)
    }

    public static func * (lhs: Price, rhs: Int) -> Price { Price(milliunits: lhs.milliunits * Int64(rhs)) }

    public init(from decoder: any Decoder) throws {
        milliunits = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliunits)
    }
}
