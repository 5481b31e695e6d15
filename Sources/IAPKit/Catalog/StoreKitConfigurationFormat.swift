import IAPJSON

/// Reads Xcode StoreKit configuration files (`.storekit`), format versions 1 to 5, into a catalog.
///
/// A `.storekit` file is JSON written by Xcode's StoreKit configuration editor (REFERENCE
/// section 8): `products` (consumables and non-consumables), `nonRenewingSubscriptions`,
/// `subscriptionGroups` with their auto-renewable `subscriptions`, `settings` and
/// `version {major, minor}`. Xcode adds keys from release to release, so unknown keys are
/// tolerated everywhere; what iapctl reads is validated as strictly as its own format, and a
/// mistake names the key path, the product and the fix.
///
/// A `.storekit` file prices every product once (`displayPrice`), in the storefront of
/// `settings._storefront` (USA when absent), the way Xcode's test environment does; that price
/// becomes the product's only storefront price. See `docs/storekit.md` for the full mapping.
public enum StoreKitConfigurationFormat {
    /// The newest `version.major` this reader understands; newer files are refused, since a
    /// format change could move prices or periods to keys this reader would silently miss.
    public static let newestMajorVersion: Int64 = 5
    /// The storefront of the prices when `settings._storefront` is absent (Xcode's default).
    public static let defaultStorefront = "USA"
    /// The duration of a non-renewing subscription when the file gives none: Xcode's editor has
    /// no period for non-renewing subscriptions (the app decides how long they last), and one
    /// month is the common case and iapctl's default catalog's choice.
    public static let defaultNonRenewingPeriod = SubscriptionPeriod(value: 1, unit: .month)
    /// Periods Apple offers for auto-renewable subscriptions (App Store Connect and Xcode).
    public static let recurringPeriods = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

    /// A read catalog plus what the file asked for that iapctl does not simulate.
    public struct Import: Sendable {
        public let catalog: Catalog
        /// `version.major` and `version.minor` of the file (1.0 when absent).
        public let majorVersion: Int64
        public let minorVersion: Int64
        /// One line per thing read but not applied (an offer kind iapctl does not simulate, an
        /// enabled error on an API without an iapctl fault point), for `iapctl catalog` to show.
        public let notes: [String]
    }

    /// Reads a `.storekit` file into a catalog.
    public static func read(_ bytes: [UInt8], file: String) throws(CatalogError) -> Catalog {
        try readImport(bytes, file: file).catalog
    }

