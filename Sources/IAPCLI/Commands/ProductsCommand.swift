import IAPKit

/// `iapctl products [ID...]`: an `SKProductsRequest`.
enum ProductsCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "products",
            summary: "Fetch products: localized titles, prices, periods, and invalid ids",
            discussion:
                "Without ids, the whole catalog. Ids the catalog lacks, or that are not sold in the storefront, are listed as invalidProductIdentifiers, as SKProductsResponse does. An armed products fault ('iapctl fault add products ERROR') fails the request instead: productsRequestFailed, exit 1.",
            arguments: [ArgumentSpec("ID", help: "Product identifiers to fetch", optional: true, variadic: true)],
            options: [
                .value("storefront", "code", help: "Show prices of this storefront instead of the store's"),
                .value("locale", "locale", help: "Show titles in this locale (en_US, zh_CN, ...)"),
            ],
            examples: ["iapctl products", "iapctl products com.x.coin42 com.x.nope --storefront JPN --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let ids = i.positionals("ID").map(ProductID.init)
        guard !ids.contains(where: \.rawValue.isEmpty) else {
            throw i.usageError("empty product identifier; give one such as com.x.coin42")
        }
        var storefrontOverride: Storefront?
        if let code = i.value("storefront") {
            guard let s = Storefront.named(code) else {
                throw i.usageError(
                    "unknown storefront '\(code)'; \(Storefront.unknownCodeHint(code))")
            }
            storefrontOverride = s
        }
        let localeOverride = i.value("locale")
        if let locale = localeOverride, let problem = LocaleIdentifier.problem(locale) {
            throw i.usageError("bad --locale: \(problem)")
        }
        return try c.write { s throws(StoreError) in
            // Another storefront is a what-if view: prices are shown there, the store's setting
            // stays as it is.
            let (valid, invalid) = s.machine.productsRequest(ids, storefront: storefrontOverride?.code)
            let effects = try s.apply(.requestProducts(ids))
            if case .productsRequest(let error?) = effects.outcome {
                c.stderr.message("error: the products request failed: \(error) (an armed fault; see 'iapctl fault list')")
                return ExitCode(effects.outcome)
            }
            let storefront = storefrontOverride ?? Storefront.named(s.state.settings.storefront) ?? .usa
            let locale = localeOverride ?? (storefrontOverride?.defaultLocale ?? s.state.settings.effectiveLocale)
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("products")
                    w.beginArray()
                    for p in valid {
                        ProductJSON.write(
                            p, storefront: storefront, locale: locale,
                            isEligibleForIntroOffer: s.machine.isEligibleForIntroOffer(p), into: &w)
                    }
                    w.endArray()
                    w.key("invalidProductIdentifiers")
                    w.beginArray()
                    for id in invalid { w.string(id.rawValue) }
                    w.endArray()
                    w.endObject()
                }
            } else {
                var table = TextTable(["PRODUCT", "TYPE", "PRICE", "PERIOD", "TITLE"])
                for p in valid {
                    table.add([
                        p.id.rawValue, p.type.rawValue, storefront.localizedPrice(p.price(in: storefront.code) ?? .zero),
                        p.subscriptionPeriod?.iso8601 ?? "-", p.localization(for: locale).title,
                    ])
                }
                if !valid.isEmpty { c.stdout.write(table.rendered) }
                var offers = TextTable(["PRODUCT", "OFFER", "ID", "TERMS", "PRICE", "NOTE"])
                for p in valid {
                    for row in OfferText.rows(p, storefront: storefront, eligible: s.machine.isEligibleForIntroOffer(p)) {
                        offers.add(row)
                    }
                }
                if !offers.rows.isEmpty {
                    c.stdout.line("")
                    c.stdout.write(offers.rendered)
                }
                if !invalid.isEmpty {
                    c.stdout.line("invalid product identifiers: \(invalid.map(\.rawValue).joined(separator: ", "))")
                }
            }
            return .success
        }
    }
}
