import IAPCrypto
import IAPTime
import Testing

@testable import IAPKit

/// The offers of iapctl's own catalog format (`docs/catalog.md`, "Offers"): `Fixtures/offers/catalog.json`
/// read whole, written back, and every malformed offer refused with the key path and the fix.
@Suite("Catalog: offers in the project's format")
struct CatalogOffersFormatTests {
    static func period(_ text: String) -> SubscriptionPeriod { SubscriptionPeriod(iso8601: text)! }

    static func prices(_ pairs: KeyValuePairs<String, String>) -> [Product.StorefrontPrice] {
        pairs.map { .init(storefront: $0.key, price: Price(decimal: $0.value)!) }
    }

    static func terms(
        _ mode: OfferTerms.PaymentMode, _ p: String, _ count: Int = 1, _ prices: [Product.StorefrontPrice] = [],
        plan: BillingPlanType = .upFront
    ) -> OfferTerms {
        OfferTerms(paymentMode: mode, period: period(p), numberOfPeriods: count, prices: prices, billingPlan: plan)
    }

    static func fixture() throws -> Catalog {
        try CatalogJSONFormat.read(try StoreKitFixture.bytes("offers/catalog.json"), file: "offers/catalog.json")
    }

    @Test("the offers fixture: every kind of offer, both billing plans and the offer key, exactly")
    func fixtureWhole() throws {
        let c = try Self.fixture()
        let monthly = try #require(c[ProductID("com.x.plus.monthly")])
        #expect(monthly.introductoryOffer == Self.terms(.freeTrial, "P1W"))
        #expect(
            monthly.offers
                == ProductOffers(
                    promotional: [
                        PromotionalOffer(
                            id: OfferID("plus.comeback"), referenceName: "Come back: 3 months at half price",
                            terms: Self.terms(.payAsYouGo, "P1M", 3, Self.prices(["USA": "4.99", "CHN": "34.00", "JPN": "750"]))),
                        PromotionalOffer(
                            id: OfferID("plus.halfyear"), referenceName: "Six months up front",
                            terms: Self.terms(.payUpFront, "P6M", 1, Self.prices(["USA": "29.99"]))),
                        PromotionalOffer(
                            id: OfferID("plus.free"), referenceName: "A free month", terms: Self.terms(.freeTrial, "P1M")),
                    ],
                    codes: [
                        OfferCode(
                            referenceName: "FRIENDS", discount: .subscription(Self.terms(.freeTrial, "P1M")),
                            eligibility: [.new, .expired]),
                        OfferCode(
                            referenceName: "LOYAL",
                            discount: .subscription(Self.terms(.payAsYouGo, "P1M", 2, Self.prices(["USA": "1.99"]))),
                            eligibility: [.existing]),
                    ],
                    winBack: [
                        WinBackOffer(
                            id: OfferID("plus.winback"), referenceName: "Welcome back: a free month",
                            terms: Self.terms(.freeTrial, "P1M"),
                            eligibility: .rules(paidMonths: 1, monthsSinceLastSubscribed: 1...24, waitBetweenOffersMonths: 6),
                            priority: .high),
                        WinBackOffer(
                            id: OfferID("plus.winback.later"), referenceName: "Two months at $2.99",
                            terms: Self.terms(.payAsYouGo, "P1M", 2, Self.prices(["USA": "2.99"])),
                            eligibility: .rules(paidMonths: 3, monthsSinceLastSubscribed: 2...12, waitBetweenOffersMonths: nil),
                            startDate: Timestamp(rfc3339: "2026-01-01T00:00:00Z"),
                            endDate: Timestamp(rfc3339: "2027-12-31T00:00:00Z")),
                    ]))
        let yearly = try #require(c[ProductID("com.x.plus.yearly")])
        #expect(yearly.introductoryOffer == Self.terms(.payUpFront, "P3M", 1, Self.prices(["USA": "9.99"])))
        #expect(
            yearly.offers
                == ProductOffers(
                    monthlyIntroductoryOffer: Self.terms(.freeTrial, "P1M", plan: .monthly),
                    promotional: [
                        PromotionalOffer(
                            id: OfferID("plus.yearly.monthlypromo"), referenceName: "Two months at $4.99 on the monthly plan",
                            terms: Self.terms(.payAsYouGo, "P1M", 2, Self.prices(["USA": "4.99"]), plan: .monthly))
                    ],
                    winBack: [
                        WinBackOffer(
                            id: OfferID("plus.yearly.winback"), referenceName: "Three months for $19.99",
                            terms: Self.terms(.payUpFront, "P3M", 1, Self.prices(["USA": "19.99"])),
                            eligibility: .whenChurned(true))
                    ],
                    billingPlans: [BillingPlan(type: .monthly, prices: Self.prices(["USA": "9.49"]))]))
        #expect(yearly.offers.billingPlan(.monthly)?.commitmentPrice(in: "USA") == Price(decimal: "113.88"))
        #expect(
            c[ProductID("com.x.gems")]?.offers
                == ProductOffers(codes: [
                    OfferCode(
                        referenceName: "GEMS-FREE", discount: .oneTime(prices: Self.prices(["USA": "0"]), anyStorefront: false),
                        eligibility: []),
                    OfferCode(
                        referenceName: "GEMS-HALF",
                        discount: .oneTime(prices: Self.prices(["USA": "0.49"]), anyStorefront: false),
                        eligibility: []),
                ]))
        #expect(c[ProductID("com.x.pro")]?.offers.codes.map { $0.oneTimePrice(in: "USA") } == [Price(decimal: "1.99")])
        let pem = String(decoding: try StoreKitFixture.bytes("offers/SubscriptionKey_TESTKEY001.pub.pem"), as: UTF8.self)
        #expect(c.offerKeys == [SubscriptionOfferKey(id: "TESTKEY001", publicKey: try P256.PublicKey(pemRepresentation: pem))])
    }

    @Test("read(write(c)) keeps every offer and key")
    func roundTrip() throws {
        let c = try Self.fixture()
        let written = CatalogJSONFormat.write(c)
        let back = try CatalogJSONFormat.read(written, file: "back.json")
        #expect(back.products == c.products)
        #expect(back.offerKeys == c.offerKeys)
        #expect(CatalogJSONFormat.write(back) == written)
    }

    struct BadOffer: Sendable, CustomTestStringConvertible {
        let name: String
        /// Members added to a monthly auto-renewable subscription `s` (or replacing its type).
        let members: String
        let message: String
        var testDescription: String { name }
    }

    static let bad: [BadOffer] = [
        BadOffer(
            name: "unknown payment mode",
            members: #""promotionalOffers": [{"offerIdentifier": "o", "paymentMode": "freetrial", "period": "P1M"}]"#,
            message:
                "catalog bad.json, product 's', at products[0].promotionalOffers[0].paymentMode: unknown payment mode 'freetrial'; did you mean 'freeTrial'?"
        ),
        BadOffer(
            name: "paid offer without prices",
            members: #""promotionalOffers": [{"offerIdentifier": "o", "paymentMode": "payUpFront", "period": "P1M"}]"#,
            message:
                "catalog bad.json, product 's', at products[0].promotionalOffers[0].prices: missing; price the product in at least one storefront, e.g. {\"USA\": \"0.99\"}"
        ),
        BadOffer(
            name: "free trial with prices",
            members:
                #""promotionalOffers": [{"offerIdentifier": "o", "paymentMode": "freeTrial", "period": "P1M", "prices": {"USA": "1"}}]"#,
            message:
                "catalog bad.json, product 's', at products[0].promotionalOffers[0].prices: a free trial has no price; remove prices or change the payment mode"
        ),
        BadOffer(
            name: "duplicate offer identifier",
            members:
                #""promotionalOffers": [{"offerIdentifier": "o", "paymentMode": "freeTrial", "period": "P1M"}], "winBackOffers": [{"offerIdentifier": "o", "paymentMode": "freeTrial", "period": "P1M", "eligibility": true}]"#,
            message:
                "catalog bad.json, product 's', at products[0].winBackOffers[0].offerIdentifier: duplicate offer identifier 'o'; promotional and win-back offers of a product each need their own"
        ),
        BadOffer(
            name: "monthly plan on a monthly subscription",
            members: #""billingPlans": [{"type": "monthly", "prices": {"USA": "1"}}]"#,
            message:
                "catalog bad.json, product 's', at products[0].billingPlans[0].type: the monthly plan with a 12-month commitment is for one-year subscriptions; this one renews every P1M"
        ),
        BadOffer(
            name: "an offer of a plan the product lacks",
            members:
                #""promotionalOffers": [{"offerIdentifier": "o", "paymentMode": "freeTrial", "period": "P1M", "billingPlan": "monthly"}]"#,
            message:
                "catalog bad.json, product 's', at products[0].promotionalOffers[0].billingPlan: the product has no monthly billing plan; add one to billingPlans or remove billingPlan"
        ),
        BadOffer(
            name: "offer code without eligibility",
            members: #""offerCodes": [{"referenceName": "C", "paymentMode": "freeTrial", "period": "P1M"}]"#,
            message:
                "catalog bad.json, product 's', at products[0].offerCodes[0].eligibility: missing; list who may redeem the code: [\"new\", \"existing\", \"expired\"]"
        ),
        BadOffer(
            name: "unknown eligibility",
            members:
                #""offerCodes": [{"referenceName": "C", "eligibility": ["lapsed"], "paymentMode": "freeTrial", "period": "P1M"}]"#,
            message:
                "catalog bad.json, product 's', at products[0].offerCodes[0].eligibility[0]: expected new, existing or expired, found \"lapsed\""
        ),
        BadOffer(
            name: "win-back rules upside down",
            members:
                #""winBackOffers": [{"offerIdentifier": "w", "paymentMode": "freeTrial", "period": "P1M", "eligibility": {"paidSubscriptionDurationInMonths": 1, "timeSinceLastSubscribedInMonths": {"minimum": 6, "maximum": 2}}}]"#,
            message:
                "catalog bad.json, product 's', at products[0].winBackOffers[0].eligibility.timeSinceLastSubscribedInMonths: minimum 6 is more than maximum 2"
        ),
        BadOffer(
            name: "win-back without eligibility",
            members: #""winBackOffers": [{"offerIdentifier": "w", "paymentMode": "freeTrial", "period": "P1M"}]"#,
            message:
                "catalog bad.json, product 's', at products[0].winBackOffers[0].eligibility: missing; give App Store Connect's rules {\"paidSubscriptionDurationInMonths\": 1, \"timeSinceLastSubscribedInMonths\": {\"minimum\": 1, \"maximum\": 24}} or true (eligible whenever churned)"
        ),
        BadOffer(
            name: "win-back day",
            members:
                #""winBackOffers": [{"offerIdentifier": "w", "paymentMode": "freeTrial", "period": "P1M", "eligibility": true, "startDate": "July 1"}]"#,
            message:
                "catalog bad.json, product 's', at products[0].winBackOffers[0].startDate: 'July 1' is not a day; write it as 2026-07-01"
        ),
        BadOffer(
            name: "two introductory offers of one plan",
            members:
                #""introductoryOffers": [{"paymentMode": "freeTrial", "period": "P1W"}, {"paymentMode": "freeTrial", "period": "P2W"}]"#,
            message:
                "catalog bad.json, product 's', at products[0].introductoryOffers[1]: a second introductory offer of the up-front plan; each billing plan has at most one"
        ),
        BadOffer(
            name: "both introductory keys",
            members: #""introductoryOffer": {"paymentMode": "freeTrial", "period": "P1W"}, "introductoryOffers": []"#,
            message:
                "catalog bad.json, product 's', at products[0].introductoryOffers: give introductoryOffer (one offer) or introductoryOffers (one per billing plan), not both"
        ),
        BadOffer(
            name: "unknown key in an offer",
            members: #""promotionalOffers": [{"offerIdentifer": "o", "paymentMode": "freeTrial", "period": "P1M"}]"#,
            message:
                "catalog bad.json, product 's', at products[0].promotionalOffers[0].offerIdentifer: unknown key 'offerIdentifer'; did you mean 'offerIdentifier'?"
        ),
        BadOffer(
            name: "promotional offer on a consumable", members: #""type": "consumable", "promotionalOffers": []"#,
            message:
                "catalog bad.json, product 's', at products[0].promotionalOffers: only auto-renewable subscriptions have these offers; remove it or change the type"
        ),
    ]

    @Test("a malformed offer names the key path and the fix", arguments: bad)
    func badOffer(_ c: BadOffer) {
        var base =
            #""productIdentifier": "s", "type": "autoRenewable", "subscriptionGroup": "g", "subscriptionPeriod": "P1M", "localizations": {"en_US": {"title": "S"}}, "prices": {"USA": "4.99"}"#
        if c.members.hasPrefix(#""type""#) {
            base = #""productIdentifier": "s", "localizations": {"en_US": {"title": "S"}}, "prices": {"USA": "4.99"}"#
        }
        let json = #"{"products": [{"# + base + ", " + c.members + "}]}"
        #expect(throws: CatalogError.self) { try CatalogJSONFormat.read(Array(json.utf8), file: "bad.json") }
        do {
            _ = try CatalogJSONFormat.read(Array(json.utf8), file: "bad.json")
        } catch {
            #expect(error.description == c.message)
        }
    }

    @Test("offer identifiers are unique within a subscription group")
    func groupUnique() {
        let json = #"""
            {"products": [
             {"productIdentifier": "a", "type": "autoRenewable", "subscriptionGroup": "g", "subscriptionPeriod": "P1M", "localizations": {"en_US": {"title": "A"}}, "prices": {"USA": "1"},
              "promotionalOffers": [{"offerIdentifier": "o", "paymentMode": "freeTrial", "period": "P1M"}]},
             {"productIdentifier": "b", "type": "autoRenewable", "subscriptionGroup": "g", "subscriptionPeriod": "P1M", "localizations": {"en_US": {"title": "B"}}, "prices": {"USA": "1"},
              "winBackOffers": [{"offerIdentifier": "o", "paymentMode": "freeTrial", "period": "P1M", "eligibility": true}]}]}
            """#
        do {
            _ = try CatalogJSONFormat.read(Array(json.utf8), file: "bad.json")
            Issue.record("a duplicate offer identifier in a group was accepted")
        } catch {
            #expect(
                error.description
                    == "catalog bad.json, product 'b', at products[1]: offer identifier 'o' is also an offer of 'a' in group 'g'; offer identifiers are unique within a subscription group"
            )
        }
    }

    @Test("subscriptionOfferKeys: a key that is not P-256 is refused")
    func badKey() {
        let json =
            #"{"subscriptionOfferKeys": [{"keyIdentifier": "K", "publicKey": "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"}], "products": []}"#
        do {
            _ = try CatalogJSONFormat.read(Array(json.utf8), file: "bad.json")
            Issue.record("a bad key was accepted")
        } catch {
            #expect(
                error.description
                    == "catalog bad.json, at subscriptionOfferKeys[0]: subscriptionOfferKeys[0].publicKey: not a P-256 key; give the App Store Connect in-app purchase key (.p8, 'BEGIN PRIVATE KEY') or its public half ('BEGIN PUBLIC KEY')"
            )
        }
    }
}