    /// Reads a `.storekit` file, also reporting what was read but not applied.
    public static func readImport(_ bytes: [UInt8], file: String) throws(CatalogError) -> Import {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw CatalogError(file: file, keyPath: "", problem: "\(error.description) (check the JSON syntax)")
        }
        return try read(root: root, file: file)
    }

    static func read(root: JSONValue, file: String) throws(CatalogError) -> Import {
        var reader = Reader(file: file)
        return try reader.read(root)
    }

    private struct Reader {
        let file: String
        var product: String?
        var notes: [String] = []
        var storefront = Storefront.usa
        var seen: Set<String> = []
        var products: [Product] = []

        init(file: String) { self.file = file }

        func fail(_ path: String, _ problem: String) -> CatalogError {
            CatalogError(file: file, product: product, keyPath: path, problem: problem)
        }

        // MARK: Values

        func object(_ value: JSONValue, _ path: String) throws(CatalogError) -> [(key: String, value: JSONValue)] {
            guard let members = value.objectValue else { throw fail(path, "expected an object, found \(value.kindName)") }
            return members
        }

        /// An optional array; `null` reads as empty, as Xcode writes some lists.
        func array(_ value: JSONValue?, _ path: String) throws(CatalogError) -> [JSONValue] {
            guard let value, value != .null else { return [] }
            guard let items = value.arrayValue else { throw fail(path, "expected an array, found \(value.kindName)") }
            return items
        }

        func string(_ value: JSONValue?, _ path: String) throws(CatalogError) -> String? {
            guard let value, value != .null else { return nil }
            guard let text = value.stringValue else { throw fail(path, "expected a string, found \(value.kindName)") }
            return text
        }

        func requiredString(_ value: JSONValue?, _ path: String, fix: String) throws(CatalogError) -> String {
            guard let text = try string(value, path) else { throw fail(path, "missing; \(fix)") }
            guard !text.allSatisfy(\.isWhitespace) else { throw fail(path, "must not be empty; \(fix)") }
            return text
        }

        /// A flag; Xcode writes booleans, and 0/1 is accepted as the same.
        func bool(_ value: JSONValue?, _ path: String) throws(CatalogError) -> Bool? {
            switch value {
            case nil, .null?: return nil
            case .bool(let b)?: return b
            case .number("0")?: return false
            case .number("1")?: return true
            case let other?: throw fail(path, "expected true or false, found \(other.kindName)")
            }
        }

        func integer(_ value: JSONValue?, _ path: String, in range: ClosedRange<Int64>, what: String) throws(CatalogError)
            -> Int64?
        {
            guard let value, value != .null else { return nil }
            guard let n = value.int64Value, range.contains(n) else {
                throw fail(path, "expected \(what), found \(describe(value))")
            }
            return n
        }

        func describe(_ value: JSONValue) -> String {
            switch value {
            case .number(let text): return text
            case .string(let text): return "\"\(text)\""
            default: return value.kindName
            }
        }

        /// A price in the file's storefront, checked like the project's own format.
        func price(_ value: JSONValue?, _ path: String) throws(CatalogError) -> Price {
            let text: String
            switch value {
            case .string(let s)?: text = s
            case .number(let n)?: text = n
            case nil, .null?: throw fail(path, "missing; write the price as a decimal such as \"0.99\"")
            case let other?: throw fail(path, "expected a decimal price such as \"0.99\", found \(other.kindName)")
            }
            guard let price = Price(decimal: text) else {
                throw fail(path, "bad price '\(text)'; write a non-negative decimal such as \"0.99\"")
            }
            guard price.fits(fractionDigits: storefront.fractionDigits) else {
                throw fail(
                    path,
                    "bad price '\(text)'; \(storefront.currency) (storefront \(storefront.code)) has \(storefront.fractionDigits) decimal digits"
                )
            }
            return price
        }

        func period(_ value: JSONValue?, _ path: String, allowed: [String]?) throws(CatalogError) -> SubscriptionPeriod? {
            guard let text = try string(value, path) else { return nil }
            let hint =
                allowed.map { "write one of \($0.joined(separator: ", "))" } ?? "write an ISO 8601 period such as P1W, P1M or P1Y"
            guard let period = SubscriptionPeriod(iso8601: text), text == period.iso8601 else {
                throw fail(path, "'\(text)' is not a period; \(hint)")
            }
            if let allowed, !allowed.contains(period.iso8601) {
                throw fail(path, "'\(text)' is not a period Apple offers for auto-renewable subscriptions; \(hint)")
            }
            return period
        }

        // MARK: Document

        mutating func read(_ root: JSONValue) throws(CatalogError) -> Import {
            _ = try object(root, "")
            var major: Int64 = 1
            var minor: Int64 = 0
            if let version = root["version"], version != .null {
                _ = try object(version, "version")
                guard let m = version["major"]?.int64Value else {
                    throw fail("version.major", "expected an integer such as 3 (Xcode writes {\"major\": 3, \"minor\": 0})")
                }
                guard m <= StoreKitConfigurationFormat.newestMajorVersion else {
                    throw fail(
                        "version.major",
                        "StoreKit configuration format \(m) is newer than iapctl reads (1 to \(StoreKitConfigurationFormat.newestMajorVersion)); upgrade iapctl or save the file from an older Xcode"
                    )
                }
                guard m >= 1 else {
                    throw fail("version.major", "expected 1 to \(StoreKitConfigurationFormat.newestMajorVersion), found \(m)")
                }
                major = m
                minor =
                    try integer(version["minor"], "version.minor", in: 0...Int64(Int32.max), what: "a non-negative integer") ?? 0
            }

            let settings = try self.settings(root["settings"])

            for (i, item) in try array(root["products"], "products").enumerated() {
                try add(item, "products[\(i)]", section: .products, group: nil)
            }
            for (i, item) in try array(root["nonRenewingSubscriptions"], "nonRenewingSubscriptions").enumerated() {
                try add(item, "nonRenewingSubscriptions[\(i)]", section: .nonRenewing, group: nil)
            }
            var groupNames: Set<String> = []
            for (g, groupValue) in try array(root["subscriptionGroups"], "subscriptionGroups").enumerated() {
                let path = "subscriptionGroups[\(g)]"
                product = nil
                _ = try object(groupValue, path)
                let id = try string(groupValue["id"], "\(path).id")
                let name = try string(groupValue["name"], "\(path).name").flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
                guard let groupName = name ?? id, !groupName.isEmpty else {
                    throw fail("\(path).name", "missing; name the subscription group")
                }
                guard groupNames.insert(groupName).inserted else {
                    throw fail("\(path).name", "duplicate subscription group '\(groupName)'; give each group its own name")
                }
                let group = Group(id: id, name: groupName)
                for (s, item) in try array(groupValue["subscriptions"], "\(path).subscriptions").enumerated() {
                    try add(item, "\(path).subscriptions[\(s)]", section: .subscriptions, group: group)
                }
            }
            product = nil
            guard !products.isEmpty else {
                throw fail("products", "the file has no products; add one in Xcode's StoreKit configuration editor")
            }
            return Import(
                catalog: Catalog(products: products, settings: settings), majorVersion: major, minorVersion: minor, notes: notes)
        }

        // MARK: Settings

        mutating func settings(_ value: JSONValue?) throws(CatalogError) -> [(key: String, value: String)] {
            guard let value, value != .null else { return [] }
            _ = try object(value, "settings")
            var result: [(key: String, value: String)] = []
            if let locale = try string(value["_locale"], "settings._locale") {
                if let problem = LocaleIdentifier.problem(locale) { throw fail("settings._locale", problem) }
                result.append(("locale", locale))
            }
            if let code = try string(value["_storefront"], "settings._storefront") {
                guard let known = Storefront.named(code) else {
                    throw fail(
                        "settings._storefront",
                        "unknown storefront '\(code)'; iapctl prices products in \(Storefront.all.map(\.code).joined(separator: ", "))"
                    )
                }
                storefront = known
                result.append(("storefront", known.code))
            }
            let flags: [(xcode: String, iapctl: String)] = [
                ("_askToBuyEnabled", "ask-to-buy"),
                ("_failTransactionsEnabled", "fail-transactions"),
            ]
            for flag in flags {
                if let on = try bool(value[flag.xcode], "settings.\(flag.xcode)") {
                    result.append((flag.iapctl, on ? "true" : "false"))
                }
            }
            // Xcode 12-15 write `_billingIssuesEnabled`; Xcode 16 writes `_renewalBillingIssuesEnabled`.
            let billing = try bool(value["_billingIssuesEnabled"], "settings._billingIssuesEnabled")
            let renewalBilling = try bool(value["_renewalBillingIssuesEnabled"], "settings._renewalBillingIssuesEnabled")
            if billing != nil || renewalBilling != nil {
                result.append(("billing-issues", (billing ?? false) || (renewalBilling ?? false) ? "true" : "false"))
            }
            if let on = try bool(value["_billingGracePeriodEnabled"], "settings._billingGracePeriodEnabled") {
                result.append(("grace-period", on ? "true" : "false"))
            }
            // Formats 1 and 2: the SKError code "Fail Transactions" fails purchases with.
            let failing = try bool(value["_failTransactionsEnabled"], "settings._failTransactionsEnabled") ?? false
            if let code = try integer(
                value["_storeKitError"], "settings._storeKitError", in: 0...Int64(StoreKitErrorMapping.skErrorNames.count - 1),
                what: "an SKError code from 0 to \(StoreKitErrorMapping.skErrorNames.count - 1)"), failing
            {
                result.append(("fault", "purchase \(StoreKitErrorMapping.skErrorNames[Int(code)])"))
            }
            for (i, entry) in try array(value["_storeKitErrors"], "settings._storeKitErrors").enumerated() {
                let path = "settings._storeKitErrors[\(i)]"
                _ = try object(entry, path)
                guard try bool(entry["enabled"], "\(path).enabled") == true else { continue }
                let name = try requiredString(entry["name"], "\(path).name", fix: "name the StoreKit API, such as \"Purchase\"")
                guard let point = StoreKitErrorMapping.faultPoint(forXcodeName: name) else {
                    notes.append(
                        "settings._storeKitErrors: the '\(name)' error is enabled, but iapctl does not simulate that API; ignored"
                    )
                    continue
                }
                var error = "unknown"
                if let current = entry["current"], current != .null {
                    if let found = StoreKitErrorMapping.errorCase(in: current) {
                        error = found
                    } else {
                        notes.append(
                            "\(path).current: the '\(name)' error \(current.serialized()) is not one iapctl knows; using 'unknown'"
                        )
                    }
                }
                result.append(("fault", "\(point) \(error)"))
            }
            return result
        }

        // MARK: Products

        enum Section {
            case products, nonRenewing, subscriptions

            var defaultType: String? {
                switch self {
                case .products: return nil
                case .nonRenewing: return "NonRenewingSubscription"
                case .subscriptions: return "RecurringSubscription"
                }
            }

            var allowedTypes: [String] {
                switch self {
                case .products: return ["Consumable", "NonConsumable"]
                case .nonRenewing: return ["NonRenewingSubscription"]
                case .subscriptions: return ["RecurringSubscription"]
                }
            }
        }

        struct Group {
            let id: String?
            let name: String
        }

        static let allTypes = ["Consumable", "NonConsumable", "NonRenewingSubscription", "RecurringSubscription"]

        static func home(ofType type: String) -> String {
            switch type {
            case "NonRenewingSubscription": return "nonRenewingSubscriptions"
            case "RecurringSubscription": return "subscriptionGroups[].subscriptions"
            default: return "products"
            }
        }

        mutating func add(_ item: JSONValue, _ path: String, section: Section, group: Group?) throws(CatalogError) {
            product = nil
            _ = try object(item, path)
            let id = try requiredString(
                item["productID"], "\(path).productID", fix: "give the product its identifier, such as \"com.example.coins100\"")
            product = id
            guard id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw fail("\(path).productID", "'\(id)' must be printable ASCII without spaces")
            }
            guard seen.insert(id).inserted else {
                throw fail("\(path).productID", "duplicate product identifier; each product must appear once in the file")
            }

            let typeText: String
            if let t = try string(item["type"], "\(path).type") {
                typeText = t
            } else if let t = section.defaultType {
                typeText = t
            } else {
                throw fail("\(path).type", "missing; write \"Consumable\" or \"NonConsumable\"")
            }
            guard section.allowedTypes.contains(typeText) else {
                if Reader.allTypes.contains(typeText) {
                    throw fail(
                        "\(path).type",
                        "a \(typeText) product belongs in \(Reader.home(ofType: typeText)), not here; move it or change its type")
                }
                let hint =
                    Suggestions.nearest(to: typeText, among: section.allowedTypes).map { "did you mean '\($0)'?" }
                    ?? "use \(section.allowedTypes.joined(separator: " or "))"
                throw fail("\(path).type", "unknown type '\(typeText)'; \(hint)")
            }
            let type: ProductType
            switch typeText {
            case "Consumable": type = .consumable
            case "NonConsumable": type = .nonConsumable
            case "NonRenewingSubscription": type = .nonRenewing
            default: type = .autoRenewable
            }

            let referenceName =
                try string(item["referenceName"], "\(path).referenceName").flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
                ?? id
            let price = try self.price(item["displayPrice"], "\(path).displayPrice")
            let familyShareable = try bool(item["familyShareable"], "\(path).familyShareable") ?? false
            let localizations = try self.localizations(
                item["localizations"], "\(path).localizations", fallbackTitle: referenceName)

            var period: SubscriptionPeriod?
            var level: Int?
            var offer: IntroductoryOffer?
            switch section {
            case .products:
                break
            case .nonRenewing:
                // Xcode has no period for non-renewing subscriptions; accept one if present.
                if let p = try self.period(item["subscriptionPeriod"], "\(path).subscriptionPeriod", allowed: nil) {
                    period = p
                } else if let p = try self.period(
                    item["recurringSubscriptionPeriod"], "\(path).recurringSubscriptionPeriod", allowed: nil)
                {
                    period = p
                } else {
                    period = StoreKitConfigurationFormat.defaultNonRenewingPeriod
                }
            case .subscriptions:
                guard
                    let p = try self.period(
                        item["recurringSubscriptionPeriod"], "\(path).recurringSubscriptionPeriod",
                        allowed: StoreKitConfigurationFormat.recurringPeriods)
                else {
                    throw fail(
                        "\(path).recurringSubscriptionPeriod",
                        "missing; write one of \(StoreKitConfigurationFormat.recurringPeriods.joined(separator: ", "))")
                }
                period = p
                guard
                    let n = try integer(
                        item["groupNumber"], "\(path).groupNumber", in: 1...100, what: "an integer from 1 (highest level) to 100")
                else {
                    throw fail("\(path).groupNumber", "missing; give the level of service in the group, 1 being the highest")
                }
                level = Int(n)
                if let groupID = try string(item["subscriptionGroupID"], "\(path).subscriptionGroupID"), let expected = group?.id,
                    groupID != expected
                {
                    throw fail(
                        "\(path).subscriptionGroupID",
                        "'\(groupID)' does not match its group's id '\(expected)'; move the subscription or fix the id")
                }
                offer = try introductoryOffer(item, path)
                for key in ["adHocOffers", "codeOffers", "winbackOffers"] {
                    let offers = try array(item[key], "\(path).\(key)")
                    if !offers.isEmpty {
                        notes.append("\(path).\(key): \(offers.count) offer(s) of '\(id)' read but not simulated")
                    }
                }
            }
            products.append(
                Product(
                    id: ProductID(id), type: type, referenceName: referenceName, localizations: localizations,
                    prices: [.init(storefront: storefront.code, price: price)], subscriptionPeriod: period,
                    subscriptionGroup: group?.name, groupLevel: level, introductoryOffer: offer, familyShareable: familyShareable)
            )
        }

        func localizations(_ value: JSONValue?, _ path: String, fallbackTitle: String) throws(CatalogError) -> [Product
            .Localization]
        {
            let items = try array(value, path)
            guard !items.isEmpty else {
                throw fail(
                    path,
                    "missing; add at least one localization, such as {\"locale\": \"en_US\", \"displayName\": ..., \"description\": ...}"
                )
            }
            var result: [Product.Localization] = []
            for (i, item) in items.enumerated() {
                let p = "\(path)[\(i)]"
                _ = try object(item, p)
                let locale = try requiredString(item["locale"], "\(p).locale", fix: "write a locale such as \"en_US\"")
                if let problem = LocaleIdentifier.problem(locale) { throw fail("\(p).locale", problem) }
                guard !result.contains(where: { $0.locale == locale }) else {
                    throw fail("\(p).locale", "duplicate locale '\(locale)'; each locale may appear once per product")
                }
                // Xcode lets a display name stay empty; StoreKit then shows an empty title, and
                // iapctl shows the reference name instead, so that every product has a title.
                let title =
                    try string(item["displayName"], "\(p).displayName").flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
                    ?? fallbackTitle
                let description = try string(item["description"], "\(p).description") ?? ""
                result.append(.init(locale: locale, title: title, description: description))
            }
            return result
        }

        /// The introductory offer: `introductoryOffer` (an object or null); newer files may list
        /// `introductoryOffers`, of which StoreKit applies one, so the first is used.
        mutating func introductoryOffer(_ item: JSONValue, _ subscriptionPath: String) throws(CatalogError) -> IntroductoryOffer?
        {
            var path = "\(subscriptionPath).introductoryOffer"
            var value = item["introductoryOffer"]
            if value == nil || value == .null {
                let list = try array(item["introductoryOffers"], "\(subscriptionPath).introductoryOffers")
                guard let first = list.first else { return nil }
                if list.count > 1 {
                    notes.append(
                        "\(subscriptionPath).introductoryOffers: only the first of \(list.count) offers of '\(product ?? "")' is simulated"
                    )
                }
                path = "\(subscriptionPath).introductoryOffers[0]"
                value = first
            }
            guard let value, value != .null else { return nil }
            _ = try object(value, path)
            let modeText = try requiredString(
                value["paymentMode"], "\(path).paymentMode", fix: "write free, payAsYouGo or payUpFront")
            let mode: IntroductoryOffer.PaymentMode
            switch modeText {
            case "free": mode = .freeTrial
            case "payAsYouGo": mode = .payAsYouGo
            case "payUpFront": mode = .payUpFront
            default:
                let hint =
                    Suggestions.nearest(to: modeText, among: ["free", "payAsYouGo", "payUpFront"]).map { "did you mean '\($0)'?" }
                    ?? "write free, payAsYouGo or payUpFront"
                throw fail("\(path).paymentMode", "unknown payment mode '\(modeText)'; \(hint)")
            }
            guard let period = try self.period(value["subscriptionPeriod"], "\(path).subscriptionPeriod", allowed: nil) else {
                throw fail("\(path).subscriptionPeriod", "missing; write the offer's period, such as P1W")
            }
            // Xcode writes numberOfPeriods for pay-as-you-go only; the other modes last one period.
            let count =
                try integer(value["numberOfPeriods"], "\(path).numberOfPeriods", in: 1...12, what: "an integer from 1 to 12") ?? 1
            var prices: [Product.StorefrontPrice] = []
            if mode != .freeTrial {
                prices = [.init(storefront: storefront.code, price: try price(value["displayPrice"], "\(path).displayPrice"))]
            }
            return IntroductoryOffer(paymentMode: mode, period: period, numberOfPeriods: Int(count), prices: prices)
        }
    }
}
