/// One product of a catalog: what `SKProductsRequest` returns, plus what the simulator needs to
/// sell it (prices per storefront, subscription terms, hosted content).
public struct Product: Hashable, Sendable {
    public var id: ProductID { box.fields.id }
    public var type: ProductType { box.fields.type }
    /// App Store Connect's reference name: for people reading the catalog, never shown to buyers.
    public var referenceName: String { box.fields.referenceName }
    /// Title and description per locale (`en_US`, `zh_CN`), in catalog order.
    public var localizations: [Localization] { box.fields.localizations }
    /// Price per storefront code, in catalog order.
    /// Per storefront; a products request shows the prices a price increase raised (issue 15).
    public internal(set) var prices: [StorefrontPrice] {
        get { box.fields.prices }
        set {
            var fields = box.fields
            fields.prices = newValue
            box = Box(fields)
        }
    }
    /// The subscription period (auto-renewable) or duration (non-renewing); nil otherwise.
    public var subscriptionPeriod: SubscriptionPeriod? { box.fields.subscriptionPeriod }
    /// The subscription group of an auto-renewable subscription.
    public var subscriptionGroup: String? { box.fields.subscriptionGroup }
    /// Level of service inside the group: 1 is the highest (App Store Connect's "level",
    /// Xcode's `groupNumber`). Moving to a lower number is an upgrade.
    public var groupLevel: Int? { box.fields.groupLevel }
    /// The introductory offer (of the up-front billing plan) for new subscribers of the group.
    public var introductoryOffer: IntroductoryOffer? { box.fields.introductoryOffer }
    /// Promotional offers, offer codes, win-back offers, billing plans and the monthly plan's
    /// introductory offer.
    public var offers: ProductOffers { box.fields.offers }
    /// Apple-hosted content delivered as `SKDownload`s after purchase or restore.
    public var hostedContent: [HostedContent] { box.fields.hostedContent }
    /// Content the app downloads itself (RMStore's `contentDownloader`).
    public var selfHosted: Bool { box.fields.selfHosted }
    public var familyShareable: Bool { box.fields.familyShareable }
    /// True for a product of an Xcode `.storekit` file: its one price (`prices[0]`) is sold in
    /// every storefront, shown in that storefront's currency and rounded to its minor units,
    /// as Xcode's test session does (it keeps one `displayPrice` and changes only the currency
    /// with the storefront). False for iapctl's own format, priced storefront by storefront.
    public var anyStorefront: Bool { box.fields.anyStorefront }

    /// The fields, in one immutable box: a product is copied out of its catalog by every
    /// purchase, and copying it is then one retain rather than one per field (about a dozen).
    private struct Fields: Hashable, Sendable {
        let id: ProductID
        let type: ProductType
        let referenceName: String
        let localizations: [Localization]
        var prices: [StorefrontPrice]
        let subscriptionPeriod: SubscriptionPeriod?
        let subscriptionGroup: String?
        let groupLevel: Int?
        let introductoryOffer: IntroductoryOffer?
        let offers: ProductOffers
        let hostedContent: [HostedContent]
        let selfHosted: Bool
        let familyShareable: Bool
        let anyStorefront: Bool
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    public static func == (a: Product, b: Product) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    public struct Localization: Hashable, Sendable {
        public let locale: String
        public let title: String
        public let description: String

        public init(locale: String, title: String, description: String) {
            self.locale = locale
            self.title = title
            self.description = description
        }
    }

    public struct StorefrontPrice: Hashable, Sendable {
        public let storefront: String
        public let price: Price

        public init(storefront: String, price: Price) {
            self.storefront = storefront
            self.price = price
        }
    }

    public init(
        id: ProductID, type: ProductType, referenceName: String, localizations: [Localization],
        prices: [StorefrontPrice], subscriptionPeriod: SubscriptionPeriod? = nil, subscriptionGroup: String? = nil,
        groupLevel: Int? = nil, introductoryOffer: IntroductoryOffer? = nil, hostedContent: [HostedContent] = [],
        selfHosted: Bool = false, familyShareable: Bool = false, anyStorefront: Bool = false,
        offers: ProductOffers = ProductOffers()
    ) {
        box = Box(
            Fields(
                id: id, type: type, referenceName: referenceName, localizations: localizations, prices: prices,
                subscriptionPeriod: subscriptionPeriod, subscriptionGroup: subscriptionGroup, groupLevel: groupLevel,
                introductoryOffer: introductoryOffer, offers: offers, hostedContent: hostedContent, selfHosted: selfHosted,
                familyShareable: familyShareable, anyStorefront: anyStorefront))
    }

    /// The localization for `locale`, else its language's, else `en_US`, else the first.
    public func localization(for locale: String) -> Localization {
        if let exact = localizations.first(where: { $0.locale == locale }) { return exact }
        let language = locale.split(separator: "_").first.map(String.init) ?? locale
        if let sameLanguage = localizations.first(where: { $0.locale.hasPrefix(language + "_") || $0.locale == language }) {
            return sameLanguage
        }
        return localizations.first(where: { $0.locale == "en_US" }) ?? localizations[0]
    }

    /// The introductory offer of a billing plan: the up-front plan's is `introductoryOffer`.
    public func introductoryOffer(for plan: BillingPlanType) -> IntroductoryOffer? {
        switch plan {
        case .upFront: return introductoryOffer
        case .monthly: return offers.monthlyIntroductoryOffer
        }
    }

    /// The price in `storefront`, or nil when the product is not sold there.
    public func price(in storefront: String) -> Price? {
        Product.price(prices, anyStorefront: anyStorefront, in: storefront)
    }

    /// A price list's price in `storefront`: the listed one, or for `anyStorefront` lists the one
    /// price rounded to the storefront's currency (nil for a storefront iapctl does not know).
    static func price(_ prices: [StorefrontPrice], anyStorefront: Bool, in storefront: String) -> Price? {
        if anyStorefront {
            guard let price = prices.first?.price, let shop = Storefront.named(storefront) else { return nil }
            return price.rounded(toFractionDigits: shop.fractionDigits)
        }
        return prices.first { $0.storefront == storefront }?.price
    }
}

/// One Apple-hosted download of a product (`SKDownload`): its content id, version and the
/// files (relative to the catalog's `content/` folder) that make it up.
public struct HostedContent: Hashable, Sendable {
    public let contentIdentifier: String
    public let version: String
    /// Path of the content's folder or file, relative to the folder holding the catalog.
    public let path: String
    /// Total bytes of the content's files, measured when the catalog is loaded with its files.
    public var contentLength: Int64

    public init(contentIdentifier: String, version: String, path: String, contentLength: Int64 = 0) {
        self.contentIdentifier = contentIdentifier
        self.version = version
        self.path = path
        self.contentLength = contentLength
    }
}
