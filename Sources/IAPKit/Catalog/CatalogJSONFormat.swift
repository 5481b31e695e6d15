import IAPJSON

/// Reads and writes the project's catalog format (`docs/catalog.md`).
///
/// Reading is strict: unknown keys, duplicate ids, unknown types, malformed prices, subscriptions
/// without a period and the like are errors naming the file, the product and the key path, because
/// a catalog typo would otherwise surface much later as a puzzling purchase.
public enum CatalogJSONFormat {
    /// The value of the top-level `format` key.
    public static let formatName = "iapctl-catalog"
    public static let version: Int64 = 1

    public static func read(_ bytes: [UInt8], file: String) throws(CatalogError) -> Catalog {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw CatalogError(file: file, keyPath: "", problem: "\(error.description) (check the JSON syntax)")
        }
        return try read(root: root, file: file)
    }

    /// Reads an already parsed catalog document.
    static func read(root: JSONValue, file: String) throws(CatalogError) -> Catalog {
        var reader = Reader(file: file)
        return try reader.catalog(root)
    }

    struct Reader {
        let file: String
        var product: String?

        func fail(_ path: String, _ problem: String) -> CatalogError {
            CatalogError(file: file, product: product, keyPath: path, problem: problem)
        }

        func object(_ value: JSONValue, _ path: String, allowed: [String]) throws(CatalogError) -> [(
            key: String, value: JSONValue
        )] {
            guard let members = value.objectValue else { throw fail(path, "expected an object, found \(value.kindName)") }
            for member in members where !allowed.contains(member.key) {
                let hint =
                    Suggestions.nearest(to: member.key, among: allowed).map { "did you mean '\($0)'?" }
                    ?? "known keys: \(allowed.joined(separator: ", "))"
                throw fail(path.isEmpty ? member.key : "\(path).\(member.key)", "unknown key '\(member.key)'; \(hint)")
            }
            return members
        }

        func string(_ value: JSONValue?, _ path: String, required: Bool = true) throws(CatalogError) -> String? {
            guard let value else {
                if required { throw fail(path, "missing; add it") }
                return nil
            }
            guard let s = value.stringValue else { throw fail(path, "expected a string, found \(value.kindName)") }
            if required && s.allSatisfy(\.isWhitespace) { throw fail(path, "must not be empty") }
            return s
        }

        func bool(_ value: JSONValue?, _ path: String) throws(CatalogError) -> Bool {
            guard let value else { return false }
            guard let b = value.boolValue else { throw fail(path, "expected true or false, found \(value.kindName)") }
            return b
        }

        mutating func catalog(_ root: JSONValue) throws(CatalogError) -> Catalog {
            _ = try object(root, "", allowed: ["format", "version", "products", "settings", "subscriptionOfferKeys"])
            if let format = root["format"] {
                guard format.stringValue == CatalogJSONFormat.formatName else {
                    throw fail("format", "expected \"\(CatalogJSONFormat.formatName)\"")
                }
            }
            if let version = root["version"] {
                guard let v = version.int64Value else { throw fail("version", "expected an integer") }
                guard v <= CatalogJSONFormat.version else {
                    throw fail(
                        "version",
                        "catalog format \(v) is newer than this iapctl reads (\(CatalogJSONFormat.version)); upgrade iapctl")
                }
            }
            var settings: [CatalogSetting] = []
            if let s = root["settings"] {
                guard let pairs = s.objectValue else { throw fail("settings", "expected an object of setting names to values") }
                for pair in pairs {
                    switch pair.value {
                    case .string(let text): settings.append(CatalogSetting(pair.key, text))
                    case .bool(let b): settings.append(CatalogSetting(pair.key, b ? "true" : "false"))
                    case .number(let n): settings.append(CatalogSetting(pair.key, n))
                    // A setting given more than once (several `fault`s): an array of strings.
                    case .array(let items) where !items.isEmpty && items.allSatisfy({ $0.stringValue != nil }):
                        for item in items { settings.append(CatalogSetting(pair.key, item.stringValue!)) }
                    default: throw fail("settings.\(pair.key)", "expected a string, number, boolean or array of strings")
                    }
                }
            }
            guard let list = root["products"] else { throw fail("products", "missing; a catalog lists its products") }
            guard let items = list.arrayValue else { throw fail("products", "expected an array, found \(list.kindName)") }
            // An empty list is a catalog that sells nothing: what an empty Xcode file (which
            // Xcode opens) converts to, so `catalog convert` output always reads back.
            var products: [Product] = []
            var seen: Set<ProductID> = []
            for (i, item) in items.enumerated() {
                product = item["productIdentifier"]?.stringValue
                let parsed = try self.product(item, "products[\(i)]")
                guard seen.insert(parsed.id).inserted else {
                    throw fail("products[\(i)].productIdentifier", "duplicate product identifier; each product must appear once")
                }
                products.append(parsed)
            }
            product = nil
            try checkGroupOfferIDs(products)
            return Catalog(products: products, settings: settings, offerKeys: try offerKeys(root["subscriptionOfferKeys"]))
        }

        static let productKeys = [
            "productIdentifier", "type", "referenceName", "familyShareable", "localizations", "prices",
            "subscriptionPeriod", "subscriptionGroup", "groupLevel", "introductoryOffer", "hostedContent", "selfHosted",
            "anyStorefront", "introductoryOffers", "promotionalOffers", "offerCodes", "winBackOffers", "billingPlans",
        ]

        func product(_ item: JSONValue, _ path: String) throws(CatalogError) -> Product {
            _ = try object(item, path, allowed: Reader.productKeys)
            let id = try string(item["productIdentifier"], "\(path).productIdentifier")!
            guard id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw fail("\(path).productIdentifier", "'\(id)' must be printable ASCII without spaces")
            }
            let typeText = try string(item["type"], "\(path).type")!
            guard let type = ProductType(rawValue: typeText) else {
                let names = ProductType.allCases.map(\.rawValue)
                let hint =
                    Suggestions.nearest(to: typeText, among: names).map { "did you mean '\($0)'?" }
                    ?? "use one of \(names.joined(separator: ", "))"
                throw fail("\(path).type", "unknown type '\(typeText)'; \(hint)")
            }
            let referenceName = try string(item["referenceName"], "\(path).referenceName", required: false) ?? id
            let localizations = try self.localizations(item["localizations"], "\(path).localizations")
            // Xcode's rule (a converted .storekit file): one price, sold in every storefront in
            // that storefront's currency, rounded to its minor units.
            let anyStorefront = try bool(item["anyStorefront"], "\(path).anyStorefront")
            let prices = try self.prices(item["prices"], "\(path).prices", required: true, rounded: anyStorefront)
            if anyStorefront && prices.count != 1 {
                throw fail(
                    "\(path).prices",
                    "a product with anyStorefront has one price, sold in every storefront; keep one or remove anyStorefront")
            }
            var period: SubscriptionPeriod?
            if let p = try string(item["subscriptionPeriod"], "\(path).subscriptionPeriod", required: false) {
                guard let parsed = SubscriptionPeriod(iso8601: p) else {
                    throw fail("\(path).subscriptionPeriod", "'\(p)' is not a period; write P1W, P1M, P3M, P6M or P1Y")
                }
                period = parsed
            }
            if type.isSubscription && period == nil {
                throw fail("\(path).subscriptionPeriod", "missing; a \(type.rawValue) subscription needs a period such as P1M")
            }
            if !type.isSubscription && period != nil {
                throw fail("\(path).subscriptionPeriod", "only subscriptions have a period; remove it or change the type")
            }
            let group = try string(item["subscriptionGroup"], "\(path).subscriptionGroup", required: false)
            var level: Int?
            if let l = item["groupLevel"] {
                guard let v = l.int64Value, v >= 1, v <= 100 else {
                    throw fail("\(path).groupLevel", "expected an integer from 1 (highest) to 100")
                }
                level = Int(v)
            }
            if type == .autoRenewable && group == nil {
                throw fail("\(path).subscriptionGroup", "missing; an auto-renewable subscription belongs to a group")
            }
            if type != .autoRenewable && (group != nil || level != nil) {
                throw fail("\(path).subscriptionGroup", "only auto-renewable subscriptions belong to a group")
            }
            let offers = try self.offers(item, path, type: type, period: period, anyStorefront: anyStorefront)
            var content: [HostedContent] = []
            if let h = item["hostedContent"] {
                guard let entries = h.arrayValue else { throw fail("\(path).hostedContent", "expected an array") }
                var ids: Set<String> = []
                for (j, entry) in entries.enumerated() {
                    let p = "\(path).hostedContent[\(j)]"
                    _ = try object(entry, p, allowed: ["contentIdentifier", "version", "path"])
                    let cid = try string(entry["contentIdentifier"], "\(p).contentIdentifier")!
                    guard ids.insert(cid).inserted else {
                        throw fail("\(p).contentIdentifier", "duplicate content identifier '\(cid)'")
                    }
                    guard !cid.contains("/"), cid != ".", cid != ".." else {
                        throw fail("\(p).contentIdentifier", "'\(cid)' must not contain '/'")
                    }
                    let version = try string(entry["version"], "\(p).version")!
                    let file = try string(entry["path"], "\(p).path")!
                    guard !file.hasPrefix("/"), !file.split(separator: "/").contains("..") else {
                        throw fail("\(p).path", "'\(file)' must be relative to the catalog, without '..'")
                    }
                    content.append(HostedContent(contentIdentifier: cid, version: version, path: file))
                }
            }
            return Product(
                id: ProductID(id), type: type, referenceName: referenceName, localizations: localizations, prices: prices,
                subscriptionPeriod: period, subscriptionGroup: group, groupLevel: type == .autoRenewable ? (level ?? 1) : nil,
                introductoryOffer: offers.introductory, hostedContent: content,
                selfHosted: try bool(item["selfHosted"], "\(path).selfHosted"),
                familyShareable: try bool(item["familyShareable"], "\(path).familyShareable"), anyStorefront: anyStorefront,
                offers: offers.others)
        }

        func localizations(_ value: JSONValue?, _ path: String) throws(CatalogError) -> [Product.Localization] {
            guard let value else { throw fail(path, "missing; add at least an en_US title and description") }
            guard let members = value.objectValue, !members.isEmpty else {
                throw fail(path, "expected an object of locales, such as {\"en_US\": {\"title\": ..., \"description\": ...}}")
            }
            var result: [Product.Localization] = []
            for member in members {
                let p = "\(path).\(member.key)"
                if let problem = LocaleIdentifier.problem(member.key) { throw fail(p, problem) }
                _ = try object(member.value, p, allowed: ["title", "description"])
                let title = try string(member.value["title"], "\(p).title")!
                let description = try string(member.value["description"], "\(p).description", required: false) ?? ""
                result.append(.init(locale: member.key, title: title, description: description))
            }
            return result
        }

        /// Prices by storefront; `rounded` (anyStorefront) lets a price be finer than its
        /// currency, since it is rounded in each storefront it is sold in.
        func prices(_ value: JSONValue?, _ path: String, required: Bool, rounded: Bool = false) throws(CatalogError)
            -> [Product.StorefrontPrice]
        {
            guard let value else {
                if required {
                    throw fail(path, "missing; price the product in at least one storefront, e.g. {\"USA\": \"0.99\"}")
                }
                return []
            }
            guard let members = value.objectValue, !members.isEmpty else {
                throw fail(path, "expected an object of storefronts to prices, e.g. {\"USA\": \"0.99\"}")
            }
            var result: [Product.StorefrontPrice] = []
            for member in members {
                let p = "\(path).\(member.key)"
                guard let storefront = Storefront.named(member.key), storefront.code == member.key else {
                    throw fail(
                        p, "unknown storefront '\(member.key)'; \(Storefront.unknownCodeHint(member.key))")
                }
                let text: String
                switch member.value {
                case .string(let s): text = s
                case .number(let n): text = n
                default: throw fail(p, "expected a decimal price such as \"0.99\", found \(member.value.kindName)")
                }
                guard let price = Price(decimal: text) else {
                    throw fail(p, "bad price '\(text)'; write a non-negative decimal such as \"0.99\"")
                }
                guard rounded || price.fits(fractionDigits: storefront.fractionDigits) else {
                    throw fail(p, "bad price '\(text)'; \(storefront.currency) has \(storefront.fractionDigits) decimal digits")
                }
                result.append(.init(storefront: storefront.code, price: price))
            }
            return result
        }

    }
}
