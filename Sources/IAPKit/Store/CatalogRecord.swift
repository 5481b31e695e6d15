import IAPCrypto
import IAPTime

/// The store's catalog as a binary record (`catalog.bin`), so a command loads its products
/// without parsing the catalog's JSON (or `.storekit`) text and without hashing it.
///
/// The checksummed JSON copy (`catalog`) stays the source of truth: `catalog.bin` is written
/// from it when the store is created (and by the first writer of a store that has none: a
/// format-1 store or one made before the record existed), names the SHA-256 of the JSON copy it
/// was made from, and a load uses it only when that digest is the one the checkpoint binds the
/// store to. It is a `ChecksummedFile` (kind `catalog-record`, version 2; version 1 still
/// reads): a damaged copy is refused with exit 65 naming the file, as every store file is
/// (`doctor` rebuilds it).
///
/// Layout of the body: the source digest (string), the products, the settings (key, value
/// pairs), the offer keys (id, X9.63 public key). Every product and offer is a length-prefixed
/// block, so a later version can append fields this one skips. Enumerations are written as
/// their raw strings, never as case positions. Version 2 puts before each product's block its
/// id and a flags byte (1: self-hosted, 2: has hosted content): what a catalog needs of every
/// product when it loads, so a store's load reads those and skips the blocks, decoding a
/// product only when a command asks for it (`LazyProducts`). Version 1 has no such entry and is
/// decoded whole; the first writer of a store rewrites it as version 2.
enum CatalogRecord {
    static let kind = "catalog-record"
    static let version = 2

    private static let selfHostedFlag: UInt8 = 1
    private static let hostedContentFlag: UInt8 = 2

    /// The file's bytes for `catalog`, made from the JSON copy whose SHA-256 is `sourceSHA256`
    /// (`version` 1 only for the tests that an older record still reads).
    static func encode(_ catalog: Catalog, sourceSHA256: String, version: Int = CatalogRecord.version) -> [UInt8] {
        var w = ByteWriter(capacity: 4096)
        w.string(sourceSHA256)
        w.varint(UInt64(catalog.products.count))
        for product in catalog.products {
            if version >= 2 {
                w.string(product.id.rawValue)
                w.u8((product.selfHosted ? selfHostedFlag : 0) | (product.hostedContent.isEmpty ? 0 : hostedContentFlag))
            }
            encode(product, into: &w)
        }
        w.varint(UInt64(catalog.settings.count))
        for setting in catalog.settings {
            w.string(setting.key)
            w.string(setting.value)
        }
        w.varint(UInt64(catalog.offerKeys.count))
        for key in catalog.offerKeys {
            w.string(key.id)
            w.string(Hex.encode(key.publicKey.x963Representation))
        }
        return ChecksummedFile.encode(kind: kind, version: version, body: w.bytes)
    }

    /// The catalog and the digest of the JSON copy it was made from; `.damaged` naming `path`
    /// when the file fails its checksum or does not decode.
    ///
    /// `lazily`, a version-2 record's products are not decoded here but on first use (a store's
    /// load: the checksum has vouched for every byte). Otherwise every product is decoded and
    /// checked against its entry, as `doctor` and the format's tests need.
    static func decode(_ file: [UInt8], path: String, lazily: Bool = false) throws(StoreError) -> (
        catalog: Catalog, sourceSHA256: String
    ) {
        let version = try ChecksummedFile.version(of: file, kind: kind, maximumVersion: Self.version, path: path)
        let body = try ChecksummedFile.decode(file, kind: kind, maximumVersion: Self.version, path: path)
        let decoded = body.withUnsafeBytes { raw -> (Catalog, String)? in
            var r = ByteReader(raw)
            return decodeBody(&r, body: body, version: version, path: path, lazily: lazily)
        }
        guard let decoded else { throw .damaged(path: path, problem: "malformed catalog record") }
        return decoded
    }

