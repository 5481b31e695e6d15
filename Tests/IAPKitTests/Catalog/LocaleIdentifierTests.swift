import Testing

@testable import IAPKit

/// Locale identifiers as StoreKit writes them, and one definition of "close" for suggestions.
@Suite("Locales and suggestions")
struct LocaleIdentifierTests {
    @Test(
        "well-formed locales of known parts are valid",
        arguments: ["en_US", "zh_CN", "ja_JP", "pt_BR", "de", "zh_Hans", "zh_Hant_TW", "es_419", "fil_PH", "sr_Latn_RS"])
    func valid(text: String) {
        #expect(LocaleIdentifier.isValid(text))
        #expect(LocaleIdentifier.problem(text) == nil)
    }

    @Test(
        "anything else is refused, with the canonical form or a near locale when there is one",
        arguments: [
            ("klingon", nil), ("en_us", "en_US"), ("EN-us", "en_US"), ("zh-Hans", "zh_Hans"), ("xx_YY", nil), ("en_XX", nil),
            ("en_US_POSIX_x", nil), ("", nil), ("en__US", "en_US"), ("ja_JPN", "ja_JP"), ("fr_FX", "fr_FR"), ("de_DF", "de_DE"),
        ] as [(String, String?)])
    func invalid(text: String, suggestion: String?) {
        #expect(!LocaleIdentifier.isValid(text))
        #expect(LocaleIdentifier.suggestion(for: text) == suggestion)
        let shown = text.isEmpty ? "an empty value" : "'\(text)'"
        let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
        #expect(
            LocaleIdentifier.problem(text)
                == "\(shown) is not a locale; write language_REGION such as en_US, zh_CN or ja_JP\(hint)")
    }

    @Test("a .storekit file's _locale is checked like every other locale")
    func storeKitSettingsLocale() {
        let json = """
            {"settings": {"_locale": "klingon"}, "products": [{"productID": "com.x.a", "type": "Consumable", "displayPrice": "0.99",
             "localizations": [{"locale": "en_US", "displayName": "A", "description": ""}]}]}
            """
        #expect(
            throws: CatalogError(
                file: "inline.storekit", keyPath: "settings._locale",
                problem: "'klingon' is not a locale; write language_REGION such as en_US, zh_CN or ja_JP")
        ) {
            try StoreKitConfigurationFormat.readImport(Array(json.utf8), file: "inline.storekit")
        }
    }

    @Test(
        "close means at most a third of the longer word in edits, a swap counting as one",
        arguments: [
            ("by", "buy", true), ("purchsed", "purchased", true), ("purhcased", "purchased", true),
            ("storefrnt", "storefront", true), ("consumible", "consumable", true), ("EN_us", "en_US", true),
            ("7", "0", false), ("10", "1", false), ("x", "purchased", false), ("frobnicate", "finish", false),
            ("klingon", "en_US", false), ("abcd", "abxy", false),
        ])
    func closeness(input: String, candidate: String, close: Bool) {
        #expect(Suggestions.isClose(input, candidate) == close)
        #expect((Suggestions.nearest(to: input, among: [candidate]) != nil) == close)
    }

    @Test("no suggestion for a one-character value among one-character choices")
    func noFarSuggestions() {
        #expect(Suggestions.nearest(to: "7", among: ["0", "1"]) == nil)
        #expect(Suggestions.closest(to: "nope", among: ["com.x.coin42", "com.x.noads"]) == [])
        #expect(
            Suggestions.closest(to: "com.x.coin43", among: ["com.x.coin42", "com.x.noads", "com.x.coin210"]) == [
                "com.x.coin42", "com.x.coin210",
            ])
    }
}
