import Testing

@testable import IAPJSON

/// `iapctl products` with offers, end to end with the built binary: the offers table, the JSON
/// shape (StoreKit's `Product.SubscriptionInfo`: offers, `pricingTerms`), and
/// `isEligibleForIntroOffer` for the account's subscription group.
@Suite("Offers: products, end to end")
struct OfferProductsCLITests {
    static func store() -> CLIHarness {
        let h = CLIHarness()
        let r = h.run(["init", "--catalog", CLIHarness.fixture("offers/catalog.json"), "--bundle-id", "com.example.offers"])
        #expect(r.code == 0, "\(r)")
        return h
    }

    @Test("the offers table names every offer, its terms, price and eligibility")
    func table() {
        let h = Self.store()
        let r = h.run(["products", "com.x.plus.yearly", "com.x.gems"])
        #expect(r.code == 0)
        #expect(
            r.stdout == """
                PRODUCT            TYPE           PRICE   PERIOD  TITLE
                com.x.plus.yearly  autoRenewable  $99.99  P1Y     Plus (Yearly)
                com.x.gems         consumable     $0.99   -       100 Gems

                PRODUCT            OFFER         ID                        TERMS              PRICE   NOTE
                com.x.plus.yearly  introductory  -                         payUpFront P3M     $9.99   eligible
                com.x.plus.yearly  billing plan  monthly                   P1M x12            $9.49   commitment $113.88
                com.x.plus.yearly  introductory  -                         freeTrial P1M      free    monthly plan; eligible
                com.x.plus.yearly  promotional   plus.yearly.monthlypromo  payAsYouGo P1M x2  $4.99   monthly plan; subscribers only
                com.x.plus.yearly  win-back      plus.yearly.winback       payUpFront P3M     $19.99  eligible when churned
                com.x.gems         offer code    GEMS-FREE                 one time           free    -
                com.x.gems         offer code    GEMS-HALF                 one time           $0.49   -

                """, "\(r)")
        // In Japan, an offer priced only in the USA is shown, but not sold.
        let jp = h.run(["products", "com.x.plus.monthly", "--storefront", "JPN"]).stdout
        #expect(jp.split(separator: "\n").contains { $0.contains("plus.halfyear") && $0.contains("not sold here") }, "\(jp)")
        #expect(jp.split(separator: "\n").contains { $0.contains("plus.comeback") && $0.contains("¥750") }, "\(jp)")
    }

    @Test("JSON: offers with their terms in the storefront, pricingTerms, offer codes for one-time products")
    func json() throws {
        let h = Self.store()
        let list = try #require(h.run(["products", "--json"]).json?["products"]?.arrayValue)
        let monthly = try #require(list.first { $0["productIdentifier"] == .string("com.x.plus.monthly") })
        #expect(monthly["isEligibleForIntroOffer"] == .bool(true))
        #expect(
            monthly["promotionalOffers"]?.arrayValue?.first?.serialized()
                == #"{"offerIdentifier":"plus.comeback","referenceName":"Come back: 3 months at half price","paymentMode":"payAsYouGo","period":"P1M","numberOfPeriods":3,"offerPeriod":"P3M","price":"4.99","localizedPrice":"$4.99","billingPlan":"upFront"}"#
        )
        #expect(
            monthly["offerCodes"]?.arrayValue?.map { $0["referenceName"]?.stringValue ?? "?" } == ["FRIENDS", "LOYAL"])
        #expect(monthly["offerCodes"]?[1]?["eligibility"] == .array([.string("existing")]))
        #expect(
            monthly["winBackOffers"]?[0]?["eligibility"]?.serialized()
                == #"{"paidSubscriptionDurationInMonths":1,"timeSinceLastSubscribedInMonths":{"minimum":1,"maximum":24},"waitBetweenOffersInMonths":6}"#
        )
        #expect(
            monthly["pricingTerms"]?.serialized()
                == #"[{"billingPlan":"upFront","billingPeriod":"P1M","price":"9.99","localizedPrice":"$9.99","commitment":null}]"#
        )
        let gems = try #require(list.first { $0["productIdentifier"] == .string("com.x.gems") })
        #expect(gems["isEligibleForIntroOffer"] == .null)
        #expect(gems["pricingTerms"] == .array([]))
        #expect(
            gems["offerCodes"]?.serialized()
                == #"[{"referenceName":"GEMS-FREE","offerDiscountType":"ONE_TIME","price":"0.00","localizedPrice":"$0.00"},{"referenceName":"GEMS-HALF","offerDiscountType":"ONE_TIME","price":"0.49","localizedPrice":"$0.49"}]"#
        )
        // In Japan the monthly's offers are priced in yen, and the ones priced only in the USA are not sold.
        let jp = try #require(h.run(["products", "com.x.plus.monthly", "--storefront", "JPN", "--json"]).json?["products"]?[0])
        #expect(jp["promotionalOffers"]?[0]?["localizedPrice"] == .string("¥750"))
        #expect(jp["promotionalOffers"]?[1]?["price"] == .null)
    }

    @Test("after a purchase in the group, no product of the group is eligible for an introductory offer")
    func eligibilityFollowsTheGroup() throws {
        let h = Self.store()
        #expect(h.run(["buy", "com.x.plus.monthly"]).code == 0)
        let list = try #require(h.run(["products", "--json"]).json?["products"]?.arrayValue)
        let eligible = list.map {
            "\($0["productIdentifier"]?.stringValue ?? "?")=\($0["isEligibleForIntroOffer"]?.serialized() ?? "?")"
        }
        #expect(eligible == ["com.x.plus.monthly=false", "com.x.plus.yearly=false", "com.x.gems=null", "com.x.pro=null"])
        #expect(
            h.run(["products", "com.x.plus.yearly"]).stdout.contains(
                "payUpFront P3M     $9.99   not eligible (the group had one)"))
    }

    @Test("a real Xcode file with a monthly plan: its pricing terms and the monthly plan's introductory offer")
    func realFile() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--catalog", CLIHarness.fixture("real/storekit/rc-unittests-v5.storekit")]).code == 0)
        let p = try #require(
            h.run(["products", "com.revenuecat.sampleapp.monthly.12mocommitment", "--json"]).json?["products"]?[0])
        #expect(
            p["pricingTerms"]?[1]?.serialized()
                == #"{"billingPlan":"monthly","billingPeriod":"P1M","price":"0.50","localizedPrice":"$0.50","commitment":{"period":"P1Y","billingPeriods":12,"price":"6.00","localizedPrice":"$6.00"},"introductoryOffer":{"paymentMode":"freeTrial","period":"P2M","numberOfPeriods":1,"offerPeriod":"P2M","price":"0.00","localizedPrice":"$0.00","billingPlan":"monthly"}}"#
        )
    }
}

extension JSONValue {
    /// The element at `index` of an array, for reading JSON output in tests.
    subscript(index: Int) -> JSONValue? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
