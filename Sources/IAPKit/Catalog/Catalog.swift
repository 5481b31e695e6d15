/// The products a store sells: the answer to every `SKProductsRequest`.
///
/// A store is bound to one catalog when it is created. Catalogs come from the project's JSON
/// format (`docs/catalog.md`), from Xcode `.storekit` files, or from the built-in default
/// (`Fixtures/catalog.json`, embedded in the binary).
public struct Catalog: Sendable {
    /// Products in catalog order.
    public let products: [Product]
    /// Store settings the catalog asks for (Xcode `.storekit` files carry these).
    public let settings: [(key: String, value: String)]
    /// Subscription offer keys the catalog carries (Xcode's `subscriptionOffersKeyPair`, the
    /// project format's `subscriptionOfferKeys`); a store created with the catalog starts with them.
    public let offerKeys: [SubscriptionOfferKey]
    /// Each product's position, by its id's text: keyed by `String`, whose hashing the runtime has
    /// already looked up by the time a command reads its catalog, rather than by `ProductID`,
    /// whose first lookup a one-process `buy` would pay for this table alone.
    private let index: [String: Int]
    /// The ids of the `selfHosted` products (a catalog has few): every recorded transaction asks
    /// whether its product is one, and comparing a few ids costs less than hashing one.
    private let selfHostedIDs: [ProductID]

    public init(
        products: [Product], settings: [(key: String, value: String)] = [], offerKeys: [SubscriptionOfferKey] = []
    ) {
        self.products = products
        self.settings = settings
        self.offerKeys = offerKeys
        var index: [String: Int] = [:]
        for (i, product) in products.enumerated() { index[product.id.rawValue] = i }
        self.index = index
        self.selfHostedIDs = products.filter(\.selfHosted).map(\.id)
    }

    /// Whether `id` is a product of the catalog marked `selfHosted`.
    public func isSelfHosted(_ id: ProductID) -> Bool {
        if selfHostedIDs.count <= 8 { return selfHostedIDs.contains(id) }
        return self[id]?.selfHosted == true
    }

    public subscript(id: ProductID) -> Product? {
        guard let i = index[id.rawValue] else { return nil }
        return products[i]
    }

    /// Known ids closest to `id`, nearest first, for "did you mean" answers.
    public func closest(to id: ProductID, limit: Int = 3) -> [ProductID] {
        Suggestions.closest(to: id.rawValue, among: products.map(\.id.rawValue), limit: limit).map(ProductID.init)
    }

    /// The other products of a subscription group, in catalog order.
    public func group(_ name: String) -> [Product] {
        products.filter { $0.subscriptionGroup == name }
    }
}
