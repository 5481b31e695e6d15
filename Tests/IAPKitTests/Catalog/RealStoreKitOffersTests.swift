import IAPCrypto
import Testing

@testable import IAPKit

/// The offers of the real `.storekit` files (`Fixtures/real/storekit/`, Xcode's output from
/// RevenueCat's repository) as iapctl reads them: every promotional offer, offer code, format-5
/// introductory offer, billing plan and the subscription offer key. The expectations were
/// written from the files' JSON (and the key's public half from `openssl pkey -pubout`), not
/// from iapctl's reading of them.
@Suite("Catalog: the offers of real .storekit files")
struct RealStoreKitOffersTests {
    static let month = SubscriptionPeriod(value: 1, unit: .month)

    static func usd(_ text: String) -> [Product.StorefrontPrice] {
        [.init(storefront: "USA", price: Price(decimal: text)!)]
    }

    static func terms(
        _ mode: OfferTerms.PaymentMode, _ period: String, _ count: Int = 1, _ price: String? = nil,
        plan: BillingPlanType = .upFront
    ) -> OfferTerms {
        OfferTerms(
            paymentMode: mode, period: SubscriptionPeriod(iso8601: period)!, numberOfPeriods: count,
            prices: price.map(usd) ?? [], anyStorefront: true, billingPlan: plan)
    }

    static func catalog(_ file: String) throws -> Catalog {
        try StoreKitConfigurationFormat.read(try StoreKitFixture.bytes("real/storekit/\(file)"), file: file)
    }

    @Test("rc-unittests-v5: format-5 introductory offers per billing plan, promotional offers, the monthly plan")
    func unitTestsV5() throws {
        let c = try Self.catalog("rc-unittests-v5.storekit")
        let monthly = try #require(c[ProductID("com.revenuecat.monthly_4.99.1_week_intro")])
        #expect(monthly.introductoryOffer == Self.terms(.freeTrial, "P3M"))
        #expect(
            monthly.offers
                == ProductOffers(promotional: [
                    PromotionalOffer(
                        id: OfferID("com.revenuecat.monthly_4.99.1_week_intro.year_discount"), referenceName: "year discount",
                        terms: Self.terms(.payUpFront, "P1Y", 1, "40.99")),
                    PromotionalOffer(
                        id: OfferID("com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go"), referenceName: "pay as you go",
                        terms: Self.terms(.payAsYouGo, "P1M", 2, "20.15")),
                ]))
        let annual = try #require(c[ProductID("com.revenuecat.annual_39.99.2_week_intro")])
        #expect(annual.introductoryOffer == Self.terms(.freeTrial, "P2W"))
        #expect(annual.offers == ProductOffers())
        let commitment = try #require(c[ProductID("com.revenuecat.sampleapp.monthly.12mocommitment")])
        #expect(commitment.introductoryOffer == Self.terms(.freeTrial, "P1M"))
        #expect(
            commitment.offers
                == ProductOffers(
                    monthlyIntroductoryOffer: Self.terms(.freeTrial, "P2M", plan: .monthly),
                    promotional: [
                        PromotionalOffer(
                            id: OfferID("upfront.promo.offer"), referenceName: "Upfront Promo Offer",
                            terms: Self.terms(.freeTrial, "P1M")),
                        PromotionalOffer(
                            id: OfferID("12mocommitment.promo.offer"), referenceName: "12mo Commitment Promo Offer",
                            terms: Self.terms(.freeTrial, "P2M", plan: .monthly)),
                    ],
                    billingPlans: [BillingPlan(type: .monthly, prices: Self.usd("0.5"), anyStorefront: true)]))
        // The monthly plan: 50 cents a month, twelve payments, $6.00 (the file's commitmentDisplayPrice).
        let plan = try #require(commitment.offers.billingPlan(.monthly))
        #expect(plan.price(in: "USA") == Price(decimal: "0.50"))
        #expect(plan.commitmentPrice(in: "USA") == Price(decimal: "6.00"))
        #expect(commitment.introductoryOffer(for: .monthly) == Self.terms(.freeTrial, "P2M", plan: .monthly))
        #expect(c[ProductID("com.revenuecat.annual_39.99_no_trial")]?.offers == ProductOffers())
        #expect(c.offerKeys.isEmpty)
    }

    @Test("rc-swiftui-configuration-v1.2: promotional offers and an offer code for every kind of subscriber")
    func swiftUIConfiguration() throws {
        let c = try Self.catalog("rc-swiftui-configuration-v1.2.storekit")
        let annual = try #require(c[ProductID("com.revenuecat.annual_39.99.2_week_intro")])
        #expect(
            annual.offers
                == ProductOffers(
                    promotional: [
                        PromotionalOffer(
                            id: OfferID("$4 for month"), referenceName: "$4 for month",
                            terms: Self.terms(.payUpFront, "P1M", 1, "4.00")),
                        PromotionalOffer(
                            id: OfferID("Free two weeks"), referenceName: "Free two weeks", terms: Self.terms(.freeTrial, "P2W")),
                    ],
                    codes: [
                        OfferCode(
                            referenceName: "TestOffer", discount: .subscription(Self.terms(.freeTrial, "P1W")),
                            eligibility: [.new, .existing, .expired])
                    ]))
        #expect(annual.offers.promotionalOffer(OfferID("Free two weeks"))?.terms.duration.iso8601 == "P2W")
        #expect(annual.offers.offerCode(referenceName: "TestOffer")?.id == OfferID("TestOffer"))
        for id in ["rc_price_increase_2999_4999", "rc_1099_1m", "com.revenuecat.monthly_4.99.1_week_intro", "rc_3999_1y_1w0"] {
            #expect(c[ProductID(id)]?.offers == ProductOffers(), "\(id)")
        }
    }

    @Test("rc-v3loadshedder-v2: the subscriptionOffersKeyPair becomes the catalog's offer key (its public half)")
    func offerKeyPair() throws {
        let c = try Self.catalog("rc-v3loadshedder-v2.storekit")
        let expected = try P256.PublicKey(
            x963Representation: Hex.decode(
                "0408330e1811566b0cfae4ff5771e5657786992ecbc7a742cfb20c0b8946db2b3a7cd11fa105813ca2c9da6b2a58143875bac41a1cad13533195e2a02050b5c860"
            )!)
        #expect(c.offerKeys == [SubscriptionOfferKey(id: "C815358F", publicKey: expected)])
    }

    @Test("offers survive catalog convert: the project format writes and reads back every offer and key")
    func convertRoundTrip() throws {
        for file in ["rc-unittests-v5.storekit", "rc-swiftui-configuration-v1.2.storekit", "rc-v3loadshedder-v2.storekit"] {
            let c = try Self.catalog(file)
            let back = try CatalogJSONFormat.read(CatalogJSONFormat.write(c), file: "converted.json")
            #expect(back.products == c.products, "\(file)")
            #expect(back.offerKeys == c.offerKeys, "\(file)")
        }
    }
}
