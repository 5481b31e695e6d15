import Testing

@testable import IAPKit

/// Every `.storekit` file of `Fixtures/real/storekit/` (Xcode's own output, from public
/// repositories; see `Fixtures/real/SOURCES.md`) loads, and holds what the file says: the
/// expectations below were written from the files' JSON, not from iapctl's reading of them.
@Suite("Catalog: real .storekit files from Xcode")
struct RealStoreKitFilesTests {
    struct Expected: Sendable {
        let id: String
        let type: ProductType
        let price: String
        let period: String?
        let group: String?
        let level: Int?
        /// `<mode> <count>x<period>[ <price>]`, the introductory offer iapctl applies.
        let offer: String?

        init(
            _ id: String, _ type: ProductType, _ price: String, _ period: String?, _ group: String?, _ level: Int?,
            _ offer: String?
        ) {
            self.id = id
            self.type = type
            self.price = price
            self.period = period
            self.group = group
            self.level = level
            self.offer = offer
        }
    }

    struct RealFile: Sendable, CustomTestStringConvertible {
        let file: String
        let major: Int64
        let minor: Int64
        let storefront: String
        let products: [Expected]
        let notes: [String]
        var testDescription: String { file }
    }

    static let files: [RealFile] = [
        RealFile(
            file: "flutter-runner-v4.storekit", major: 4, minor: 0, storefront: "USA",
            products: [
                .init("consumable", .consumable, "0.99", nil, nil, nil, nil),
                .init("upgrade", .nonConsumable, "10.99", nil, nil, nil, nil),
                .init("subscription_silver", .autoRenewable, "4.99", "P1W", "Example Subscriptions", 1, nil),
                .init("subscription_gold", .autoRenewable, "5.99", "P1M", "Example Subscriptions", 2, nil),
            ],
            notes: []),
        RealFile(
            file: "flutter-runnertests-v4.storekit", major: 4, minor: 0, storefront: "USA",
            products: [
                .init("consumable", .consumable, "0.99", nil, nil, nil, nil),
                .init("upgrade", .nonConsumable, "10.99", nil, nil, nil, nil),
                .init("subscription_silver", .autoRenewable, "4.99", "P1W", "Example Subscriptions", 1, nil),
                .init("subscription_gold", .autoRenewable, "5.99", "P1M", "Example Subscriptions", 2, nil),
            ],
            notes: []),
        RealFile(
            file: "joshdholtz-appstorekitconfigfile-v2.storekit", major: 2, minor: 0, storefront: "USA",
            products: [
                .init("com.revenuecat.pro.lifetime", .nonConsumable, "39.99", nil, nil, nil, nil),
                .init("com.revenuecat.pro.monthly", .autoRenewable, "2.99", "P1M", "Pro", 1, nil),
                .init("com.revenuecat.pro.yearly", .autoRenewable, "12.99", "P1Y", "Pro", 1, nil),
            ],
            notes: []),
        RealFile(
            file: "rc-integrationtests-purchasetester-v1.storekit", major: 1, minor: 1, storefront: "USA",
            products: [
                .init("lifetime", .nonConsumable, "199.99", nil, nil, nil, nil),
                .init(
                    "com.revenuecat.monthly_4.99.1_week_intro", .autoRenewable, "4.99", "P1M", "subscription_group", 1,
                    "freeTrial 1xP1W"),
                .init(
                    "com.revenuecat.annual_39.99.2_week_intro", .autoRenewable, "39.99", "P1Y", "subscription_group", 1,
                    "freeTrial 1xP2W"),
            ],
            notes: [
                "products[0].localizations[0].displayName: product 'lifetime' has no display name in en_US; showing its reference name 'lifetime'",
                "subscriptionGroups[0].subscriptions[0].localizations[0].displayName: product 'com.revenuecat.monthly_4.99.1_week_intro' has no display name in en_US; showing its reference name 'monthly free trial'",
                "subscriptionGroups[0].subscriptions[1].localizations[0].displayName: product 'com.revenuecat.annual_39.99.2_week_intro' has no display name in en_US; showing its reference name 'annual free trial'",
            ]),
        RealFile(
            file: "rc-legacyswiftexample-v1.storekit", major: 1, minor: 1, storefront: "USA",
            products: [
                .init("lifetime", .nonConsumable, "199.99", nil, nil, nil, nil),
                .init(
                    "com.revenuecat.monthly_4.99.1_week_intro", .autoRenewable, "4.99", "P1M", "subscription_group", 1,
                    "freeTrial 1xP1W"),
                .init(
                    "com.revenuecat.annual_39.99.2_week_intro", .autoRenewable, "39.99", "P1Y", "subscription_group", 1,
                    "freeTrial 1xP2W"),
            ],
            notes: [
                "products[0].localizations[0].displayName: product 'lifetime' has no display name in en_US; showing its reference name 'lifetime'",
                "subscriptionGroups[0].subscriptions[0].localizations[0].displayName: product 'com.revenuecat.monthly_4.99.1_week_intro' has no display name in en_US; showing its reference name 'monthly free trial'",
                "subscriptionGroups[0].subscriptions[1].localizations[0].displayName: product 'com.revenuecat.annual_39.99.2_week_intro' has no display name in en_US; showing its reference name 'annual free trial'",
            ]),
        RealFile(
            file: "rc-maestro-app787ddb07e6-v4.storekit", major: 4, minor: 0, storefront: "USA",
            products: [
                .init("pro_monthly_subscription", .autoRenewable, "9.99", "P1M", "Default offering", 1, nil),
                .init("pro_annual_subscription", .autoRenewable, "79.99", "P1Y", "Default offering", 1, nil),
            ],
            notes: [
                "subscriptionGroups[0].subscriptions[0].localizations[0].displayName: product 'pro_monthly_subscription' has no display name in en_US; showing its reference name 'Pro monthly'",
                "subscriptionGroups[0].subscriptions[1].localizations[0].displayName: product 'pro_annual_subscription' has no display name in en_US; showing its reference name 'Pro annually'",
            ]),
        RealFile(
            file: "rc-magicweather-gl-test-app-v4.storekit", major: 4, minor: 0, storefront: "USA",
            products: [
                .init("rc_3999_1y", .autoRenewable, "50", "P1Y", "premium", 1, nil)
            ],
            notes: []),
        RealFile(
            file: "rc-paywallstester-products-v3.storekit", major: 3, minor: 0, storefront: "ESP",
            products: [
                .init("com.revenuecat.simpleapp.monthly", .autoRenewable, "0.99", "P1M", "pro", 1, "freeTrial 1xP1W"),
                .init("com.revenuecat.simpleapp.yearly", .autoRenewable, "7.99", "P1Y", "pro", 1, nil),
                .init("com.revenuecat.simpleapp.weekly", .autoRenewable, "0.99", "P1W", "pro", 1, nil),
            ],
            notes: []),
        RealFile(
            file: "rc-rcttester-v4.storekit", major: 4, minor: 0, storefront: "USA",
            products: [
                .init("com.revenuecat.rcttester.premium_lifetime", .nonConsumable, "99.99", nil, nil, nil, nil),
                .init("small_tip", .consumable, "0.99", nil, nil, nil, nil),
                .init("com.revenuecat.rcttester.premium_monthly", .autoRenewable, "9.99", "P1M", "RCTTester Premium", 1, nil),
                .init("com.revenuecat.rcttester.premium_yearly", .autoRenewable, "79.99", "P1Y", "RCTTester Premium", 1, nil),
                .init("com.revenuecat.rcttester.lite_monthly", .autoRenewable, "9.99", "P1M", "RCTTester Lite", 1, nil),
                .init("com.revenuecat.rcttester.lite_yearly", .autoRenewable, "79.99", "P1Y", "RCTTester Lite", 1, nil),
            ],
            notes: []),
        RealFile(
            file: "rc-samplecat-v4.storekit", major: 4, minor: 0, storefront: "USA",
            products: [

            ],
            notes: [
                "products: the file has no products (Xcode opens it empty); the catalog sells nothing until you add some"
            ]),
        RealFile(
            file: "rc-simpleapp-products-v2.storekit", major: 2, minor: 0, storefront: "ESP",
            products: [
                .init("com.revenuecat.simpleapp.monthly", .autoRenewable, "0.99", "P1M", "pro", 1, "freeTrial 1xP1W"),
                .init("com.revenuecat.simpleapp.yearly", .autoRenewable, "7.99", "P1Y", "pro", 1, nil),
                .init("com.revenuecat.simpleapp.weekly", .autoRenewable, "0.99", "P1W", "pro", 1, nil),
            ],
            notes: []),
        RealFile(
            file: "rc-swiftexample-v1.storekit", major: 1, minor: 0, storefront: "USA",
            products: [
                .init("lifetime", .nonConsumable, "199.99", nil, nil, nil, nil),
                .init("monthly_freetrial", .autoRenewable, "8.99", "P1M", "subscription_group", 1, "freeTrial 1xP1W"),
                .init("annual_freetrial", .autoRenewable, "6.99", "P1Y", "subscription_group", 1, "freeTrial 1xP2W"),
            ],
            notes: [
                "products[0].localizations[0].displayName: product 'lifetime' has no display name in en_US; showing its reference name 'lifetime'",
                "subscriptionGroups[0].subscriptions[0].localizations[0].displayName: product 'monthly_freetrial' has no display name in en_US; showing its reference name 'monthly free trial'",
                "subscriptionGroups[0].subscriptions[1].localizations[0].displayName: product 'annual_freetrial' has no display name in en_US; showing its reference name 'annual free trial'",
            ]),
        RealFile(
            file: "rc-swiftui-configuration-v1.2.storekit", major: 1, minor: 2, storefront: "USA",
            products: [
                .init("rc_5999_non_renewing", .nonConsumable, "59.99", nil, nil, nil, nil),
                .init("com.revenuecat.lifetime.199.99", .nonConsumable, "199.99", nil, nil, nil, nil),
                .init("com.revenuecat.500coins.1.99", .consumable, "1.99", nil, nil, nil, nil),
                .init("rc_price_increase_2999_4999", .autoRenewable, "49.99", "P1M", "main subscription group", 1, nil),
                .init("rc_1099_1m", .autoRenewable, "10.99", "P1M", "main subscription group", 1, nil),
                .init(
                    "com.revenuecat.monthly_4.99.1_week_intro", .autoRenewable, "4.99", "P1M", "main subscription group", 1,
                    "freeTrial 1xP1W"),
                .init(
                    "com.revenuecat.annual_39.99.2_week_intro", .autoRenewable, "39.99", "P1Y", "main subscription group", 1,
                    "freeTrial 1xP2W"),
                .init("rc_3999_1y_1w0", .autoRenewable, "39.99", "P1Y", "$39.99 Annual Group", 1, nil),
            ],
            notes: [
                "subscriptionGroups[0].subscriptions[3].codeOffers[0].isStackable: offer code 'TestOffer' of 'com.revenuecat.annual_39.99.2_week_intro' is stackable in Xcode; iapctl reads that but applies one offer per period"
            ]),
        RealFile(
            file: "rc-unittests-v5.storekit", major: 5, minor: 0, storefront: "USA",
            products: [
                .init("lifetime", .nonConsumable, "199.99", nil, nil, nil, nil),
                .init("com.revenuecat.consumable", .consumable, "1.49", nil, nil, nil, nil),
                .init("com.revenuecat.non_renewable", .nonRenewing, "1.69", "P1M", nil, nil, nil),
                .init(
                    "com.revenuecat.monthly_4.99.1_week_intro", .autoRenewable, "4.99", "P1M", "subscription_group_1", 1,
                    "freeTrial 1xP3M"),
                .init(
                    "com.revenuecat.annual_39.99.2_week_intro", .autoRenewable, "39.99", "P1Y", "subscription_group_1", 1,
                    "freeTrial 1xP2W"),
                .init(
                    "com.revenuecat.sampleapp.monthly.12mocommitment", .autoRenewable, "11.88", "P1Y", "subscription_group_1", 1,
                    "freeTrial 1xP1M"),
                .init("com.revenuecat.annual_39.99_no_trial", .autoRenewable, "39.99", "P1Y", "subscription_group_2", 1, nil),
            ],
            notes: [
                "subscriptionGroups[0].subscriptions[2].localizations[0].displayName: product 'com.revenuecat.sampleapp.monthly.12mocommitment' has no display name in en_US; showing its reference name 'sub with 12mo monthly commitment'",
                "subscriptionGroups[0].subscriptions[2].billingPlans[0].displayPrice: billing plan BILLED_UPFRONT of 'com.revenuecat.sampleapp.monthly.12mocommitment' costs $0.99 but the subscription's displayPrice is $11.88; iapctl charges the displayPrice",
            ]),
        RealFile(
            file: "rc-v3loadshedder-v2.storekit", major: 2, minor: 0, storefront: "USA",
            products: [
                .init("com.revenuecat.loadShedder.monthly", .autoRenewable, "3.99", "P1M", "loadShedder_group", 1, nil)
            ],
            notes: [
                "settings._timeRate: Xcode's subscription time rate 6 is not applied; iapctl's clock moves with 'iapctl clock advance'"
            ]),
    ]

