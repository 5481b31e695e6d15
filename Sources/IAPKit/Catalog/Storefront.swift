/// An App Store storefront: its ISO 3166-1 alpha-3 code (as StoreKit's `Storefront.countryCode`),
/// its currency and how that currency's prices are written.
public struct Storefront: Hashable, Sendable {
    public let code: String
    /// The numeric storefront id App Store Server data carries as `storefrontId`.
    public let storefrontID: String
    public let currency: String
    public let symbol: String
    /// Digits after the decimal point (JPY and KRW have none).
    public let fractionDigits: Int
    /// The locale product text is shown in when the store does not set one.
    public let defaultLocale: String

    /// The storefronts iapctl knows. A catalog may price products in any of them.
    public static let all: [Storefront] = [
        Storefront(code: "USA", storefrontID: "143441", currency: "USD", symbol: "$", fractionDigits: 2, defaultLocale: "en_US"),
        Storefront(code: "CHN", storefrontID: "143465", currency: "CNY", symbol: "¥", fractionDigits: 2, defaultLocale: "zh_CN"),
        Storefront(code: "JPN", storefrontID: "143462", currency: "JPY", symbol: "¥", fractionDigits: 0, defaultLocale: "ja_JP"),
        Storefront(code: "GBR", storefrontID: "143444", currency: "GBP", symbol: "£", fractionDigits: 2, defaultLocale: "en_GB"),
        Storefront(code: "DEU", storefrontID: "143443", currency: "EUR", symbol: "€", fractionDigits: 2, defaultLocale: "de_DE"),
        Storefront(code: "FRA", storefrontID: "143442", currency: "EUR", symbol: "€", fractionDigits: 2, defaultLocale: "fr_FR"),
        Storefront(
            code: "CAN", storefrontID: "143455", currency: "CAD", symbol: "CA$", fractionDigits: 2, defaultLocale: "en_CA"),
        Storefront(code: "AUS", storefrontID: "143460", currency: "AUD", symbol: "A$", fractionDigits: 2, defaultLocale: "en_AU"),
        Storefront(code: "KOR", storefrontID: "143466", currency: "KRW", symbol: "₩", fractionDigits: 0, defaultLocale: "ko_KR"),
        Storefront(
            code: "HKG", storefrontID: "143463", currency: "HKD", symbol: "HK$", fractionDigits: 2, defaultLocale: "zh_HK"),
        Storefront(
            code: "TWN", storefrontID: "143470", currency: "TWD", symbol: "NT$", fractionDigits: 2, defaultLocale: "zh_TW"),
    ]

    /// The storefront with this code (case-insensitive), or nil.
    public static func named(_ code: String) -> Storefront? {
        let upper = code.uppercased()
        return all.first { $0.code == upper }
    }

    public static let usa = all[0]

    /// The price as a shopper sees it: symbol, grouped digits, the currency's decimals
    /// (`$0.99`, `¥6.00` in CHN, `¥120` in JPN, `$1,299.99`).
    public func localizedPrice(_ price: Price) -> String {
        let text = price.decimalString(fractionDigits: fractionDigits)
        let parts = text.split(separator: ".", maxSplits: 1)
        let whole = Array(parts[0])
        var grouped = ""
        for (i, ch) in whole.enumerated() {
            if i > 0 && (whole.count - i) % 3 == 0 { grouped.append(",") }
            grouped.append(ch)
        }
        return symbol + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }
}
