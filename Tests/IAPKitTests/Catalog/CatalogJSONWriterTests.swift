import Testing

@testable import IAPKit

@Suite("Catalog: writing the project's JSON format")
struct CatalogJSONWriterTests {
    @Test("Fixtures/catalog.json writes back byte for byte")
    func defaultCatalogIsAFixedPoint() throws {
        let bytes = try StoreKitFixture.bytes("catalog.json")
        let catalog = try CatalogJSONFormat.read(bytes, file: "catalog.json")
        let written = CatalogJSONFormat.write(catalog)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: bytes, as: UTF8.self))
    }

    @Test(
        "read(write(c)) gives back the same products and settings",
        arguments: [
            "catalog.json", "Example.storekit", "storekit/v1.storekit", "storekit/v2.storekit", "storekit/v5.storekit",
            "storekit/errors.storekit",
        ])
    func roundTrip(_ path: String) throws {
        let original = try CatalogLoader.load(bytes: try StoreKitFixture.bytes(path), file: path)
        let written = CatalogJSONFormat.write(original)
        let reread = try CatalogJSONFormat.read(written, file: "converted.json")
        #expect(reread.products == original.products)
        #expect(reread.settings.map { "\($0.key)=\($0.value)" } == original.settings.map { "\($0.key)=\($0.value)" })
        #expect(CatalogJSONFormat.write(reread) == written)
    }

    @Test("the converted Example.storekit, exactly")
    func convertedExample() throws {
        let catalog = try StoreKitConfigurationFormat.read(
            try StoreKitFixture.bytes("Example.storekit"), file: "Example.storekit")
        let text = String(decoding: CatalogJSONFormat.write(catalog), as: UTF8.self)
        #expect(
            text.hasPrefix(
                """
                {
                  "format": "iapctl-catalog",
                  "version": 1,
                  "settings": {
                    "locale": "en_US",
                    "storefront": "USA",
                    "ask-to-buy": "true",
                    "fail-transactions": "false",
                    "billing-issues": "false",
                    "grace-period": "true",
                    "fault": "restore unknown"
                  },
                  "products": [
                    {
                      "productIdentifier": "com.example.gems100",
                      "type": "consumable",
                      "referenceName": "100 gems",
                      "localizations": {
                        "en_US": {
                          "title": "100 Gems",
                          "description": "A handful of gems to spend in the game."
                        },
                        "de_DE": {
                          "title": "100 Edelsteine",
                          "description": "Eine Handvoll Edelsteine für das Spiel."
                        }
                      },
                      "anyStorefront": true,
                      "prices": {
                        "USA": "0.99"
                      }
                    },
                """))
        #expect(
            text.contains(
                """
                      "subscriptionPeriod": "P1Y",
                      "subscriptionGroup": "Premium",
                      "groupLevel": 1,
                      "introductoryOffer": {
                        "paymentMode": "payUpFront",
                        "period": "P6M",
                        "numberOfPeriods": 1,
                        "prices": {
                          "USA": "19.99"
                        }
                      }
                """))
        #expect(text.hasSuffix("}\n"))
    }

    @Test("repeated settings are written as one array and read back in order")
    func repeatedSettings() throws {
        let product = Product(
            id: ProductID("com.x.a"), type: .consumable, referenceName: "a",
            localizations: [.init(locale: "en_US", title: "A \"quoted\"\ttitle", description: "")],
            prices: [.init(storefront: "JPN", price: Price(decimal: "120")!)])
        let catalog = Catalog(
            products: [product],
            settings: [
                CatalogSetting("fault", "purchase paymentCancelled"), CatalogSetting("locale", "ja_JP"),
                CatalogSetting("fault", "products unknown"),
            ])
        let written = CatalogJSONFormat.write(catalog)
        let text = String(decoding: written, as: UTF8.self)
        #expect(
            text.contains(
                """
                  "settings": {
                    "fault": [
                      "purchase paymentCancelled",
                      "products unknown"
                    ],
                    "locale": "ja_JP"
                  },
                """))
        #expect(text.contains(#""title": "A \"quoted\"\ttitle","#))
        #expect(text.contains(#""JPN": "120""#))
        let reread = try CatalogJSONFormat.read(written, file: "x.json")
        #expect(
            reread.settings.map { "\($0.key)=\($0.value)" } == [
                "fault=purchase paymentCancelled", "fault=products unknown", "locale=ja_JP",
            ])
        #expect(reread.products == [product])
    }

    @Test("defaults are left out; hosted content, family sharing and self-hosting are written when set")
    func optionalKeys() throws {
        let product = Product(
            id: ProductID("com.x.pack"), type: .nonConsumable, referenceName: "pack",
            localizations: [.init(locale: "en_US", title: "Pack", description: "d")],
            prices: [.init(storefront: "USA", price: Price(decimal: "2.5")!)],
            hostedContent: [HostedContent(contentIdentifier: "levels", version: "1.0", path: "content/levels")],
            selfHosted: true, familyShareable: true)
        let written = CatalogJSONFormat.write(Catalog(products: [product]))
        let text = String(decoding: written, as: UTF8.self)
        #expect(!text.contains("\"settings\""))
        #expect(text.contains(#""familyShareable": true,"#))
        #expect(text.contains(#""USA": "2.50""#))
        #expect(text.contains(#""selfHosted": true"#))
        #expect(try CatalogJSONFormat.read(written, file: "x.json").products == [product])
    }
}
