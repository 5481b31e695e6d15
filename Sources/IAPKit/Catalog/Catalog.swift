import Synchronization

/// The products a store sells: the answer to every `SKProductsRequest`.
///
/// A store is bound to one catalog when it is created. Catalogs come from the project's JSON
/// format (`docs/catalog.md`), from Xcode `.storekit` files, or from the built-in default
/// (`Fixtures/catalog.json`, embedded in the binary).
public struct Catalog: Sendable {
    /// Products in catalog order.
    public var products: [Product] {
        switch storage {
        case .decoded(let products): return products
        case .lazy(let lazy): return lazy.all
        }
    }
    /// Store settings the catalog asks for (Xcode `.storekit` files carry these).
    public let settings: [CatalogSetting]
    /// Subscription offer keys the catalog carries (Xcode's `subscriptionOffersKeyPair`, the
    /// project format's `subscriptionOfferKeys`); a store created with the catalog starts with them.
    public let offerKeys: [SubscriptionOfferKey]
    /// The products: decoded (a catalog parsed or built in memory), or kept in a store's catalog
    /// record and decoded one by one when first asked for (`CatalogRecord`), so a command that
    /// buys one product does not decode every other one's prices and localizations.
    private let storage: Storage
    /// Each product's position, by its id's text: keyed by `String`, whose hashing the runtime has
    /// already looked up by the time a command reads its catalog, rather than by `ProductID`,
    /// whose first lookup a one-process `buy` would pay for this table alone. Nil for a catalog of
    /// at most `searchedCount` products, which are compared one by one instead: a few id
    /// comparisons cost less than hashing one id, let alone building the table (a third of a
    /// lazy catalog's load).
    private let index: [String: Int]?
    private static let searchedCount = 16
    /// The ids of the `selfHosted` products (a catalog has few): every recorded transaction asks
    /// whether its product is one, and comparing a few ids costs less than hashing one.
    private let selfHostedIDs: [ProductID]

    private enum Storage: Sendable {
        case decoded([Product])
        case lazy(LazyProducts)
    }

    public init(
        products: [Product], settings: [CatalogSetting] = [], offerKeys: [SubscriptionOfferKey] = []
    ) {
        self.storage = .decoded(products)
        self.settings = settings
        self.offerKeys = offerKeys
        if products.count > Self.searchedCount {
            var index: [String: Int] = [:]
            index.reserveCapacity(products.count)
            for (i, product) in products.enumerated() { index[product.id.rawValue] = i }
            self.index = index
        } else {
            self.index = nil
        }
        self.selfHostedIDs = products.filter(\.selfHosted).map(\.id)
    }

    /// A catalog whose products `lazy` decodes on first use.
    init(lazy: LazyProducts, settings: [CatalogSetting], offerKeys: [SubscriptionOfferKey]) {
        self.storage = .lazy(lazy)
        self.settings = settings
        self.offerKeys = offerKeys
        var index: [String: Int]? = nil
        if lazy.entries.count > Self.searchedCount {
            var table: [String: Int] = [:]
            table.reserveCapacity(lazy.entries.count)
            for (i, entry) in lazy.entries.enumerated() { table[entry.id.rawValue] = i }
            index = table
        }
        var selfHostedIDs: [ProductID] = []
        for entry in lazy.entries where entry.selfHosted { selfHostedIDs.append(entry.id) }
        self.index = index
        self.selfHostedIDs = selfHostedIDs
    }

    /// `catalog` with its products in `storage` (the same ids in the same order).
    private init(_ catalog: Catalog, storage: Storage) {
        self.storage = storage
        self.settings = catalog.settings
        self.offerKeys = catalog.offerKeys
        self.index = catalog.index
        self.selfHostedIDs = catalog.selfHostedIDs
    }

    /// Whether `id` is a product of the catalog marked `selfHosted`.
    public func isSelfHosted(_ id: ProductID) -> Bool {
        if selfHostedIDs.count <= 8 { return selfHostedIDs.contains(id) }
        return self[id]?.selfHosted == true
    }

    public subscript(id: ProductID) -> Product? {
        guard let i = position(of: id) else { return nil }
        switch storage {
        case .decoded(let products): return products[i]
        case .lazy(let lazy): return lazy.product(at: i)
        }
    }

    private func position(of id: ProductID) -> Int? {
        if let index { return index[id.rawValue] }
        // Through the buffers, each comparison reads one id rather than copying its element.
        switch storage {
        case .decoded(let products):
            return products.withUnsafeBufferPointer { all in all.indices.first { all[$0].id == id } }
        case .lazy(let lazy):
            return lazy.entries.withUnsafeBufferPointer { all in all.indices.first { all[$0].id == id } }
        }
    }

    /// Why a product of a store's catalog record did not decode when it was first asked for
    /// (`LazyProducts.product(at:)`); nil for a catalog whose products all decoded or were
    /// parsed whole.
    var readFailure: StoreError? {
        switch storage {
        case .decoded: return nil
        case .lazy(let lazy): return lazy.failure
        }
    }

    /// The products' ids in catalog order, without decoding a lazy catalog's products.
    var ids: [ProductID] {
        switch storage {
        case .decoded(let products): return products.map(\.id)
        case .lazy(let lazy): return lazy.entries.map(\.id)
        }
    }

    /// Known ids closest to `id`, nearest first, for "did you mean" answers.
    public func closest(to id: ProductID, limit: Int = 3) -> [ProductID] {
        Suggestions.closest(to: id.rawValue, among: ids.map(\.rawValue), limit: limit).map(ProductID.init)
    }