    private static func decodeBody(_ r: inout ByteReader, body: [UInt8], version: Int, path: String, lazily: Bool) -> (
        Catalog, String
    )? {
        guard let sha = r.string(), let n = r.varint(), n <= UInt64(r.bytes.count) else { return nil }
        var products: [Product] = []
        var entries: [LazyProducts.Entry] = []
        if lazily && version >= 2 {
            entries.reserveCapacity(Int(n))
        } else {
            products.reserveCapacity(Int(n))
        }
        for _ in 0..<n {
            if version >= 2 {
                guard let id = r.string(), let flags = r.u8(), flags & ~(selfHostedFlag | hostedContentFlag) == 0 else {
                    return nil
                }
                let entry = LazyProducts.Entry(
                    id: ProductID(id), selfHosted: flags & selfHostedFlag != 0, hasHostedContent: flags & hostedContentFlag != 0,
                    offset: r.index)
                if lazily {
                    guard r.block() != nil else { return nil }
                    entries.append(entry)
                    continue
                }
                guard let p = decodeProduct(&r), p.id == entry.id, p.selfHosted == entry.selfHosted,
                    p.hostedContent.isEmpty != entry.hasHostedContent
                else { return nil }
                products.append(p)
            } else {
                guard let p = decodeProduct(&r) else { return nil }
                products.append(p)
            }
        }
        guard let s = r.varint(), s <= UInt64(r.bytes.count) else { return nil }
        var settings: [CatalogSetting] = []
        for _ in 0..<s {
            guard let key = r.string(), let value = r.string() else { return nil }
            settings.append(CatalogSetting(key, value))
        }
        guard let k = r.varint(), k <= UInt64(r.bytes.count) else { return nil }
        var keys: [SubscriptionOfferKey] = []
        for _ in 0..<k {
            guard let id = r.string(), let hex = r.string(), let raw = Hex.decode(hex),
                let key = try? P256.PublicKey(x963Representation: raw)
            else { return nil }
            keys.append(SubscriptionOfferKey(id: id, publicKey: key))
        }
        guard r.isAtEnd else { return nil }
        guard lazily && version >= 2 else {
            return (Catalog(products: products, settings: settings, offerKeys: keys), sha)
        }
        let lazy = LazyProducts(entries: entries) { entry -> Result<Product, StoreError> in
            let product = body.withUnsafeBytes { raw -> Product? in
                var b = ByteReader(raw, at: entry.offset)
                return decodeProduct(&b)
            }
            // The file passed its checksum when it was loaded, and its entry and block were
            // written together from one product: only a record forged with a valid checksum
            // gets here. `iapctl doctor` decodes every product and reports it.
            guard let product, product.id == entry.id else {
                return .failure(
                    .damaged(
                        path: path,
                        problem:
                            "product \(entry.id.rawValue)'s block does not decode as that product (a record rewritten with a valid checksum)"
                    ))
            }
            return .success(product)
        }
        return (Catalog(lazy: lazy, settings: settings, offerKeys: keys), sha)
    }

    // MARK: - Products

    private static func encode(_ p: Product, into w: inout ByteWriter) {
        w.block { b in
            b.string(p.id.rawValue)
            b.string(p.type.rawValue)
            b.string(p.referenceName)
            b.varint(UInt64(p.localizations.count))
            for l in p.localizations {
                b.string(l.locale)
                b.string(l.title)
                b.string(l.description)
            }
            prices(p.prices, into: &b)
            b.optional(p.subscriptionPeriod) { period($1, into: &$0) }
            b.optional(p.subscriptionGroup) { $0.string($1) }
            b.optional(p.groupLevel) { $0.int($1) }
            b.optional(p.introductoryOffer) { terms($1, into: &$0) }
            b.varint(UInt64(p.hostedContent.count))
            for c in p.hostedContent {
                b.string(c.contentIdentifier)
                b.string(c.version)
                b.string(c.path)
                // Sizes are measured from the files at every load (`StoreCatalog.measure`),
                // never stored: the record holds the catalog as parsed.
                b.svarint(0)
            }
            b.bool(p.selfHosted)
            b.bool(p.familyShareable)
            b.bool(p.anyStorefront)
            offers(p.offers, into: &b)
        }
    }