    static func read(_ file: String) throws -> StoreKitConfigurationFormat.Import {
        try StoreKitConfigurationFormat.readImport(try StoreKitFixture.bytes("real/storekit/\(file)"), file: file)
    }

    @Test("every real file loads with the products, prices, periods, offers, groups and notes it holds", arguments: files)
    func realFile(_ f: RealFile) throws {
        let result = try Self.read(f.file)
        #expect(result.majorVersion == f.major)
        #expect(result.minorVersion == f.minor)
        #expect(result.warnings.isEmpty)
        #expect(result.notes == f.notes)
        let shop = try #require(Storefront.named(f.storefront))
        #expect(result.catalog.products.map(\.id.rawValue) == f.products.map(\.id))
        for (product, expected) in zip(result.catalog.products, f.products) {
            #expect(product.type == expected.type, "\(expected.id)")
            #expect(
                product.price(in: shop.code) == Price(decimal: expected.price)!.rounded(toFractionDigits: shop.fractionDigits))
            #expect(product.subscriptionPeriod?.iso8601 == expected.period, "\(expected.id)")
            #expect(product.subscriptionGroup == expected.group, "\(expected.id)")
            #expect(product.groupLevel == expected.level, "\(expected.id)")
            let offer = product.introductoryOffer.map { o in
                "\(o.paymentMode.rawValue) \(o.numberOfPeriods)x\(o.period.iso8601)"
                    + (o.paymentMode == .freeTrial
                        ? "" : " \(o.price(in: shop.code)!.decimalString(fractionDigits: shop.fractionDigits))")
            }
            #expect(offer == expected.offer, "\(expected.id)")
            // Every product has a title in the file's locale, even where Xcode left it blank.
            #expect(!product.localizations.isEmpty && product.localizations.allSatisfy { !$0.title.isEmpty })
        }
        let storefronts = result.catalog.settings.filter { $0.key == "storefront" }.map(\.value)
        #expect(storefronts.allSatisfy { $0 == f.storefront })
    }

    @Test("a real file's products are sold in every storefront, in its currency, as in Xcode")
    func soldEverywhere() throws {
        let catalog = try Self.read("rc-rcttester-v4.storekit").catalog
        let lifetime = try #require(catalog[ProductID("com.revenuecat.rcttester.premium_lifetime")])
        #expect(Storefront.all.allSatisfy { lifetime.price(in: $0.code) != nil })
        let cases: [(String, String)] = [
            ("USA", "$99.99"), ("JPN", "¥100"), ("KOR", "₩100"), ("DEU", "€99.99"), ("CHE", "CHF 99.99"),
            ("VNM", "₫100"), ("CHL", "CLP 100"), ("ESP", "€99.99"), ("IND", "₹99.99"),
        ]
        for (code, text) in cases {
            let shop = try #require(Storefront.named(code))
            #expect(shop.localizedPrice(lifetime.price(in: code)!) == text, "\(code)")
        }
        let tip = try #require(catalog[ProductID("small_tip")])
        #expect(tip.price(in: "JPN") == Price(decimal: "1"))
        #expect(tip.price(in: "XYZ") == nil)
    }

    @Test("the Spanish file prices in euros in Spain")
    func spanishStorefront() throws {
        let result = try Self.read("rc-simpleapp-products-v2.storekit")
        #expect(
            result.catalog.settings.map { "\($0.key)=\($0.value)" } == [
                "locale=es_ES", "storefront=ESP", "fail-transactions=false",
            ])
        let monthly = try #require(result.catalog[ProductID("com.revenuecat.simpleapp.monthly")])
        #expect(Storefront.named("ESP")!.localizedPrice(monthly.price(in: "ESP")!) == "€0.99")
        #expect(monthly.localization(for: "es_ES").title == "Subscripción Mensual")
        #expect(monthly.localization(for: "ar").title == "اشتراك شهري")
    }
}
