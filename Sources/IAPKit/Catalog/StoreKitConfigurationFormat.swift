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
        /// One line per thing read but not applied (an offer that cannot apply, such as one of a
        /// billing plan the product does not offer; an enabled error on an API without an iapctl
        /// fault point; a key iapctl does not know)
        /// and per value Xcode's editor left blank that iapctl filled in, naming the product and
        /// the value used; `iapctl init` and `iapctl catalog` print them.
        public let notes: [String]
        /// Lines that ask the user to check the result: a format newer than iapctl knows, read
        /// with the newest rules iapctl has.
        public let warnings: [String]
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

    /// The keys Xcode writes at each level of a `.storekit` file (Xcode 12 to 26, formats 1 to 5).
    /// Every other key is named in a note, so that nothing a newer Xcode adds is dropped unseen.
    enum KnownKeys {
        static let document: Set<String> = [
            "identifier", "nonRenewingSubscriptions", "products", "settings", "subscriptionGroups", "version",
            "appPolicies", "subscriptionOffersKeyPair", "subscriptionBundleGroups",
        ]
        static let product: Set<String> = [
            "displayPrice", "familyShareable", "internalID", "localizations", "productID", "referenceName", "type",
            "promotionalImageID", "codeOffers",
        ]
        static let nonRenewing: Set<String> = product.union(["subscriptionPeriod", "recurringSubscriptionPeriod"])
        static let subscription: Set<String> = product.union([
            "subscriptionGroupID", "groupNumber", "recurringSubscriptionPeriod", "introductoryOffer", "introductoryOffers",
            "adHocOffers", "codeOffers", "winbackOffers", "billingPlans",
        ])
        static let localization: Set<String> = ["locale", "displayName", "description"]
        static let group: Set<String> = ["id", "name", "localizations", "subscriptions"]
        static let offer: Set<String> = [
            "paymentMode", "subscriptionPeriod", "numberOfPeriods", "displayPrice", "internalID", "billingPlanType",
            "offerID", "referenceName", "eligibility", "isStackable",
        ]
        static let billingPlan: Set<String> = [
            "billingPlanType", "displayPrice", "commitmentDisplayPrice", "internalID", "isEnabled",
        ]
        static let settings: Set<String> = [
            "_locale", "_storefront", "_askToBuyEnabled", "_failTransactionsEnabled", "_billingIssuesEnabled",
            "_renewalBillingIssuesEnabled", "_billingGracePeriodEnabled", "_storeKitError", "_storeKitErrors", "_timeRate",
            "_compatibilityTimeRate", "_disableDialogs", "_applicationInternalID", "_developerTeamID",
            "_lastSynchronizedDate",
        ]
        static let version: Set<String> = ["major", "minor"]
        static let storeKitError: Set<String> = ["name", "enabled", "current"]
    }

    struct Reader {
        let file: String
        var product: String?
        var notes: [String] = []
        var warnings: [String] = []
        var storefront = Storefront.usa
        /// The locale of `settings._locale`, for a localization Xcode left without one.
        var fileLocale = "en_US"
        var seen: Set<String> = []
        var products: [Product] = []
        /// The `subscriptionOffersKeyPair`, when it holds a usable key.
        var offerKeys: [SubscriptionOfferKey] = []
        /// Unknown keys by name, in the order first met: the path of the first and how many.
        var unknownKeys: [(key: String, firstPath: String, count: Int)] = []

        init(file: String) { self.file = file }

        func fail(_ path: String, _ problem: String) -> CatalogError {
            CatalogError(file: file, product: product, keyPath: path, problem: problem)
        }

        /// A note about the product being read: `<path>: product '<id>' ...`.
        mutating func note(_ path: String, _ text: String) {
            notes.append("\(path): \(text)")
        }

        /// Records every key of `value` that Xcode does not write at this level.
        mutating func checkKeys(_ value: JSONValue, _ path: String, known: Set<String>) {
            for member in value.objectValue ?? [] where !known.contains(member.key) {
                let at = path.isEmpty ? member.key : "\(path).\(member.key)"
                if let i = unknownKeys.firstIndex(where: { $0.key == member.key }) {
                    unknownKeys[i].count += 1
                } else {
                    unknownKeys.append((member.key, at, 1))
                }
            }
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

        /// A string that may be blank in Xcode's editor: nil when missing, empty or whitespace.
        func text(_ value: JSONValue?, _ path: String) throws(CatalogError) -> String? {
            try string(value, path).flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
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

        /// A price, the one Xcode shows in every storefront. Xcode's editor may leave it blank
        /// (a product synced from App Store Connect before it has a price): that reads as 0 with
        /// a note. More decimals than the file's currency has are kept, since the price is shown
        /// in every storefront's currency and rounded there, with a note.
        mutating func price(_ value: JSONValue?, _ path: String, what: String) throws(CatalogError) -> Price {
            let text: String
            switch value {
            case .string(let s)? where s.allSatisfy(\.isWhitespace):
                note(path, "\(what) has a blank price; using 0")
                return .zero
            case .string(let s)?: text = String(s.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            case .number(let n)?: text = n
            case nil, .null?:
                note(path, "\(what) has no price; using 0")
                return .zero
            case let other?: throw fail(path, "expected a decimal price such as \"0.99\", found \(other.kindName)")
            }
            guard let price = Price(decimal: text) else {
                throw fail(path, "bad price '\(text)'; write a non-negative decimal such as \"0.99\"")
            }
            if !price.fits(fractionDigits: storefront.fractionDigits) {
                note(
                    path,
                    "\(what) costs \(text), finer than \(storefront.currency) (storefront \(storefront.code)) has; shown as \(storefront.localizedPrice(price)) there, as Xcode rounds it"
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
            checkKeys(root, "", known: KnownKeys.document)
            var major: Int64 = 1
            var minor: Int64 = 0
            if let version = root["version"], version != .null {
                _ = try object(version, "version")
                checkKeys(version, "version", known: KnownKeys.version)
                guard let m = version["major"]?.int64Value else {
                    throw fail("version.major", "expected an integer such as 3 (Xcode writes {\"major\": 3, \"minor\": 0})")
                }
                guard m >= 1 else {
                    throw fail("version.major", "expected 1 to \(StoreKitConfigurationFormat.newestMajorVersion), found \(m)")
                }
                if m > StoreKitConfigurationFormat.newestMajorVersion {
                    // Xcode's formats have only added keys so far; read the file with the newest
                    // rules iapctl has, and say so, rather than refuse a file Xcode opens.
                    warnings.append(
                        "version.major: StoreKit configuration format \(m) is newer than iapctl knows (1 to \(StoreKitConfigurationFormat.newestMajorVersion)); read with the format \(StoreKitConfigurationFormat.newestMajorVersion) rules, check the catalog and the notes"
                    )
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
                checkKeys(groupValue, path, known: KnownKeys.group)
                let id = try string(groupValue["id"], "\(path).id")
                let groupName: String
                if let name = try text(groupValue["name"], "\(path).name") {
                    groupName = name
                } else if let id, !id.isEmpty {
                    groupName = id
                    note("\(path).name", "subscription group '\(id)' has no name; using its id")
                } else {
                    groupName = "group \(g + 1)"
                    note("\(path).name", "a subscription group has no name or id; calling it '\(groupName)'")
                }
                guard groupNames.insert(groupName).inserted else {
                    throw fail("\(path).name", "duplicate subscription group '\(groupName)'; give each group its own name")
                }
                let groupLocalizations = try array(groupValue["localizations"], "\(path).localizations")
                if !groupLocalizations.isEmpty {
                    note(
                        "\(path).localizations",
                        "\(groupLocalizations.count) localization(s) of group '\(groupName)' read but not shown (StoreKit 1 has no group names)"
                    )
                }
                let group = Group(id: id, name: groupName)
                for (s, item) in try array(groupValue["subscriptions"], "\(path).subscriptions").enumerated() {
                    try add(item, "\(path).subscriptions[\(s)]", section: .subscriptions, group: group)
                }
            }
            product = nil
            try documentExtras(root)
            if products.isEmpty {
                note("products", "the file has no products (Xcode opens it empty); the catalog sells nothing until you add some")
            }
            for unknown in unknownKeys {
                let places = unknown.count == 1 ? "" : " (and \(unknown.count - 1) more place(s))"
                notes.append("\(unknown.firstPath): key '\(unknown.key)' is not one iapctl knows\(places); ignored")
            }
            return Import(
                catalog: Catalog(products: products, settings: settings, offerKeys: offerKeys), majorVersion: major,
                minorVersion: minor,
                notes: notes, warnings: warnings)
        }

        /// Top-level keys iapctl reads but does not apply: named in notes when they hold anything.
        mutating func documentExtras(_ root: JSONValue) throws(CatalogError) {
            if let policies = root["appPolicies"], policies != .null {
                _ = try object(policies, "appPolicies")
                let eula = try text(policies["eula"], "appPolicies.eula")
                let entries = try array(policies["policies"], "appPolicies.policies").filter { entry in
                    [entry["policyText"], entry["policyURL"]].contains { $0?.stringValue.map { !$0.isEmpty } ?? false }
                }
                if eula != nil || !entries.isEmpty {
                    note(
                        "appPolicies",
                        "the EULA and privacy policies (\(eula == nil ? 0 : 1) EULA, \(entries.count) policy text(s)) are read but not shown; iapctl shows no purchase sheet"
                    )
                }
            }
            if let keyPair = root["subscriptionOffersKeyPair"], keyPair != .null {
                _ = try object(keyPair, "subscriptionOffersKeyPair")
                try offerKey(keyPair)
            }
            let bundles = try array(root["subscriptionBundleGroups"], "subscriptionBundleGroups")
            if !bundles.isEmpty {
                note("subscriptionBundleGroups", "\(bundles.count) subscription bundle group(s) read but not simulated")
            }
        }

        // MARK: Settings

        mutating func settings(_ value: JSONValue?) throws(CatalogError) -> [CatalogSetting] {
            guard let value, value != .null else { return [] }
            _ = try object(value, "settings")
            checkKeys(value, "settings", known: KnownKeys.settings)
            var result: [CatalogSetting] = []
            if let locale = try string(value["_locale"], "settings._locale") {
                if let problem = LocaleIdentifier.problem(locale) { throw fail("settings._locale", problem) }
                result.append(CatalogSetting("locale", locale))
                fileLocale = locale
            }
            if let code = try string(value["_storefront"], "settings._storefront") {
                guard let known = Storefront.named(code) else {
                    throw fail("settings._storefront", "unknown storefront '\(code)'; \(Storefront.unknownCodeHint(code))")
                }
                storefront = known
                result.append(CatalogSetting("storefront", known.code))
            }
            let flags: [(xcode: String, iapctl: String)] = [
                ("_askToBuyEnabled", "ask-to-buy"),
                ("_failTransactionsEnabled", "fail-transactions"),
            ]
            for flag in flags {
                if let on = try bool(value[flag.xcode], "settings.\(flag.xcode)") {
                    result.append(CatalogSetting(flag.iapctl, on ? "true" : "false"))
                }
            }
            // Xcode 12-15 write `_billingIssuesEnabled`; Xcode 16 writes `_renewalBillingIssuesEnabled`.
            let billing = try bool(value["_billingIssuesEnabled"], "settings._billingIssuesEnabled")
            let renewalBilling = try bool(value["_renewalBillingIssuesEnabled"], "settings._renewalBillingIssuesEnabled")
            if billing != nil || renewalBilling != nil {
                result.append(
                    CatalogSetting("billing-issues", (billing ?? false) || (renewalBilling ?? false) ? "true" : "false"))
            }
            if let on = try bool(value["_billingGracePeriodEnabled"], "settings._billingGracePeriodEnabled") {
                result.append(CatalogSetting("grace-period", on ? "true" : "false"))
            }
            // Formats 1 and 2: the SKError code "Fail Transactions" fails purchases with.
            let failing = try bool(value["_failTransactionsEnabled"], "settings._failTransactionsEnabled") ?? false
            if let code = try integer(
                value["_storeKitError"], "settings._storeKitError", in: 0...Int64(StoreKitErrorMapping.skErrorNames.count - 1),
                what: "an SKError code from 0 to \(StoreKitErrorMapping.skErrorNames.count - 1)"), failing
            {
                result.append(CatalogSetting("fault", "purchase \(StoreKitErrorMapping.skErrorNames[Int(code)])"))
            }
            for (i, entry) in try array(value["_storeKitErrors"], "settings._storeKitErrors").enumerated() {
                let path = "settings._storeKitErrors[\(i)]"
                _ = try object(entry, path)
                checkKeys(entry, path, known: KnownKeys.storeKitError)
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
                result.append(CatalogSetting("fault", "\(point) \(error)"))
            }
            // Xcode's test-session clock and dialogs: iapctl's clock moves only when a command
            // moves it, and it shows no dialogs, so these are read and named, not applied.
            if let rate = value["_timeRate"], rate != .null, rate != .number("0") {
                note(
                    "settings._timeRate",
                    "Xcode's subscription time rate \(describe(rate)) is not applied; iapctl's clock moves with 'iapctl clock advance'"
                )
            }
            if let rate = value["_compatibilityTimeRate"], rate != .null {
                note(
                    "settings._compatibilityTimeRate",
                    "Xcode's time rate for older OS versions \(rate.serialized()) is not applied; iapctl's clock moves with 'iapctl clock advance'"
                )
            }
            if try bool(value["_disableDialogs"], "settings._disableDialogs") == true {
                note("settings._disableDialogs", "dialogs are disabled; iapctl never shows any, so nothing changes")
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
            switch section {
            case .products: checkKeys(item, path, known: KnownKeys.product)
            case .nonRenewing: checkKeys(item, path, known: KnownKeys.nonRenewing)
            case .subscriptions: checkKeys(item, path, known: KnownKeys.subscription)
            }
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

            let referenceName: String
            if let name = try text(item["referenceName"], "\(path).referenceName") {
                referenceName = name
            } else {
                referenceName = id
                note("\(path).referenceName", "product '\(id)' has no reference name; using its product id")
            }
            let price = try self.price(item["displayPrice"], "\(path).displayPrice", what: "product '\(id)'")
            let familyShareable = try bool(item["familyShareable"], "\(path).familyShareable") ?? false
            let localizations = try self.localizations(
                item["localizations"], "\(path).localizations", fallbackTitle: referenceName)

            var period: SubscriptionPeriod?
            var level: Int?
            var offer: IntroductoryOffer?
            var offers = ProductOffers()
            switch section {
            case .products:
                offers = try oneTimeOfferCodes(item, path)
            case .nonRenewing:
                offers = try oneTimeOfferCodes(item, path)
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
                if let p = try self.period(
                    item["recurringSubscriptionPeriod"], "\(path).recurringSubscriptionPeriod",
                    allowed: StoreKitConfigurationFormat.recurringPeriods)
                {
                    period = p
                } else {
                    period = SubscriptionPeriod(value: 1, unit: .month)
                    note(
                        "\(path).recurringSubscriptionPeriod", "subscription '\(id)' has no duration; using one month (P1M)")
                }
                if let n = try integer(
                    item["groupNumber"], "\(path).groupNumber", in: 1...100, what: "an integer from 1 (highest level) to 100")
                {
                    level = Int(n)
                } else {
                    level = 1
                    note("\(path).groupNumber", "subscription '\(id)' has no level in its group; using 1 (the highest)")
                }
                if let groupID = try string(item["subscriptionGroupID"], "\(path).subscriptionGroupID"), let expected = group?.id,
                    groupID != expected
                {
                    throw fail(
                        "\(path).subscriptionGroupID",
                        "'\(groupID)' does not match its group's id '\(expected)'; move the subscription or fix the id")
                }
                (offer, offers) = try subscriptionOffers(item, path, period: period, regularPrice: price)
            }
            products.append(
                Product(
                    id: ProductID(id), type: type, referenceName: referenceName, localizations: localizations,
                    prices: [.init(storefront: storefront.code, price: price)], subscriptionPeriod: period,
                    subscriptionGroup: group?.name, groupLevel: level, introductoryOffer: offer, familyShareable: familyShareable,
                    anyStorefront: true, offers: offers)
            )
        }

        func localizationFallbackNote(_ path: String) -> String {
            "product '\(product ?? "")' has no localizations; showing its reference name in \(fileLocale)"
        }

        mutating func localizations(_ value: JSONValue?, _ path: String, fallbackTitle: String) throws(CatalogError) -> [Product
            .Localization]
        {
            let items = try array(value, path)
            guard !items.isEmpty else {
                // A subscription synced from App Store Connect before it has a localization:
                // Xcode opens it and StoreKit shows empty text; iapctl shows the reference name.
                note(path, localizationFallbackNote(path))
                return [.init(locale: fileLocale, title: fallbackTitle, description: "")]
            }
            var result: [Product.Localization] = []
            for (i, item) in items.enumerated() {
                let p = "\(path)[\(i)]"
                _ = try object(item, p)
                checkKeys(item, p, known: KnownKeys.localization)
                let locale: String
                if let given = try text(item["locale"], "\(p).locale") {
                    if let problem = LocaleIdentifier.problem(given) { throw fail("\(p).locale", problem) }
                    locale = given
                } else {
                    locale = fileLocale
                    note("\(p).locale", "a localization of '\(product ?? "")' has no locale; using \(fileLocale)")
                }
                guard !result.contains(where: { $0.locale == locale }) else {
                    throw fail("\(p).locale", "duplicate locale '\(locale)'; each locale may appear once per product")
                }
                // Xcode lets a display name stay empty; StoreKit then shows an empty title, and
                // iapctl shows the reference name instead, so that every product has a title.
                let title: String
                if let name = try text(item["displayName"], "\(p).displayName") {
                    title = name
                } else {
                    title = fallbackTitle
                    note(
                        "\(p).displayName",
                        "product '\(product ?? "")' has no display name in \(locale); showing its reference name '\(fallbackTitle)'"
                    )
                }
                let description = try string(item["description"], "\(p).description") ?? ""
                result.append(.init(locale: locale, title: title, description: description))
            }
            return result
        }

    }
}
