import Testing

@testable import IAPKit

@Suite("Catalog: Xcode .storekit files")
struct CatalogStoreKitFormatTests {
    static func read(_ path: String) throws -> StoreKitConfigurationFormat.Import {
        try StoreKitConfigurationFormat.readImport(try StoreKitFixture.bytes(path), file: path)
    }

    static func read(json: String, file: String = "inline.storekit") throws(CatalogError) -> StoreKitConfigurationFormat.Import {
        try StoreKitConfigurationFormat.readImport(Array(json.utf8), file: file)
    }

    static func usd(_ text: String) -> [Product.StorefrontPrice] {
        [.init(storefront: "USA", price: Price(decimal: text)!)]
    }

    static func loc(_ locale: String, _ title: String, _ description: String) -> Product.Localization {
        .init(locale: locale, title: title, description: description)
    }

    @Test("Example.storekit: every product, group, level, offer, price, localization and setting")
    func example() throws {
        let result = try Self.read("Example.storekit")
        #expect(result.majorVersion == 4)
        #expect(result.minorVersion == 0)
        let expected: [Product] = [
            Product(
                id: ProductID("com.example.gems100"), type: .consumable, referenceName: "100 gems",
                localizations: [
                    Self.loc("en_US", "100 Gems", "A handful of gems to spend in the game."),
                    Self.loc("de_DE", "100 Edelsteine", "Eine Handvoll Edelsteine für das Spiel."),
                ],
                prices: Self.usd("0.99"), anyStorefront: true),
            Product(
                id: ProductID("com.example.gems550"), type: .consumable, referenceName: "550 gems",
                localizations: [
                    Self.loc("en_US", "550 Gems", "A chest of gems, 10% extra."),
                    Self.loc("de_DE", "550 Edelsteine", "Eine Truhe voller Edelsteine, 10 % extra."),
                ],
                prices: Self.usd("4.99"), anyStorefront: true),
            Product(
                id: ProductID("com.example.removeads"), type: .nonConsumable, referenceName: "Remove ads",
                localizations: [
                    Self.loc("en_US", "Remove Ads", "Removes all advertising, forever."),
                    Self.loc("de_DE", "Werbung entfernen", "Entfernt dauerhaft alle Werbung."),
                ],
                prices: Self.usd("2.99"), familyShareable: true, anyStorefront: true),
            Product(
                id: ProductID("com.example.darktheme"), type: .nonConsumable, referenceName: "Dark theme",
                localizations: [
                    Self.loc("en_US", "Dark Theme", "A dark look for late-night play."),
                    Self.loc("de_DE", "Dunkles Design", "Ein dunkles Design für späte Runden."),
                ],
                prices: Self.usd("1.49"), anyStorefront: true),
            Product(
                id: ProductID("com.example.seasonpass"), type: .nonRenewing, referenceName: "Season pass (non-renewing)",
                localizations: [
                    Self.loc("en_US", "Season Pass", "All season events for one month. Does not renew."),
                    Self.loc("de_DE", "Saisonpass", "Alle Saison-Events für einen Monat. Verlängert sich nicht."),
                ],
                prices: Self.usd("7.99"), subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month), anyStorefront: true),
            Product(
                id: ProductID("com.example.premium.yearly"), type: .autoRenewable, referenceName: "Premium yearly (level 1)",
                localizations: [
                    Self.loc("en_US", "Premium (Yearly)", "Every premium benefit, renewed yearly."),
                    Self.loc("de_DE", "Premium (jährlich)", "Alle Premium-Vorteile, jährlich verlängert."),
                ],
                prices: Self.usd("49.99"), subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year),
                subscriptionGroup: "Premium", groupLevel: 1,
                introductoryOffer: IntroductoryOffer(
                    paymentMode: .payUpFront, period: SubscriptionPeriod(value: 6, unit: .month), numberOfPeriods: 1,
                    prices: Self.usd("19.99"), anyStorefront: true),
                familyShareable: true, anyStorefront: true),
            Product(
                id: ProductID("com.example.premium.monthly"), type: .autoRenewable, referenceName: "Premium monthly (level 2)",
                localizations: [
                    Self.loc("en_US", "Premium (Monthly)", "Every premium benefit, renewed monthly. Try it free for a week."),
                    Self.loc(
                        "de_DE", "Premium (monatlich)", "Alle Premium-Vorteile, monatlich verlängert. Eine Woche gratis testen."),
                ],
                prices: Self.usd("6.99"), subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month),
                subscriptionGroup: "Premium", groupLevel: 2,
                introductoryOffer: IntroductoryOffer(
                    paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week), numberOfPeriods: 1, prices: [],
                    anyStorefront: true), anyStorefront: true),
            Product(
                id: ProductID("com.example.premium.weekly"), type: .autoRenewable, referenceName: "Premium weekly (level 3)",
                localizations: [
                    Self.loc("en_US", "Premium (Weekly)", "Every premium benefit, renewed weekly."),
                    Self.loc("de_DE", "Premium (wöchentlich)", "Alle Premium-Vorteile, wöchentlich verlängert."),
                ],
                prices: Self.usd("1.99"), subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .week),
                subscriptionGroup: "Premium", groupLevel: 3, anyStorefront: true,
                offers: ProductOffers(promotional: [
                    PromotionalOffer(
                        id: OfferID("comeback"), referenceName: "Come back",
                        terms: OfferTerms(
                            paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .week), numberOfPeriods: 2,
                            prices: Self.usd("0.99"), anyStorefront: true))
                ])),
        ]
        #expect(result.catalog.products == expected)
        #expect(
            result.catalog.group("Premium").map(\.id.rawValue) == [
                "com.example.premium.yearly", "com.example.premium.monthly", "com.example.premium.weekly",
            ])
        #expect(
            result.catalog.settings.map { "\($0.key)=\($0.value)" } == [
                "locale=en_US", "storefront=USA", "ask-to-buy=true", "fail-transactions=false",
                "billing-issues=false", "grace-period=true", "fault=restore unknown",
            ])
        #expect(
            result.notes == [
                "subscriptionGroups[0].localizations: 2 localization(s) of group 'Premium' read but not shown (StoreKit 1 has no group names)"
            ])
    }

    struct VersionCase: Sendable, CustomTestStringConvertible {
        let file: String
        let major: Int64
        let minor: Int64
        let ids: [String]
        let settings: [String]
        let notes: [String]
        var testDescription: String { file }
    }

    static let versions: [VersionCase] = [
        VersionCase(
            file: "storekit/v1.storekit", major: 1, minor: 1,
            ids: ["com.example.v1.flowers", "com.example.v1.installation", "com.example.v1.gold", "com.example.v1.silver"],
            settings: [
                "locale=en_US", "storefront=USA", "ask-to-buy=false", "fail-transactions=true", "billing-issues=false",
                "fault=purchase paymentCancelled",
            ],
            notes: [
                "settings._timeRate: Xcode's subscription time rate 1 is not applied; iapctl's clock moves with 'iapctl clock advance'"
            ]),
        VersionCase(
            file: "storekit/v2.storekit", major: 2, minor: 0,
            ids: ["com.example.v2.coins", "com.example.v2.pass", "com.example.v2.club"],
            settings: ["locale=ja_JP", "storefront=JPN", "ask-to-buy=true", "fail-transactions=false", "billing-issues=true"],
            notes: [
                "settings._timeRate: Xcode's subscription time rate 1 is not applied; iapctl's clock moves with 'iapctl clock advance'",
                "subscriptionGroups[0].subscriptions[0].codeOffers[0].isStackable: offer code 'friends' of 'com.example.v2.club' is stackable in Xcode; iapctl reads that but applies one offer per period",
            ]),
        VersionCase(
            file: "Example.storekit", major: 4, minor: 0,
            ids: [
                "com.example.gems100", "com.example.gems550", "com.example.removeads", "com.example.darktheme",
                "com.example.seasonpass", "com.example.premium.yearly", "com.example.premium.monthly",
                "com.example.premium.weekly",
            ],
            settings: [
                "locale=en_US", "storefront=USA", "ask-to-buy=true", "fail-transactions=false", "billing-issues=false",
                "grace-period=true", "fault=restore unknown",
            ],
            notes: [
                "subscriptionGroups[0].localizations: 2 localization(s) of group 'Premium' read but not shown (StoreKit 1 has no group names)"
            ]),
        VersionCase(
            file: "storekit/v5.storekit", major: 5, minor: 0,
            ids: ["com.example.v5.halfyear", "com.example.v5.plus"],
            settings: [
                "locale=en_GB", "storefront=GBR", "ask-to-buy=false", "fail-transactions=false", "billing-issues=true",
                "grace-period=false",
            ],
            notes: [
                "settings._storeKitErrors: the 'Transaction Manager' error is enabled, but iapctl does not simulate that API; ignored",
                "subscriptionGroups[0].subscriptions[0].introductoryOffers[1]: introductory offer of 'com.example.v5.plus' (payAsYouGo P1M) not applied: each billing plan has one introductory offer, and iapctl applies introductoryOffers[0]",
                "subscriptionGroups[0].subscriptions[0].winbackOffers[0].offerID: win-back offer 'winback' of 'com.example.v5.plus' has no offer ID; using its reference name",
                "subscriptionGroups[0].subscriptions[0].winbackOffers[0]: win-back offer 'winback' of 'com.example.v5.plus' has no eligibility toggle; eligible whenever the subscription has churned",
            ]),
    ]

    @Test("formats 1 to 5 load", arguments: versions)
    func versionsLoad(_ c: VersionCase) throws {
        let result = try Self.read(c.file)
        #expect(result.majorVersion == c.major)
        #expect(result.minorVersion == c.minor)
        #expect(result.catalog.products.map(\.id.rawValue) == c.ids)
        #expect(result.catalog.settings.map { "\($0.key)=\($0.value)" } == c.settings)
        #expect(result.notes == c.notes)
    }

    @Test("format 1: pay-up-front offer without numberOfPeriods, tied levels, prices without decimals")
    func formatOneDetails() throws {
        let catalog = try Self.read("storekit/v1.storekit").catalog
        #expect(catalog[ProductID("com.example.v1.installation")]?.prices == Self.usd("29"))
        let gold = try #require(catalog[ProductID("com.example.v1.gold")])
        #expect(gold.subscriptionGroup == "VIP")
        #expect(gold.groupLevel == 1)
        #expect(
            gold.introductoryOffer
                == IntroductoryOffer(
                    paymentMode: .payUpFront, period: SubscriptionPeriod(value: 2, unit: .month), numberOfPeriods: 1,
                    prices: Self.usd("9.99"), anyStorefront: true))
        #expect(catalog[ProductID("com.example.v1.silver")]?.introductoryOffer == nil)
    }

    @Test("format 2: the storefront's currency prices every product; non-renewing defaults to P1M")
    func formatTwoDetails() throws {
        let catalog = try Self.read("storekit/v2.storekit").catalog
        let yen = { (text: String) in [Product.StorefrontPrice(storefront: "JPN", price: Price(decimal: text)!)] }
        #expect(catalog[ProductID("com.example.v2.coins")]?.prices == yen("120"))
        let pass = try #require(catalog[ProductID("com.example.v2.pass")])
        #expect(pass.type == .nonRenewing)
        #expect(pass.subscriptionPeriod == StoreKitConfigurationFormat.defaultNonRenewingPeriod)
        #expect(pass.localization(for: "ja_JP").title == "シーズンパス")
        #expect(
            catalog[ProductID("com.example.v2.club")]?.introductoryOffer
                == IntroductoryOffer(
                    paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month), numberOfPeriods: 3,
                    prices: yen("300"), anyStorefront: true))
    }

    @Test("format 5: the first of introductoryOffers, a non-renewing period, GBP prices")
    func formatFiveDetails() throws {
        let catalog = try Self.read("storekit/v5.storekit").catalog
        let pounds = { (text: String) in [Product.StorefrontPrice(storefront: "GBR", price: Price(decimal: text)!)] }
        let halfYear = try #require(catalog[ProductID("com.example.v5.halfyear")])
        #expect(halfYear.subscriptionPeriod == SubscriptionPeriod(value: 6, unit: .month))
        #expect(halfYear.prices == pounds("24.99"))
        let plus = try #require(catalog[ProductID("com.example.v5.plus")])
        #expect(
            plus.introductoryOffer
                == IntroductoryOffer(
                    paymentMode: .freeTrial, period: SubscriptionPeriod(value: 3, unit: .day), numberOfPeriods: 1, prices: [],
                    anyStorefront: true))
    }

    @Test("format 6 loads with a warning when its keys parse, read with the format 5 rules")
    func newerFormatWarns() throws {
        let result = try Self.read("storekit/v6.storekit")
        #expect(result.majorVersion == 6)
        #expect(result.catalog.products.map(\.id.rawValue) == ["com.example.v5.halfyear", "com.example.v5.plus"])
        #expect(
            result.warnings == [
                "version.major: StoreKit configuration format 6 is newer than iapctl knows (1 to 5); read with the format 5 rules, check the catalog and the notes"
            ])
    }

    @Test("a file without a version reads as format 1")
    func missingVersion() throws {
        let result = try Self.read(
            json: """
                {"products": [{"productID": "com.example.a", "type": "Consumable", "displayPrice": "0.99",
                  "localizations": [{"locale": "en_US", "displayName": "A", "description": ""}]}]}
                """)
        #expect(result.majorVersion == 1)
        #expect(result.minorVersion == 0)
        #expect(result.catalog.products.map(\.id.rawValue) == ["com.example.a"])
        #expect(result.catalog.settings.isEmpty)
        #expect(result.catalog.products[0].prices == Self.usd("0.99"))
    }

    @Test("unknown keys are tolerated at every level")
    func unknownKeys() throws {
        let result = try Self.read(
            json: """
                {"futureTopLevel": {"x": [1, 2]}, "identifier": "X", "version": {"major": 5, "minor": 9, "patch": 1},
                 "settings": {"_futureSetting": "on", "_storefront": "USA", "_timeRate": 7, "_disableDialogs": true},
                 "products": [{"productID": "com.example.a", "type": "NonConsumable", "displayPrice": 1.5, "futureKey": null,
                   "promotionalImageID": "ABC", "localizations": [{"locale": "en", "displayName": "", "description": "d", "extra": 1}]}],
                 "subscriptionGroups": [{"id": "G", "name": "", "futureGroupKey": true, "localizations": null,
                   "subscriptions": [{"productID": "com.example.s", "displayPrice": "3", "groupNumber": 2,
                     "recurringSubscriptionPeriod": "P3M", "introductoryOffer": {"paymentMode": "free",
                     "subscriptionPeriod": "P1M", "futureOfferKey": []}, "billingPlans": [{}], "subscriptionGroupID": "G",
                     "localizations": [{"locale": "fr_FR", "displayName": "S", "description": "s"}]}]}]}
                """)
        let a = result.catalog.products[0]
        #expect(a.prices == Self.usd("1.5"))
        #expect(a.localizations == [Self.loc("en", "com.example.a", "d")])
        let s = result.catalog.products[1]
        #expect(s.type == .autoRenewable)
        #expect(s.subscriptionGroup == "G")
        #expect(s.groupLevel == 2)
        #expect(s.subscriptionPeriod == SubscriptionPeriod(value: 3, unit: .month))
        #expect(
            s.introductoryOffer
                == IntroductoryOffer(
                    paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .month), numberOfPeriods: 1, prices: [],
                    anyStorefront: true))
        #expect(result.catalog.settings.map { "\($0.key)=\($0.value)" } == ["storefront=USA"])
    }

    @Test("enabled StoreKit errors become faults, with StoreKit 2 errors named as SKErrors")
    func storeKitErrors() throws {
        let result = try Self.read("storekit/errors.storekit")
        #expect(
            result.catalog.settings.map { "\($0.key)=\($0.value)" } == [
                "locale=en_US", "storefront=USA", "fail-transactions=false",
                "fault=products cloudServiceNetworkConnectionFailed",
                "fault=purchase invalidSignature",
                "fault=verification invalidSignature",
                "fault=restore paymentCancelled",
                "fault=app-transaction unknown",
                "fault=subscription-status unknown",
            ])
        #expect(result.notes.isEmpty, "\(result.notes)")
    }

    @Test("an error iapctl does not know falls back to unknown, with a note")
    func unknownErrorCase() throws {
        let result = try Self.read(
            json: """
                {"settings": {"_storeKitErrors": [{"name": "Purchase", "enabled": true, "current": {"index": 3, "type": "generic"}}]},
                 "products": [{"productID": "com.example.a", "type": "Consumable", "displayPrice": "0.99",
                   "localizations": [{"locale": "en_US", "displayName": "A", "description": ""}]}]}
                """)
        #expect(result.catalog.settings.map { "\($0.key)=\($0.value)" } == ["fault=purchase unknown"])
        #expect(
            result.notes == [
                "settings._storeKitErrors[0].current: the 'Purchase' error {\"index\":3,\"type\":\"generic\"} is not one iapctl knows; using 'unknown'",
                "products[0].referenceName: product 'com.example.a' has no reference name; using its product id",
            ])
    }

    @Test(
        "Xcode error names map to fault points",
        arguments: [
            ("Load Products", "products"), ("Purchase", "purchase"), ("Verification", "verification"),
            ("App Store Sync", "restore"), ("App Transaction", "app-transaction"), ("appstoresync", "restore"),
            ("Refund Request Sheet", "refund-request"), ("Subscription Status", "subscription-status"),
            ("Manage Subscriptions Sheet", "manage-subscriptions"), ("Offer Code Redeem Sheet", "offer-code-redeem"),
            ("Transaction Manager", nil),
        ] as [(String, String?)])
    func faultPoints(_ name: String, _ point: String?) {
        #expect(StoreKitErrorMapping.faultPoint(forXcodeName: name) == point)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let file: String
        let product: String?
        let keyPath: String
        let problem: String
        var testDescription: String { file }
    }

    static let malformed: [Malformed] = [
        Malformed(
            file: "bad-period", product: "com.example.bad.b",
            keyPath: "subscriptionGroups[0].subscriptions[1].recurringSubscriptionPeriod",
            problem:
                "'P5M' is not a period Apple offers for auto-renewable subscriptions; write one of P1W, P1M, P2M, P3M, P6M, P1Y"),
        Malformed(
            file: "bad-price", product: "com.example.bad.noads", keyPath: "products[1].displayPrice",
            problem: "bad price '1,49'; write a non-negative decimal such as \"0.99\""),
        Malformed(
            file: "unknown-storefront", product: nil, keyPath: "settings._storefront",
            problem:
                "unknown storefront 'XYZ'; use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN (all 175: docs/catalog.md)"
        ),
        Malformed(
            file: "bad-type", product: "com.example.bad.coins", keyPath: "products[0].type",
            problem: "unknown type 'Consumible'; did you mean 'Consumable'?"),
        Malformed(
            file: "misplaced-type", product: "com.example.bad.noads", keyPath: "products[1].type",
            problem:
                "a RecurringSubscription product belongs in subscriptionGroups[].subscriptions, not here; move it or change its type"
        ),
        Malformed(
            file: "duplicate-id", product: "com.example.bad.coins", keyPath: "nonRenewingSubscriptions[0].productID",
            problem: "duplicate product identifier; each product must appear once in the file"),
        Malformed(
            file: "bad-intro-mode", product: "com.example.bad.a",
            keyPath: "subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode",
            problem: "unknown payment mode 'trial'; write free, payAsYouGo or payUpFront"),
        Malformed(
            file: "bad-version", product: nil, keyPath: "version.major",
            problem: "expected an integer such as 3 (Xcode writes {\"major\": 3, \"minor\": 0})"),
        Malformed(
            file: "group-id-mismatch", product: "com.example.bad.b",
            keyPath: "subscriptionGroups[0].subscriptions[1].subscriptionGroupID",
            problem: "'G2' does not match its group's id 'G1'; move the subscription or fix the id"),
        Malformed(
            file: "bad-settings-flag", product: nil, keyPath: "settings._askToBuyEnabled",
            problem: "expected true or false, found a string"),
        Malformed(
            file: "bad-locale", product: "com.example.bad.noads", keyPath: "products[1].localizations[1].locale",
            problem: "'en-US' is not a locale; write language_REGION such as en_US, zh_CN or ja_JP; did you mean 'en_US'?"),
        Malformed(
            file: "truncated", product: nil, keyPath: "",
            problem: "invalid JSON at byte 200: expected '\"' to end the string (check the JSON syntax)"),
    ]

    @Test("malformed files name the key path, the product and the fix", arguments: malformed)
    func malformedFiles(_ c: Malformed) throws {
        let path = "storekit/malformed/\(c.file).storekit"
        let bytes = try StoreKitFixture.bytes(path)
        #expect(throws: CatalogError(file: path, product: c.product, keyPath: c.keyPath, problem: c.problem)) {
            try StoreKitConfigurationFormat.read(bytes, file: path)
        }
    }

    @Test("the error message is one line naming file, product, key path and fix")
    func errorDescription() throws {
        let path = "storekit/malformed/bad-period.storekit"
        let bytes = try StoreKitFixture.bytes(path)
        do {
            _ = try StoreKitConfigurationFormat.read(bytes, file: "Products.storekit")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "catalog Products.storekit, product 'com.example.bad.b', at subscriptionGroups[0].subscriptions[1].recurringSubscriptionPeriod: 'P5M' is not a period Apple offers for auto-renewable subscriptions; write one of P1W, P1M, P2M, P3M, P6M, P1Y"
            )
        }
    }
}

extension CatalogStoreKitFormatTests {
    @Test("a group error names no product")
    func duplicateGroupName() {
        let sub = { (id: String) in
            #"{"productID": "\#(id)", "displayPrice": "1", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M", "localizations": [{"locale": "en_US", "displayName": "S"}]}"#
        }
        let json = """
            {"subscriptionGroups": [{"id": "A", "name": "Plus", "subscriptions": [\(sub("com.x.a"))]},
                                    {"id": "B", "name": "Plus", "subscriptions": [\(sub("com.x.b"))]}]}
            """
        #expect(
            throws: CatalogError(
                file: "inline.storekit", keyPath: "subscriptionGroups[1].name",
                problem: "duplicate subscription group 'Plus'; give each group its own name")
        ) {
            try Self.read(json: json)
        }
    }
}
