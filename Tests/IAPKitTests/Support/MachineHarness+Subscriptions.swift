@testable import IAPKit
@testable import IAPTime

/// Helpers for clock and subscription tests.
extension MachineHarness {
    /// A harness on `catalog` instead of the built-in one.
    init(catalog: Catalog, settings: (inout Settings) -> Void = { _ in }) {
        var s = Settings()
        settings(&s)
        machine = Machine(catalog: catalog, state: StoreState(settings: s))
        events = []
    }

    /// Moves the clock forward by `period` x `times` (calendar arithmetic).
    @discardableResult
    mutating func advance(_ iso: String, times: Int = 1) throws(StoreError) -> Effects {
        let period = SubscriptionPeriod(iso8601: iso)!
        return try apply(.advanceClock(to: period.advance(state.clock, times: times)))
    }

    @discardableResult
    mutating func advance(to date: String) throws(StoreError) -> Effects {
        try apply(.advanceClock(to: Timestamp(rfc3339: date)!))
    }

    /// The subscription of the group `product` belongs to.
    func subscription(_ product: String) -> Subscription? {
        guard let group = machine.catalog[ProductID(product)]?.subscriptionGroup, let id = state.subscriptionGroups[group] else {
            return nil
        }
        return state.subscriptions[id]
    }

    /// Every persisted transaction, by id, in its latest version (deleted ones included).
    var transactions: [Transaction] { archive.all }

    /// Names of the events since `seq` (exclusive).
    func eventNames(after seq: UInt64) -> [String] { events.filter { $0.seq > seq }.map(\.name) }
}

/// Short date literals for expectations.
func date(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

/// Catalogs for subscription tests, built in code so each test shows its terms.
enum TestCatalogs {
    static func product(
        _ id: String, _ type: ProductType = .autoRenewable, price: String = "9.99", period: String? = "P1M", group: String? = "g",
        level: Int? = 1, intro: IntroductoryOffer? = nil
    ) -> Product {
        Product(
            id: ProductID(id), type: type, referenceName: id, localizations: [.init(locale: "en_US", title: id, description: id)],
            prices: [.init(storefront: "USA", price: Price(decimal: price)!)],
            subscriptionPeriod: period.flatMap(SubscriptionPeriod.init(iso8601:)),
            subscriptionGroup: type == .autoRenewable ? group : nil, groupLevel: type == .autoRenewable ? level : nil,
            introductoryOffer: intro)
    }

    static func offer(_ mode: IntroductoryOffer.PaymentMode, _ period: String, _ count: Int, price: String? = nil)
        -> IntroductoryOffer
    {
        IntroductoryOffer(
            paymentMode: mode, period: SubscriptionPeriod(iso8601: period)!, numberOfPeriods: count,
            prices: price.map { [.init(storefront: "USA", price: Price(decimal: $0)!)] } ?? [])
    }

    /// One group with a pay-as-you-go monthly (3 months at 1.99), a pay-up-front yearly (6 months
    /// for 9.99), and two level-2 monthly products for crossgrades.
    static let offers = Catalog(products: [
        product("m.paygo", price: "4.99", group: "a", intro: offer(.payAsYouGo, "P1M", 3, price: "1.99")),
        product("y.upfront", price: "49.99", period: "P1Y", group: "b", intro: offer(.payUpFront, "P6M", 1, price: "9.99")),
        product("c.one", price: "5.99", group: "c", level: 2),
        product("c.two", price: "6.99", group: "c", level: 2),
        product("c.top", price: "8.99", group: "c", level: 1),
        product("d.daily", price: "0.99", period: "P1D", group: "d"),
    ])
}
