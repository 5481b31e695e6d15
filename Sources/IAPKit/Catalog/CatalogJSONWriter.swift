import IAPCrypto
import IAPJSON

extension CatalogJSONFormat {
    /// Writes a catalog in the project's format (`docs/catalog.md`): what `iapctl catalog convert`
    /// prints, so an Xcode `.storekit` file can become an iapctl catalog to edit and extend.
    ///
    /// The output is pretty-printed with two-space indents, keys in the documented order, prices
    /// as decimal strings with the storefront currency's digits (`"0.99"`, `"6.00"`, `"120"`), and
    /// defaults left out (`familyShareable`, `selfHosted` when false), so `Fixtures/catalog.json`
    /// reads and writes back byte for byte, and `read(write(c))` gives back the same products and
    /// settings. A setting that appears more than once (several `fault`s) is written once, as an
    /// array of its values.
    public static func write(_ catalog: Catalog) -> [UInt8] {
        var root: [(key: String, value: JSONValue)] = [
            ("format", .string(formatName)),
            ("version", .number(String(version))),
        ]
        if !catalog.settings.isEmpty { root.append(("settings", settings(catalog.settings))) }
        if !catalog.offerKeys.isEmpty {
            root.append(
                (
                    "subscriptionOfferKeys",
                    .array(
                        catalog.offerKeys.map {
                            .object([("keyIdentifier", .string($0.id)), ("publicKey", .string($0.publicKey.pemRepresentation))])
                        })
                ))
        }
        root.append(("products", .array(catalog.products.map(product))))
        var printer = PrettyPrinter()
        printer.write(.object(root), indent: 0)
        printer.bytes.append(UInt8(ascii: "\n"))
        return printer.bytes
    }