    /// The other products of a subscription group, in catalog order.
    public func group(_ name: String) -> [Product] {
        products.filter { $0.subscriptionGroup == name }
    }

    /// The same catalog with each hosted content's `contentLength` computed by `measure`. A lazy
    /// catalog measures a product when it decodes it, on its first use (its record flags the
    /// products with hosted content), so a command that buys a coin neither decodes nor measures
    /// the products with downloads.
    public func measuringContent(_ measure: @escaping @Sendable (HostedContent) -> Int64) -> Catalog {
        @Sendable func measured(_ p: Product) -> Product {
            guard !p.hostedContent.isEmpty else { return p }
            let content = p.hostedContent.map { c -> HostedContent in
                var c = c
                c.contentLength = measure(c)
                return c
            }
            return Product(
                id: p.id, type: p.type, referenceName: p.referenceName, localizations: p.localizations, prices: p.prices,
                subscriptionPeriod: p.subscriptionPeriod, subscriptionGroup: p.subscriptionGroup, groupLevel: p.groupLevel,
                introductoryOffer: p.introductoryOffer, hostedContent: content, selfHosted: p.selfHosted,
                familyShareable: p.familyShareable, anyStorefront: p.anyStorefront, offers: p.offers)
        }
        switch storage {
        case .decoded(let products):
            return Catalog(products: products.map(measured), settings: settings, offerKeys: offerKeys)
        case .lazy(let lazy):
            guard let measuredProducts = lazy.replacingContent(measured) else { return self }
            return Catalog(self, storage: .lazy(measuredProducts))
        }
    }
}

/// A catalog's products kept encoded, each decoded on its first use and then kept.
///
/// What a catalog needs of every product up front (its id, whether it is self-hosted, whether it
/// has hosted content to measure) comes with each entry; the rest (localizations, prices, offers)
/// is decoded by `decode` only for the products a command asks for. Decoding is pure and
/// deterministic, so which thread decodes a product first, or whether two do, changes nothing.
final class LazyProducts: Sendable {
    struct Entry: Sendable {
        let id: ProductID
        let selfHosted: Bool
        let hasHostedContent: Bool
        /// Where the product's encoding starts, for `decode`.
        let offset: Int
    }

    let entries: [Entry]
    /// A product's block decoded, or the reason it does not decode.
    typealias Decode = @Sendable (Entry) -> Result<Product, StoreError>
    private let decode: Decode
    private let decoded: Mutex<Decoded>

    /// The products decoded so far: for each entry, where its product is in `products`, or -1.
    /// Not an array of `count` optional products: filling that with nil cost a `buy` some 39
    /// thousand instructions (each element copied through the optional's runtime metadata) for
    /// the one product it decodes; nor a dictionary, whose key type's conformances the runtime
    /// looks up by name (issue 12). `slots` is a plain array of integers.
    private struct Decoded: Sendable {
        var slots: [Int]
        var products: [Product] = []

        init(count: Int) { slots = [Int](repeating: -1, count: count) }

        func product(_ i: Int) -> Product? { slots[i] < 0 ? nil : products[slots[i]] }

        mutating func set(_ i: Int, _ product: Product) {
            if slots[i] >= 0 {
                products[slots[i]] = product
            } else {
                slots[i] = products.count
                products.append(product)
            }
        }
    }
    /// Why a product did not decode, once one did not (a record forged with a valid checksum:
    /// its entries and blocks are written together from one product).
    private let failed = Mutex<StoreError?>(nil)

    init(entries: [Entry], decode: @escaping Decode) {
        self.entries = entries
        self.decode = decode
        self.decoded = Mutex(Decoded(count: entries.count))
    }

    private init(entries: [Entry], decode: @escaping Decode, decoded: Decoded) {
        self.entries = entries
        self.decode = decode
        self.decoded = Mutex(decoded)
    }

    /// The product at `i`, decoded on first use. A block that does not decode gives a stand-in
    /// with the entry's id and nothing to sell, and records why in `failure`: the store session
    /// checks it before it commits and after a command's body, the way it checks a queued
    /// transaction it could not read, so the stand-in never becomes a result (no trap).
    func product(at i: Int) -> Product {
        if let product = decoded.withLock({ $0.product(i) }) { return product }
        switch decode(entries[i]) {
        case .success(let product):
            decoded.withLock { $0.set(i, product) }
            return product
        case .failure(let error):
            failed.withLock { if $0 == nil { $0 = error } }
            let id = entries[i].id
            return Product(id: id, type: .nonConsumable, referenceName: id.rawValue, localizations: [], prices: [])
        }
    }

    /// Why a product of this catalog did not decode, if one did not.
    var failure: StoreError? { failed.withLock { $0 } }

    /// Every product, in catalog order.
    var all: [Product] {
        var products: [Product] = []
        products.reserveCapacity(entries.count)
        for i in entries.indices { products.append(product(at: i)) }
        return products
    }

    /// The same products with `change` made to each one that has hosted content, as it is
    /// decoded (at once for those already decoded); nil when none has.
    func replacingContent(_ change: @escaping @Sendable (Product) -> Product) -> LazyProducts? {
        guard entries.contains(where: { $0.hasHostedContent }) else { return nil }
        var products = decoded.withLock { $0 }
        for i in entries.indices where entries[i].hasHostedContent {
            if let product = products.product(i) { products.set(i, change(product)) }
        }
        let decode = self.decode
        return LazyProducts(
            entries: entries, decode: { entry in decode(entry).map { entry.hasHostedContent ? change($0) : $0 } },
            decoded: products)
    }
}