    private static func decodeProduct(_ r: inout ByteReader) -> Product? {
        guard let block = r.block() else { return nil }
        var b = ByteReader(block)
        guard let id = b.string(), let type = b.string().flatMap(ProductType.init(rawValue:)), let referenceName = b.string(),
            let ln = b.varint(), ln <= UInt64(block.count)
        else { return nil }
        var localizations: [Product.Localization] = []
        localizations.reserveCapacity(Int(ln))
        for _ in 0..<ln {
            guard let locale = b.string(), let title = b.string(), let description = b.string() else { return nil }
            localizations.append(.init(locale: locale, title: title, description: description))
        }
        guard let prices = decodePrices(&b), let period = b.optional({ decodePeriod(&$0) }),
            let group = b.optional({ $0.string() }), let level = b.optional({ $0.int() }),
            let intro = b.optional({ decodeTerms(&$0) }), let cn = b.varint(), cn <= UInt64(block.count)
        else { return nil }
        var content: [HostedContent] = []
        for _ in 0..<cn {
            guard let cid = b.string(), let version = b.string(), let path = b.string(), let length = b.svarint() else {
                return nil
            }
            content.append(HostedContent(contentIdentifier: cid, version: version, path: path, contentLength: length))
        }
        guard let selfHosted = b.bool(), let family = b.bool(), let any = b.bool(), let offers = decodeOffers(&b) else {
            return nil
        }
        return Product(
            id: ProductID(id), type: type, referenceName: referenceName, localizations: localizations, prices: prices,
            subscriptionPeriod: period, subscriptionGroup: group, groupLevel: level, introductoryOffer: intro,
            hostedContent: content, selfHosted: selfHosted, familyShareable: family, anyStorefront: any, offers: offers)
    }

    // MARK: - Parts

    private static func prices(_ prices: [Product.StorefrontPrice], into w: inout ByteWriter) {
        w.varint(UInt64(prices.count))
        for p in prices {
            w.string(p.storefront)
            w.price(p.price)
        }
    }

