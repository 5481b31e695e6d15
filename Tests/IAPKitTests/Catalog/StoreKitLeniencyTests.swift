import Testing

@testable import IAPKit

/// What Xcode's StoreKit configuration editor can leave blank or missing loads, with a note that
/// names the product and the value used; what iapctl does not simulate is named, never dropped.
@Suite("Catalog: .storekit files Xcode opens load, with notes")
struct StoreKitLeniencyTests {
    static func read(_ json: String) throws -> StoreKitConfigurationFormat.Import {
        try StoreKitConfigurationFormat.readImport(Array(json.utf8), file: "lenient.storekit")
    }

    static func fixture(_ name: String) throws -> StoreKitConfigurationFormat.Import {
        let path = "storekit/malformed/\(name).storekit"
        return try StoreKitConfigurationFormat.readImport(try StoreKitFixture.bytes(path), file: path)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let notes: [String]
        var testDescription: String { file }
    }

    static let fixtures: [Case] = [
        Case(
            file: "jpy-decimals",
            notes: [
                "products[1].displayPrice: product 'com.example.bad.noads' costs 1.99, finer than JPY (storefront JPN) has; shown as ¥2 there, as Xcode rounds it",
                "subscriptionGroups[0].subscriptions[0].displayPrice: product 'com.example.bad.a' costs 2.99, finer than JPY (storefront JPN) has; shown as ¥3 there, as Xcode rounds it",
                "subscriptionGroups[0].subscriptions[1].displayPrice: product 'com.example.bad.b' costs 2.99, finer than JPY (storefront JPN) has; shown as ¥3 there, as Xcode rounds it",
            ]),
        Case(
            file: "missing-group-number",
            notes: [
                "subscriptionGroups[0].subscriptions[0].groupNumber: subscription 'com.example.bad.a' has no level in its group; using 1 (the highest)"
            ]),
        Case(
            file: "no-localizations",
            notes: [
                "products[0].localizations: product 'com.example.bad.coins' has no localizations; showing its reference name in en_US"
            ]),
        Case(
            file: "no-products",
            notes: ["products: the file has no products (Xcode opens it empty); the catalog sells nothing until you add some"]),
        Case(
            file: "intro-without-price",
            notes: [
                "subscriptionGroups[0].subscriptions[0].introductoryOffer.displayPrice: the introductory offer of 'com.example.bad.a' has no price; using 0"
            ]),
    ]

    @Test("files Xcode opens that iapctl once refused load, with exact notes", arguments: fixtures)
    func formerlyRefused(_ c: Case) throws {
        #expect(try Self.fixture(c.file).notes == c.notes)
    }

    @Test("the values used in place of blank ones")
    func filledIn() throws {
        let coins = try #require(try Self.fixture("no-localizations").catalog[ProductID("com.example.bad.coins")])
        #expect(coins.localizations == [.init(locale: "en_US", title: "coins", description: "")])
        let level = try Self.fixture("missing-group-number").catalog[ProductID("com.example.bad.a")]
        #expect(level?.groupLevel == 1)
        let noads = try #require(try Self.fixture("jpy-decimals").catalog[ProductID("com.example.bad.noads")])
        #expect(noads.price(in: "JPN") == Price(decimal: "2"))
        #expect(noads.price(in: "USA") == Price(decimal: "1.99"))
        #expect(try Self.fixture("no-products").catalog.products.isEmpty)
    }

