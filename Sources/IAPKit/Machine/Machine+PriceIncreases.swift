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
            throw .refused(.priceIncreaseOfNonSubscription(id, product.type))
        }
        let shop = storefront ?? state.settings.storefront
        guard let front = Storefront.named(shop) else {
            throw .badArgument(.unknownStorefront(shop))
        }
        guard let current = raisedPrice(of: id, in: front.code) ?? product.price(in: front.code) else {
            throw .productNotInStorefront(id, storefront: front.code, available: product.prices.map(\.storefront))
        }
        guard price > current else {
            throw .refused(
                .priceNotAbove(
                    price: price.decimalString(fractionDigits: front.fractionDigits), product: id, storefront: front.code,
                    current: current.decimalString(fractionDigits: front.fractionDigits), currency: front.currency))
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
        let consent = PriceConsent(
            productID: id, price: price, currency: front.currency, status: consentRequired ? .pending : .accepted)
        for original in reached {
            guard let sub = state.subscriptions[original] else { continue }
            setPriceConsent(consent, for: original)
            emit(.life(.priceConsentChanged(sub, consent)), into: &effects)
        }
        effects.outcome = .life(.priceIncrease(increase, subscribers: reached, consent: consent))
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
                throw .refused(.consentOfNonSubscription(id, t.productType))
            }
            original = t.originalID
        } else {
            throw .unknownTransaction(id)
        }
        guard let sub = state.subscriptions[original] else { throw .unknownTransaction(id) }
        guard var consent = state.priceConsents?[original] else {
            throw .refused(.noPriceIncrease(original: original, renewal: sub.renewalProductID))
        }
        guard consent.status != .accepted else {
            throw .refused(
                .priceIncreaseAccepted(
                    original: original,
                    price: consent.price.decimalString(fractionDigits: SubscriptionJSONDigits.of(consent.currency)),
                    currency: consent.currency))
        }
        switch sub.status {
        case .expired, .revoked:
            throw .refused(.consentOfEnded(original: original, status: sub.status.name))
        case .active, .inGracePeriod, .inBillingRetry: break
        }
        let status: PriceConsent.Status = accept ? .accepted : .declined
        guard consent.status != status else {
            throw .refused(.priceIncreaseDeclined(original: original))
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