    private static func settings(_ pairs: [CatalogSetting]) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        for pair in pairs {
            if let i = members.firstIndex(where: { $0.key == pair.key }) {
                switch members[i].value {
                case .array(let values): members[i].value = .array(values + [.string(pair.value)])
                default: members[i].value = .array([members[i].value, .string(pair.value)])
                }
            } else {
                members.append((pair.key, .string(pair.value)))
            }
        }
        return .object(members)
    }

    private static func product(_ product: Product) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("productIdentifier", .string(product.id.rawValue)),
            ("type", .string(product.type.rawValue)),
            ("referenceName", .string(product.referenceName)),
        ]
        if product.familyShareable { members.append(("familyShareable", .bool(true))) }
        members.append(
            (
                "localizations",
                .object(
                    product.localizations.map {
                        ($0.locale, .object([("title", .string($0.title)), ("description", .string($0.description))]))
                    })
            ))
        if product.anyStorefront { members.append(("anyStorefront", .bool(true))) }
        members.append(("prices", prices(product.prices)))
        if let period = product.subscriptionPeriod { members.append(("subscriptionPeriod", .string(period.iso8601))) }
        if let group = product.subscriptionGroup { members.append(("subscriptionGroup", .string(group))) }
        if let level = product.groupLevel { members.append(("groupLevel", .number(String(level)))) }
        let offers = product.offers
        if let monthly = offers.monthlyIntroductoryOffer {
            members.append(
                ("introductoryOffers", .array(((product.introductoryOffer.map { [$0] } ?? []) + [monthly]).map(terms))))
        } else if let offer = product.introductoryOffer {
            members.append(("introductoryOffer", terms(offer)))
        }
        if !offers.billingPlans.isEmpty {
            members.append(
                (
                    "billingPlans",
                    .array(
                        offers.billingPlans.map { .object([("type", .string($0.type.rawValue)), ("prices", prices($0.prices))]) })
                ))
        }
        if !offers.promotional.isEmpty {
            members.append(
                (
                    "promotionalOffers",
                    .array(
                        offers.promotional.map { offer in
                            .object(
                                [
                                    ("offerIdentifier", .string(offer.id.rawValue)),
                                    ("referenceName", .string(offer.referenceName)),
                                ]
                                    + termMembers(offer.terms))
                        })
                ))
        }
        if !offers.codes.isEmpty {
            members.append(
                (
                    "offerCodes",
                    .array(
                        offers.codes.map { code in
                            var m: [(key: String, value: JSONValue)] = [("referenceName", .string(code.referenceName))]
                            switch code.discount {
                            case .subscription(let t):
                                m.append(("eligibility", .array(code.eligibility.map { .string($0.rawValue) })))
                                m += termMembers(t)
                            case .oneTime(let p, _):
                                m.append(("prices", prices(p)))
                            }
                            return .object(m)
                        })
                ))
        }
        if !offers.winBack.isEmpty {
            members.append(("winBackOffers", .array(offers.winBack.map(winBack))))
        }
        if !product.hostedContent.isEmpty {
            members.append(
                (
                    "hostedContent",
                    .array(
                        product.hostedContent.map {
                            .object([
                                ("contentIdentifier", .string($0.contentIdentifier)),
                                ("version", .string($0.version)),
                                ("path", .string($0.path)),
                            ])
                        })
                ))
        }
        if product.selfHosted { members.append(("selfHosted", .bool(true))) }
        return .object(members)
    }

    private static func terms(_ offer: OfferTerms) -> JSONValue { .object(termMembers(offer)) }

    private static func termMembers(_ offer: OfferTerms) -> [(key: String, value: JSONValue)] {
        var o: [(key: String, value: JSONValue)] = [
            ("paymentMode", .string(offer.paymentMode.rawValue)),
            ("period", .string(offer.period.iso8601)),
            ("numberOfPeriods", .number(String(offer.numberOfPeriods))),
        ]
        if !offer.prices.isEmpty { o.append(("prices", prices(offer.prices))) }
        if offer.billingPlan != .upFront { o.append(("billingPlan", .string(offer.billingPlan.rawValue))) }
        return o
    }

    private static func winBack(_ offer: WinBackOffer) -> JSONValue {
        var m: [(key: String, value: JSONValue)] = [
            ("offerIdentifier", .string(offer.id.rawValue)), ("referenceName", .string(offer.referenceName)),
        ]
        m += termMembers(offer.terms)
        switch offer.eligibility {
        case .whenChurned(let flag):
            m.append(("eligibility", .bool(flag)))
        case .rules(let paid, let since, let wait):
            var rules: [(key: String, value: JSONValue)] = [
                ("paidSubscriptionDurationInMonths", .number(String(paid))),
                (
                    "timeSinceLastSubscribedInMonths",
                    .object([("minimum", .number(String(since.lowerBound))), ("maximum", .number(String(since.upperBound)))])
                ),
            ]
            if let wait { rules.append(("waitBetweenOffersInMonths", .number(String(wait)))) }
            m.append(("eligibility", .object(rules)))
        }
        if offer.priority != .normal { m.append(("priority", .string(offer.priority.rawValue))) }
        if let start = offer.startDate { m.append(("startDate", .string(String(start.rfc3339.prefix(10))))) }
        if let end = offer.endDate { m.append(("endDate", .string(String(end.rfc3339.prefix(10))))) }
        return .object(m)
    }

    private static func prices(_ prices: [Product.StorefrontPrice]) -> JSONValue {
        .object(
            prices.map { entry in
                // A price finer than its currency (an anyStorefront price) keeps every digit.
                let digits = Storefront.named(entry.storefront)?.fractionDigits ?? 3
                let exact = entry.price.fits(fractionDigits: digits) ? digits : 3
                return (entry.storefront, .string(entry.price.decimalString(fractionDigits: exact)))
            })
    }

    /// Indented JSON: one member or element a line, `"key": value`, empty containers as `{}`
    /// and `[]`. Strings are escaped by `JSONWriter`, so both writers agree on escapes.
    private struct PrettyPrinter {
        var bytes: [UInt8] = []

        mutating func write(_ value: JSONValue, indent: Int) {
            switch value {
            case .object(let members):
                guard !members.isEmpty else { return bytes.append(contentsOf: Array("{}".utf8)) }
                bytes.append(UInt8(ascii: "{"))
                for (i, member) in members.enumerated() {
                    bytes.append(contentsOf: Array((i == 0 ? "\n" : ",\n").utf8))
                    pad(indent + 1)
                    string(member.key)
                    bytes.append(contentsOf: Array(": ".utf8))
                    write(member.value, indent: indent + 1)
                }
                bytes.append(UInt8(ascii: "\n"))
                pad(indent)
                bytes.append(UInt8(ascii: "}"))
            case .array(let items):
                guard !items.isEmpty else { return bytes.append(contentsOf: Array("[]".utf8)) }
                bytes.append(UInt8(ascii: "["))
                for (i, item) in items.enumerated() {
                    bytes.append(contentsOf: Array((i == 0 ? "\n" : ",\n").utf8))
                    pad(indent + 1)
                    write(item, indent: indent + 1)
                }
                bytes.append(UInt8(ascii: "\n"))
                pad(indent)
                bytes.append(UInt8(ascii: "]"))
            case .string(let text):
                string(text)
            case .null, .bool, .number:
                var writer = JSONWriter()
                writer.value(value)
                bytes.append(contentsOf: writer.bytes)
            }
        }

        mutating func string(_ text: String) {
            var writer = JSONWriter()
            writer.string(text)
            bytes.append(contentsOf: writer.bytes)
        }

        mutating func pad(_ level: Int) {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
        }
    }
}
