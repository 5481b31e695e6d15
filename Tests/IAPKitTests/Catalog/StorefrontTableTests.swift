import Testing

@testable import IAPKit

/// The storefront table against App Store Connect's list of storefronts (175 countries and
/// regions, ISO 3166-1 alpha-3 codes) and their currencies, with ISO 4217 minor units.
@Suite("Catalog: the App Store storefronts")
struct StorefrontTableTests {
    @Test("175 storefronts, unique codes in alphabetical order, 43 currencies")
    func table() {
        let codes = Storefront.all.map(\.code)
        #expect(codes.count == 175)
        #expect(Set(codes).count == 175)
        #expect(codes == codes.sorted())
        #expect(Set(Storefront.all.map(\.alpha2)).count == 175)
        #expect(Set(Storefront.all.map(\.currency)).count == 43)
        #expect(Storefront.all.allSatisfy { $0.code.count == 3 && $0.alpha2.count == 2 && $0.currency.count == 3 })
        #expect(Storefront.usa.code == "USA")
        // `named` and `money(of:)` search these by binary search.
        #expect(Storefront.rows.map(\.code) == codes)
        // The written-out search keys are the codes' own, in the same order.
        #expect(Storefront.keys == Storefront.rows.map { Storefront.key($0.code) ?? 0 })
        #expect(!Storefront.keys.contains(0))
        let currencies = Storefront.currencies.map(\.code)
        #expect(currencies == currencies.sorted() && Set(currencies).count == 43)
        #expect(Storefront.all.allSatisfy { Storefront.named($0.code) == $0 })
        #expect(Storefront.money(of: "XXX") == nil)
    }

    @Test(
        "currencies and minor units as App Store Connect and ISO 4217 give them",
        arguments: [
            ("USA", "USD", 2), ("JPN", "JPY", 0), ("KOR", "KRW", 0), ("CHL", "CLP", 0), ("VNM", "VND", 0),
            ("CHN", "CNY", 2), ("DEU", "EUR", 2), ("ESP", "EUR", 2), ("XKS", "EUR", 2), ("BGR", "EUR", 2),
            ("CHE", "CHF", 2), ("GBR", "GBP", 2), ("IND", "INR", 2), ("BRA", "BRL", 2), ("IDN", "IDR", 2),
            ("ARG", "USD", 2), ("ISL", "USD", 2), ("TZA", "TZS", 2), ("KAZ", "KZT", 2), ("TWN", "TWD", 2),
        ] as [(String, String, Int)])
    func currency(_ code: String, _ currency: String, _ digits: Int) throws {
        let shop = try #require(Storefront.named(code))
        #expect(shop.currency == currency)
        #expect(shop.fractionDigits == digits)
    }

    @Test("codes are case-insensitive; storefront ids where known")
    func lookup() {
        #expect(Storefront.named("esp")?.name == "Spain")
        #expect(Storefront.named("USA")?.storefrontID == "143441")
        #expect(Storefront.named("JPN")?.storefrontID == "143462")
        #expect(Storefront.named("CHN")?.storefrontID == "143465")
        #expect(Storefront.named("AFG")?.storefrontID == nil)
        #expect(Storefront.named("US") == nil)
        #expect(Storefront.named("usA")?.code == "USA")
        #expect(Storefront.named("USAA") == nil)
        #expect(Storefront.named("") == nil)
        // Non-ASCII codes are uppercased and compared as text, as strings compare.
        #expect(Storefront.named("u\u{17F}a")?.code == "USA")
        #expect(Storefront.named("\u{212A}OR")?.code == "KOR")
        #expect(Storefront.named("\u{C9}SP") == nil)
        #expect(Storefront.codeAndCurrency("jpn")?.code == "JPN")
        #expect(Storefront.codeAndCurrency("jpn")?.currency == "JPY")
        #expect(Storefront.codeAndCurrency("XYZ") == nil)
        #expect(Storefront.all.filter { $0.storefrontID != nil }.count == 115)
    }

    @Test(
        "prices are written in the storefront's currency, rounded half to even",
        arguments: [
            ("USA", "0.99", "$0.99"), ("CHN", "6", "¥6.00"), ("JPN", "120", "¥120"), ("JPN", "0.99", "¥1"),
            ("JPN", "2.5", "¥2"), ("JPN", "3.5", "¥4"), ("KOR", "1100", "₩1,100"), ("CHE", "9.9", "CHF 9.90"),
            ("DEU", "1299.99", "€1,299.99"), ("VNM", "25000", "₫25,000"), ("SWE", "10", "SEK 10.00"),
            ("USA", "0.995", "$1.00"), ("USA", "0.985", "$0.98"),
        ] as [(String, String, String)])
    func localizedPrice(_ code: String, _ price: String, _ text: String) throws {
        let shop = try #require(Storefront.named(code))
        #expect(shop.localizedPrice(Price(decimal: price)!) == text)
    }

    @Test("an unknown code's fix names the alpha-3 code of an alpha-2 one, or codes one letter away")
    func hints() {
        let tail = "use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN (all 175: docs/catalog.md)"
        #expect(Storefront.unknownCodeHint("us") == "did you mean 'USA'? " + tail)
        #expect(Storefront.unknownCodeHint("JPX") == "did you mean 'JPN'? " + tail)
        #expect(Storefront.unknownCodeHint("QQQ") == tail)
    }
}
