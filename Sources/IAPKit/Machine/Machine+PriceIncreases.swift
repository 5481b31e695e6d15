import IAPTime

/// Price increases of auto-renewable subscriptions (issue 15, item 1), as SKTestSession's
/// `requestPriceIncreaseConsent(forProductIdentifier:)`, `consentToPriceIncrease()` and
/// `declinePriceIncrease()` drive them in Xcode's tests, and as App Store Connect's price change
/// reaches subscribers (see `PriceIncrease`).
extension Machine {
    /// The price a price increase set for `product` in `storefront`, if any.
    func raisedPrice(of product: ProductID, in storefront: String) -> Price? {
        state.priceIncreases?.last { $0.productID == product && $0.storefront == storefront }?.price
    }

    /// `product` with the prices price increases raised, as a products request shows it.
    func raisingPrices(of product: Product) -> Product {
        guard state.priceIncreases?.contains(where: { $0.productID == product.id }) == true, !product.anyStorefront else {
            return product
        }
        var p = product
        p.prices = p.prices.map { sp in
            raisedPrice(of: p.id, in: sp.storefront).map { Product.StorefrontPrice(storefront: sp.storefront, price: $0) } ?? sp
        }
        return p
    }

    mutating func setPriceConsent(_ consent: PriceConsent?, for original: TransactionID) {
        guard consent != nil || state.priceConsents?[original] != nil else { return }
        var all = state.priceConsents ?? [:]
        all[original] = consent
        state.priceConsents = all.isEmpty ? nil : all
    }

    /// Raises `product`'s price in `storefront` (the account's when nil) to `price`: new
    /// purchases pay it at once; every live subscriber whose subscription renews into `product`
    /// in that storefront is told (PRICE_INCREASE/PENDING with consent, /ACCEPTED without).
    mutating func raisePrice(
        _ id: ProductID, to price: Price, storefront: String?, consentRequired: Bool, archive: some TransactionArchive,
        into effects: inout Effects
    ) throws(StoreError) {
        guard let product = catalog[id] else { throw .unknownProduct(id, closest: catalog.closest(to: id)) }
        guard product.type == .autoRenewable else {
            throw .notAllowed(
                "'\(id)' is \(product.type.rawValue); price increases apply to auto-renewable subscriptions (see 'iapctl products')"
            )
        }
        let shop = storefront ?? state.settings.storefront
        guard let front = Storefront.named(shop) else {
            throw .usage("unknown storefront '\(shop)'; give an ISO 3166-1 alpha-3 code such as USA, GBR, FRA")
        }
        guard let current = raisedPrice(of: id, in: front.code) ?? product.price(in: front.code) else {
            throw .productNotInStorefront(id, storefront: front.code, available: product.prices.map(\.storefront))
        }
        guard price > current else {
            throw .notAllowed(
                "\(price.decimalString(fractionDigits: front.fractionDigits)) is not above \(id)'s price in \(front.code) (\(current.decimalString(fractionDigits: front.fractionDigits)) \(front.currency)); a price increase must raise it"
            )
        }
        let increase = PriceIncrease(
            productID: id, storefront: front.code, price: price, consentRequired: consentRequired, date: state.clock)
        var all = state.priceIncreases ?? []
        all.append(increase)
        state.priceIncreases = all
        var reached: [TransactionID] = []
        for original in state.subscriptions.keys.sorted() {
            guard let sub = state.subscriptions[original], sub.renewalProductID == id else { continue }
            switch sub.status {
            case .active, .inGracePeriod, .inBillingRetry: break
            case .expired, .revoked: continue
            }
            let latestShop = try serverAPITransaction(sub.latestID, archive: archive)?.storefront ?? state.settings.storefront
            guard latestShop == front.code else { continue }
            reached.append(original)
        }
        emit(.life(.priceIncreaseAnnounced(increase, subscribers: reached.count)), into: &effects)
        for original in reached {
            guard let sub = state.subscriptions[original] else { continue }
            let consent = PriceConsent(
                productID: id, price: price, currency: front.currency, status: consentRequired ? .pending : .accepted)
            setPriceConsent(consent, for: original)
            emit(.life(.priceConsentChanged(sub, consent)), into: &effects)
        }
        effects.outcome = .life(.priceIncrease(increase, subscribers: reached))
    }

    /// The subscriber answers a price increase that needs consent. `id` is any transaction of
    /// the subscription (the original one, as `iapctl subscriptions` lists it, or a renewal's):
    /// each names the same subscription, as the customer sees one subscription in Settings.
    mutating func answerPriceIncrease(
        _ id: TransactionID, accept: Bool, archive: some TransactionArchive, into effects: inout Effects
    ) throws(StoreError) {
        let original: TransactionID
        if state.subscriptions[id] != nil {
            original = id
        } else if let t = try visibleTransaction(id, archive: archive) {
            guard t.productType == .autoRenewable, state.subscriptions[t.originalID] != nil else {
                throw .notAllowed(
                    "transaction \(id) is a \(t.productType.rawValue) purchase; price consent is a subscription's (see 'iapctl subscriptions')"
                )
            }
            original = t.originalID
        } else {
            throw .unknownTransaction(id)
        }
        guard let sub = state.subscriptions[original] else { throw .unknownTransaction(id) }
        guard var consent = state.priceConsents?[original] else {
            throw .notAllowed(
                "subscription \(original) has no price increase to answer; raise one with 'iapctl price-increase \(sub.renewalProductID) PRICE'"
            )
        }
        guard consent.status != .accepted else {
            throw .notAllowed(
                "subscription \(original) already accepted the price increase to \(consent.price.decimalString(fractionDigits: SubscriptionJSONDigits.of(consent.currency))) \(consent.currency) (or it needed no consent); it renews at that price"
            )
        }
        switch sub.status {
        case .expired, .revoked:
            throw .notAllowed("subscription \(original) is \(sub.status.name); there is no renewal left to consent to")
        case .active, .inGracePeriod, .inBillingRetry: break
        }
        let status: PriceConsent.Status = accept ? .accepted : .declined
        guard consent.status != status else {
            throw .notAllowed(
                "subscription \(original) already declined the price increase; it expires at the renewal unless it accepts")
        }
        consent.status = status
        setPriceConsent(consent, for: original)
        emit(.life(.priceConsentChanged(sub, consent)), into: &effects)
        effects.outcome = .life(.priceConsent(sub, consent))
    }
}

/// The currency's fraction digits (for messages).
enum SubscriptionJSONDigits {
    static func of(_ currency: String) -> Int { Storefront.all.first { $0.currency == currency }?.fractionDigits ?? 2 }
}