    @Test("a subscription synced without price, reference name, localization, level or duration")
    func syncedSubscription() throws {
        let result = try Self.read(
            """
            {"version": {"major": 4, "minor": 0}, "settings": {"_locale": "fr_FR", "_storefront": "FRA"},
             "subscriptionGroups": [{"id": "6B4F7BDD", "name": "", "subscriptions": [
               {"productID": "com.example.synced", "displayPrice": "", "localizations": [], "type": "RecurringSubscription"}]}]}
            """)
        #expect(
            result.notes == [
                "subscriptionGroups[0].name: subscription group '6B4F7BDD' has no name; using its id",
                "subscriptionGroups[0].subscriptions[0].referenceName: product 'com.example.synced' has no reference name; using its product id",
                "subscriptionGroups[0].subscriptions[0].displayPrice: product 'com.example.synced' has a blank price; using 0",
                "subscriptionGroups[0].subscriptions[0].localizations: product 'com.example.synced' has no localizations; showing its reference name in fr_FR",
                "subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod: subscription 'com.example.synced' has no duration; using one month (P1M)",
                "subscriptionGroups[0].subscriptions[0].groupNumber: subscription 'com.example.synced' has no level in its group; using 1 (the highest)",
            ])
        let synced = try #require(result.catalog[ProductID("com.example.synced")])
        #expect(synced.price(in: "FRA") == .zero)
        #expect(synced.subscriptionGroup == "6B4F7BDD")
        #expect(synced.localizations == [.init(locale: "fr_FR", title: "com.example.synced", description: "")])
        #expect(synced.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .month))
    }

    @Test("blank display names and locales")
    func blankText() throws {
        let result = try Self.read(
            """
            {"products": [{"productID": "a", "referenceName": "Alpha", "type": "Consumable", "displayPrice": "1",
              "localizations": [{"locale": "en_US", "displayName": " ", "description": ""}]}]}
            """)
        #expect(
            result.notes == [
                "products[0].localizations[0].displayName: product 'a' has no display name in en_US; showing its reference name 'Alpha'"
            ])
        #expect(
            try Self.read(
                """
                {"settings": {"_locale": "de_DE"}, "products": [{"productID": "a", "referenceName": "Alpha", "type": "Consumable",
                  "displayPrice": "1", "localizations": [{"displayName": "A", "description": ""}]}]}
                """
            ).notes == ["products[0].localizations[0].locale: a localization of 'a' has no locale; using de_DE"])
    }

    @Test("offers of a billing plan the subscription does not offer, and extra introductory offers, are named and left out")
    func offersThatCannotApply() throws {
        let result = try Self.read(
            """
            {"version": {"major": 5, "minor": 0},
             "subscriptionGroups": [{"id": "G", "name": "Plus", "subscriptions": [
               {"productID": "s", "referenceName": "S", "displayPrice": "4.99", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M",
                "localizations": [{"locale": "en_US", "displayName": "S", "description": ""}],
                "introductoryOffers": [
                  {"paymentMode": "free", "subscriptionPeriod": "P1W", "billingPlanType": "BILLED_UPFRONT"},
                  {"paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "numberOfPeriods": 3, "displayPrice": "0.99", "billingPlanType": "MONTHLY"},
                  {"paymentMode": "free", "subscriptionPeriod": "P2W"}],
                "billingPlans": [{"billingPlanType": "BILLED_UPFRONT", "isEnabled": true}, {"billingPlanType": "MONTHLY", "isEnabled": true, "displayPrice": "0.5"}],
                "adHocOffers": [{"offerID": "back", "paymentMode": "free", "subscriptionPeriod": "P1M"}],
                "codeOffers": [{"referenceName": "friends", "paymentMode": "free", "subscriptionPeriod": "P1W"}],
                "winbackOffers": [{"offerID": "w", "paymentMode": "free", "subscriptionPeriod": "P1M", "billingPlanType": "MONTHLY"}]}]}]}
            """)
        #expect(
            result.notes == [
                "subscriptionGroups[0].subscriptions[0].billingPlans[1].billingPlanType: billing plan MONTHLY of 's' is for one-year subscriptions, and this one renews every P1M; not offered",
                "subscriptionGroups[0].subscriptions[0].introductoryOffers[1].billingPlanType: the introductory offer of 's' belongs to billing plan MONTHLY, which the product does not offer; not offered",
                "subscriptionGroups[0].subscriptions[0].introductoryOffers[2]: introductory offer of 's' (free P2W) not applied: each billing plan has one introductory offer, and iapctl applies introductoryOffers[0]",
                "subscriptionGroups[0].subscriptions[0].adHocOffers[0].referenceName: promotional offer 'back' of 's' has no reference name; using its identifier",
                "subscriptionGroups[0].subscriptions[0].codeOffers[0].eligibility: offer code 'friends' of 's' names no eligibility; new, existing and expired subscribers may redeem it",
                "subscriptionGroups[0].subscriptions[0].winbackOffers[0].referenceName: win-back offer 'w' of 's' has no reference name; using its identifier",
                "subscriptionGroups[0].subscriptions[0].winbackOffers[0]: win-back offer 'w' of 's' has no eligibility toggle; eligible whenever the subscription has churned",
                "subscriptionGroups[0].subscriptions[0].winbackOffers[0].billingPlanType: win-back offer 'w' of 's' belongs to billing plan MONTHLY, which the product does not offer; not offered",
            ])
        let week = SubscriptionPeriod(value: 1, unit: .week)
        let month = SubscriptionPeriod(value: 1, unit: .month)
        let product = try #require(result.catalog[ProductID("s")])
        #expect(
            product.introductoryOffer
                == OfferTerms(paymentMode: .freeTrial, period: week, numberOfPeriods: 1, prices: [], anyStorefront: true))
        #expect(
            product.offers
                == ProductOffers(
                    promotional: [
                        PromotionalOffer(
                            id: OfferID("back"), referenceName: "back",
                            terms: OfferTerms(
                                paymentMode: .freeTrial, period: month, numberOfPeriods: 1, prices: [], anyStorefront: true))
                    ],
                    codes: [
                        OfferCode(
                            referenceName: "friends",
                            discount: .subscription(
                                OfferTerms(
                                    paymentMode: .freeTrial, period: week, numberOfPeriods: 1, prices: [], anyStorefront: true)),
                            eligibility: [.new, .existing, .expired])
                    ]))
    }

    @Test("keys iapctl does not know, and document keys it does not apply, are named once each")
    func unknownAndUnappliedKeys() throws {
        let result = try Self.read(
            """
            {"futureTopLevel": 1, "appPolicies": {"eula": "Terms", "policies": [{"locale": "en_US", "policyText": "", "policyURL": "https://x"}]},
             "subscriptionOffersKeyPair": {"id": "K1", "privateKey": "...", "futureKey": 4},
             "settings": {"_timeRate": 6, "_disableDialogs": true, "_future": 1},
             "products": [{"productID": "a", "referenceName": "A", "type": "Consumable", "displayPrice": "1", "futureKey": 1,
               "localizations": [{"locale": "en_US", "displayName": "A", "description": "", "futureKey": 2}]},
              {"productID": "b", "referenceName": "B", "type": "Consumable", "displayPrice": "1", "futureKey": 3,
               "localizations": [{"locale": "en_US", "displayName": "B", "description": ""}]}]}
            """)
        #expect(
            result.notes == [
                "settings._timeRate: Xcode's subscription time rate 6 is not applied; iapctl's clock moves with 'iapctl clock advance'",
                "settings._disableDialogs: dialogs are disabled; iapctl never shows any, so nothing changes",
                "appPolicies: the EULA and privacy policies (1 EULA, 1 policy text(s)) are read but not shown; iapctl shows no purchase sheet",
                "subscriptionOffersKeyPair.privateKey: the subscription offer key 'K1' is not a P-256 private key (base64 PKCS#8); ignored, so offers signed with it are refused",
                "futureTopLevel: key 'futureTopLevel' is not one iapctl knows; ignored",
                "settings._future: key '_future' is not one iapctl knows; ignored",
                "products[0].futureKey: key 'futureKey' is not one iapctl knows (and 3 more place(s)); ignored",
            ])
    }

    @Test("a format newer than 5 loads with a warning when its keys parse, and still fails on bad ones")
    func newerFormat() throws {
        let result = try Self.read(
            """
            {"version": {"major": 7, "minor": 1}, "products": [{"productID": "a", "referenceName": "A", "type": "Consumable",
              "displayPrice": "1", "localizations": [{"locale": "en_US", "displayName": "A", "description": ""}]}]}
            """)
        #expect(result.majorVersion == 7)
        #expect(
            result.warnings == [
                "version.major: StoreKit configuration format 7 is newer than iapctl knows (1 to 5); read with the format 5 rules, check the catalog and the notes"
            ])
        #expect(
            throws: CatalogError(
                file: "lenient.storekit", product: "a", keyPath: "products[0].displayPrice",
                problem: "bad price 'one'; write a non-negative decimal such as \"0.99\"")
        ) {
            try Self.read(
                """
                {"version": {"major": 6}, "products": [{"productID": "a", "referenceName": "A", "type": "Consumable",
                  "displayPrice": "one", "localizations": [{"locale": "en_US", "displayName": "A", "description": ""}]}]}
                """)
        }
    }
}
