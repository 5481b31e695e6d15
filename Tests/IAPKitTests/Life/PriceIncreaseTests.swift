import Testing

@testable import IAPKit

/// Issue 15, items 1 and 6: price increases (SKTestSession's requestPriceIncreaseConsent,
/// consentToPriceIncrease, declinePriceIncrease) and storefront changes during a subscription.
@Suite("Price increases and storefront changes")
struct PriceIncreaseTests {
    static let pro = "com.x.vippro"

    @Test("with consent: PRICE_INCREASE/PENDING, status 0; the state holds the increase and the consent, nothing else")
    func pending() throws {
        var h = MachineHarness()
        let sub = try h.buy(Self.pro)
        let before = h.state
        let price = Price(decimal: "11.99")!
        let effects = try h.apply(.raisePrice(ProductID(Self.pro), price: price, storefront: nil, consentRequired: true))
        let increase = PriceIncrease(
            productID: ProductID(Self.pro), storefront: "USA", price: price, consentRequired: true, date: before.clock)
        let consent = PriceConsent(productID: ProductID(Self.pro), price: price, currency: "USD", status: .pending)
        var expected = before
        expected.priceIncreases = [increase]
        expected.priceConsents = [sub.id: consent]
        expected.nextEventSeq += 2
        #expect(h.state == expected)
        let s = try #require(h.subscription(Self.pro))
        #expect(
            effects.events.map(\.kind) == [
                .life(.priceIncreaseAnnounced(increase, subscribers: 1)), .life(.priceConsentChanged(s, consent)),
            ])
        #expect(effects.events[1].kind.serverNotification == ServerNotification("PRICE_INCREASE", "PENDING"))
        #expect(consent.priceIncreaseStatus == 0)
    }

    @Test("accept: PRICE_INCREASE/ACCEPTED, status 1, the next renewal charges the new price and ends the increase")
    func accept() throws {
        var h = MachineHarness()
        let sub = try h.buy(Self.pro)
        try h.apply(.raisePrice(ProductID(Self.pro), price: Price(decimal: "11.99")!, storefront: nil, consentRequired: true))
        let effects = try h.apply(.answerPriceIncrease(sub.id, accept: true))
        #expect(effects.events[0].kind.serverNotification == ServerNotification("PRICE_INCREASE", "ACCEPTED"))
        #expect(h.state.priceConsents?[sub.id]?.priceIncreaseStatus == 1)
        let renewal = try h.advance("P1M").transactions.first { $0.reason == .renewal }
        #expect(renewal?.price == Price(decimal: "11.99") && renewal?.charged == true)
        #expect(h.state.priceConsents == nil)
        #expect(h.subscription(Self.pro)?.periodPrice == Price(decimal: "11.99"))
    }

    @Test("decline, or no answer: at the renewal EXPIRED/PRICE_INCREASE with expiration intent 3")
    func declineAndSilence() throws {
        for answer in [false, nil] as [Bool?] {
            var h = MachineHarness()
            let sub = try h.buy(Self.pro)
            try h.apply(.raisePrice(ProductID(Self.pro), price: Price(decimal: "11.99")!, storefront: nil, consentRequired: true))
            if let answer {
                let e = try h.apply(.answerPriceIncrease(sub.id, accept: answer))
                #expect(e.events[0].kind.serverNotification == nil, "a decline notifies nothing at once")
            }
            let effects = try h.advance("P1M")
            let s = try #require(h.subscription(Self.pro))
            #expect(s.status == .expired(.priceIncreaseDeclined) && !s.autoRenew)
            #expect(effects.transactions.allSatisfy { $0.reason != .renewal })
            #expect(effects.events.compactMap(\.kind.serverNotification) == [ServerNotification("EXPIRED", "PRICE_INCREASE")])
            #expect(h.state.priceConsents == nil)
        }
    }

    @Test("without consent: PRICE_INCREASE/ACCEPTED at once and the next renewal charges the new price; new buyers pay it")
    func noConsent() throws {
        var h = MachineHarness()
        _ = try h.buy(Self.pro)
        let e = try h.apply(
            .raisePrice(ProductID(Self.pro), price: Price(decimal: "10.99")!, storefront: nil, consentRequired: false))
        #expect(e.events[1].kind.serverNotification == ServerNotification("PRICE_INCREASE", "ACCEPTED"))
        let renewal = try h.advance("P1M").transactions.first { $0.reason == .renewal }
        #expect(renewal?.price == Price(decimal: "10.99"))
        var h2 = MachineHarness()
        try h2.apply(.raisePrice(ProductID(Self.pro), price: Price(decimal: "10.99")!, storefront: nil, consentRequired: false))
        #expect(try h2.buy(Self.pro).price == Price(decimal: "10.99"))
        // A products request shows the raised price (in that storefront only).
        let listed = h2.machine.productsRequest([ProductID(Self.pro)]).valid.first
        #expect(listed?.price(in: "USA") == Price(decimal: "10.99") && listed?.price(in: "JPN") == Price(decimal: "1300"))
    }

    @Test("auto-renew off with an increase pending: EXPIRED/VOLUNTARY at the period's end, and the consent goes with it")
    func autoRenewOffFirst() throws {
        var h = MachineHarness()
        let sub = try h.buy(Self.pro)
        try h.apply(.raisePrice(ProductID(Self.pro), price: Price(decimal: "11.99")!, storefront: nil, consentRequired: true))
        try h.apply(.setAutoRenew(.originalTransaction(sub.id), on: false))
        let effects = try h.advance("P1M")
        #expect(effects.events.compactMap(\.kind.serverNotification) == [ServerNotification("EXPIRED", "VOLUNTARY")])
        #expect(h.state.priceConsents == nil)
    }

    @Test("another storefront's increase leaves this storefront's subscribers alone")
    func otherStorefront() throws {
        var h = MachineHarness()
        _ = try h.buy(Self.pro)
        let e = try h.apply(
            .raisePrice(ProductID(Self.pro), price: Price(decimal: "1500")!, storefront: "JPN", consentRequired: true))
        #expect(e.events.map(\.name) == ["priceIncreaseAnnounced"] && h.state.priceConsents == nil)
        let renewal = try h.advance("P1M").transactions.first { $0.reason == .renewal }
        #expect(renewal?.price == Price(decimal: "9.99"))
    }

    @Test("refused: not a subscription, not higher, no increase to answer, answered twice, unknown ids")
    func refusals() throws {
        var h = MachineHarness()
        let sub = try h.buy(Self.pro)
        let coin = try h.buy("com.x.coin42")
        let pro = ProductID(Self.pro)
        h.expectRefusal(
            .raisePrice(ProductID("com.x.coin42"), price: Price(decimal: "2")!, storefront: nil, consentRequired: true),
            .notAllowed(
                "'com.x.coin42' is consumable; price increases apply to auto-renewable subscriptions (see 'iapctl products')"))
        h.expectRefusal(
            .raisePrice(pro, price: Price(decimal: "9.99")!, storefront: nil, consentRequired: true),
            .notAllowed("9.99 is not above com.x.vippro's price in USA (9.99 USD); a price increase must raise it"))
        h.expectRefusal(
            .raisePrice(pro, price: Price(decimal: "20")!, storefront: "XYZ", consentRequired: true),
            .usage("unknown storefront 'XYZ'; give an ISO 3166-1 alpha-3 code such as USA, GBR, FRA"))
        h.expectRefusal(
            .answerPriceIncrease(sub.id, accept: true),
            .notAllowed(
                "subscription \(sub.id) has no price increase to answer; raise one with 'iapctl price-increase com.x.vippro PRICE'"
            ))
        h.expectRefusal(
            .answerPriceIncrease(coin.id, accept: true),
            .notAllowed(
                "transaction \(coin.id) is a consumable purchase; price consent is a subscription's (see 'iapctl subscriptions')")
        )
        let unknown = TransactionID(2_000_000_000_000_099)
        h.expectRefusal(.answerPriceIncrease(unknown, accept: true), .unknownTransaction(unknown))
        try h.apply(.raisePrice(pro, price: Price(decimal: "11.99")!, storefront: nil, consentRequired: true))
        try h.apply(.answerPriceIncrease(sub.id, accept: true))
        h.expectRefusal(
            .answerPriceIncrease(sub.id, accept: false),
            .notAllowed(
                "subscription \(sub.id) already accepted the price increase to 11.99 USD (or it needed no consent); it renews at that price"
            ))
    }

    @Test("a storefront change during a subscription: the next renewal is in the new storefront, currency and price")
    func storefrontChange() throws {
        var h = MachineHarness()
        let first = try h.buy(Self.pro)
        #expect(first.storefront == "USA" && first.currency == "USD")
        try h.apply(.setSetting(key: "storefront", value: "JPN"))
        let renewal = try #require(try h.advance("P1M").transactions.first { $0.reason == .renewal })
        #expect(renewal.storefront == "JPN" && renewal.currency == "JPY" && renewal.price == Price(decimal: "1300"))
        let s = try #require(h.subscription(Self.pro))
        #expect(s.currency == "JPY" && s.periodPrice == Price(decimal: "1300"))
    }
}