    private static func decodePrices(_ r: inout ByteReader) -> [Product.StorefrontPrice]? {
        guard let n = r.varint(), n <= UInt64(r.bytes.count) else { return nil }
        var out: [Product.StorefrontPrice] = []
        out.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard let storefront = r.string(), let price = r.price() else { return nil }
            out.append(.init(storefront: storefront, price: price))
        }
        return out
    }

    private static func period(_ p: SubscriptionPeriod, into w: inout ByteWriter) {
        w.int(p.value)
        w.string(p.unit.rawValue)
    }

    private static func decodePeriod(_ r: inout ByteReader) -> SubscriptionPeriod? {
        guard let value = r.int(), let unit = r.string().flatMap(SubscriptionPeriod.Unit.init(rawValue:)) else { return nil }
        return SubscriptionPeriod(value: value, unit: unit)
    }

    private static func terms(_ t: OfferTerms, into w: inout ByteWriter) {
        w.string(t.paymentMode.rawValue)
        period(t.period, into: &w)
        w.int(t.numberOfPeriods)
        prices(t.prices, into: &w)
        w.bool(t.anyStorefront)
        w.string(t.billingPlan.rawValue)
    }

    private static func decodeTerms(_ r: inout ByteReader) -> OfferTerms? {
        guard let mode = r.string().flatMap(OfferTerms.PaymentMode.init(rawValue:)), let period = decodePeriod(&r),
            let count = r.int(), let prices = decodePrices(&r), let any = r.bool(),
            let plan = r.string().flatMap(BillingPlanType.init(rawValue:))
        else { return nil }
        return OfferTerms(
            paymentMode: mode, period: period, numberOfPeriods: count, prices: prices, anyStorefront: any, billingPlan: plan)
    }

    private static func offers(_ o: ProductOffers, into w: inout ByteWriter) {
        w.block { b in
            b.optional(o.monthlyIntroductoryOffer) { terms($1, into: &$0) }
            b.varint(UInt64(o.promotional.count))
            for p in o.promotional {
                b.string(p.id.rawValue)
                b.string(p.referenceName)
                terms(p.terms, into: &b)
            }
            b.varint(UInt64(o.codes.count))
            for c in o.codes {
                b.string(c.referenceName)
                switch c.discount {
                case .subscription(let t):
                    b.u8(1)
                    terms(t, into: &b)
                case .oneTime(let p, let any):
                    b.u8(2)
                    prices(p, into: &b)
                    b.bool(any)
                }
                b.varint(UInt64(c.eligibility.count))
                for e in c.eligibility { b.string(e.rawValue) }
            }
            b.varint(UInt64(o.winBack.count))
            for offer in o.winBack {
                b.string(offer.id.rawValue)
                b.string(offer.referenceName)
                terms(offer.terms, into: &b)
                switch offer.eligibility {
                case .rules(let paid, let since, let wait):
                    b.u8(1)
                    b.int(paid)
                    b.int(since.lowerBound)
                    b.int(since.upperBound)
                    b.optional(wait) { $0.int($1) }
                case .whenChurned(let churned):
                    b.u8(2)
                    b.bool(churned)
                }
                b.string(offer.priority.rawValue)
                b.optional(offer.startDate) { $0.timestamp($1) }
                b.optional(offer.endDate) { $0.timestamp($1) }
            }
            b.varint(UInt64(o.billingPlans.count))
            for plan in o.billingPlans {
                b.string(plan.type.rawValue)
                prices(plan.prices, into: &b)
                b.bool(plan.anyStorefront)
            }
        }
    }

    private static func decodeOffers(_ r: inout ByteReader) -> ProductOffers? {
        guard let block = r.block() else { return nil }
        var b = ByteReader(block)
        let limit = UInt64(block.count)
        guard let monthly = b.optional({ decodeTerms(&$0) }), let pn = b.varint(), pn <= limit else { return nil }
        var promotional: [PromotionalOffer] = []
        for _ in 0..<pn {
            guard let id = b.string(), let name = b.string(), let t = decodeTerms(&b) else { return nil }
            promotional.append(PromotionalOffer(id: OfferID(id), referenceName: name, terms: t))
        }
        guard let cn = b.varint(), cn <= limit else { return nil }
        var codes: [OfferCode] = []
        for _ in 0..<cn {
            guard let name = b.string() else { return nil }
            let discount: OfferCode.Discount
            switch b.u8() {
            case 1?:
                guard let t = decodeTerms(&b) else { return nil }
                discount = .subscription(t)
            case 2?:
                guard let p = decodePrices(&b), let any = b.bool() else { return nil }
                discount = .oneTime(prices: p, anyStorefront: any)
            default: return nil
            }
            guard let en = b.varint(), en <= limit else { return nil }
            var eligibility: [OfferCode.Eligibility] = []
            for _ in 0..<en {
                guard let e = b.string().flatMap(OfferCode.Eligibility.init(rawValue:)) else { return nil }
                eligibility.append(e)
            }
            codes.append(OfferCode(referenceName: name, discount: discount, eligibility: eligibility))
        }
        guard let wn = b.varint(), wn <= limit else { return nil }
        var winBack: [WinBackOffer] = []
        for _ in 0..<wn {
            guard let id = b.string(), let name = b.string(), let t = decodeTerms(&b) else { return nil }
            let eligibility: WinBackOffer.Eligibility
            switch b.u8() {
            case 1?:
                guard let paid = b.int(), let low = b.int(), let high = b.int(), low <= high, let wait = b.optional({ $0.int() })
                else { return nil }
                eligibility = .rules(paidMonths: paid, monthsSinceLastSubscribed: low...high, waitBetweenOffersMonths: wait)
            case 2?:
                guard let churned = b.bool() else { return nil }
                eligibility = .whenChurned(churned)
            default: return nil
            }
            guard let priority = b.string().flatMap(WinBackOffer.Priority.init(rawValue:)),
                let start = b.optional({ $0.timestamp() }), let end = b.optional({ $0.timestamp() })
            else { return nil }
            winBack.append(
                WinBackOffer(
                    id: OfferID(id), referenceName: name, terms: t, eligibility: eligibility, priority: priority,
                    startDate: start, endDate: end))
        }
        guard let bn = b.varint(), bn <= limit else { return nil }
        var plans: [BillingPlan] = []
        for _ in 0..<bn {
            guard let type = b.string().flatMap(BillingPlanType.init(rawValue:)), let p = decodePrices(&b), let any = b.bool()
            else { return nil }
            plans.append(BillingPlan(type: type, prices: p, anyStorefront: any))
        }
        return ProductOffers(
            monthlyIntroductoryOffer: monthly, promotional: promotional, codes: codes, winBack: winBack, billingPlans: plans)
    }
}
