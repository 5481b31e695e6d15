import IAPKit
import IAPRuntime

/// `iapctl catalog show [FILE]` and `iapctl catalog convert FILE`: read catalogs in either
/// format (the project's JSON, Xcode `.storekit` versions 1 to 5) and write the project's JSON.
enum CatalogCommand {
    static let group = CommandSpec(
        name: "catalog",
        summary: "Show the store's catalog, or convert a catalog file (.storekit or JSON) to iapctl's format",
        subcommands: [show.spec, convert.spec]
    )

    static let children = [show, convert]

    static let show = CommandDefinition(
        CommandSpec(
            name: "show",
            summary: "Print a catalog: the store's, or the one FILE holds",
            discussion:
                "Text lists every product with its prices per storefront, period, group level, introductory offer and hosted content; --json prints the catalog in iapctl's format (docs/catalog.md).",
            arguments: [
                ArgumentSpec("FILE", help: "A catalog file (.json or .storekit); default: the store's catalog", optional: true)
            ],
            examples: ["iapctl catalog show", "iapctl catalog show Fixtures/Example.storekit --json"]
        ), run: runShow)

    static let convert = CommandDefinition(
        CommandSpec(
            name: "convert",
            summary: "Write a catalog file (.storekit or JSON) in iapctl's JSON format",
            discussion:
                "What the file holds that iapctl reads but does not simulate (ad hoc and code offers, for instance) is listed on stderr as notes.",
            arguments: [ArgumentSpec("FILE", help: "The catalog file to convert")],
            options: [.value("output", "file", help: "Write to this file instead of stdout")],
            examples: ["iapctl catalog convert Example.storekit --output catalog.json"]
        ), run: runConvert)

    /// Reads a catalog file, exit 66 when unreadable and 65 when malformed; with its import
    /// notes and warnings (a `.storekit` file's; iapctl's own format has none).
    static func load(_ path: String) throws -> (Catalog, notes: [String], warnings: [String]) {
        guard let bytes = FileIO.read(path) else {
            throw StoreError.unreadable(path: path, reason: "no such file (give a catalog .json or .storekit file)")
        }
        do {
            switch try CatalogLoader.format(of: bytes, file: path) {
            case .storeKit:
                let result = try StoreKitConfigurationFormat.readImport(bytes, file: path)
                return (result.catalog, result.notes, result.warnings)
            case .iapctl:
                return (try CatalogJSONFormat.read(bytes, file: path), [], [])
            }
        } catch {
            throw StoreError.badCatalog(error)
        }
    }

    static func runShow(_ c: CommandContext) throws -> ExitCode {
        let catalog: Catalog
        let name: String
        if let file = c.invocation.positional("FILE") {
            let loaded = try load(file)
            report(loaded.notes, loaded.warnings, c)
            catalog = loaded.0
            name = file
        } else {
            (catalog, name) = try c.read { s throws(StoreError) in (s.catalog, s.catalogName) }
        }
        if c.json {
            c.stdout.write(CatalogJSONFormat.write(catalog))
            return .success
        }
        c.stdout.line("catalog \(name): \(catalog.products.count) products")
        var table = TextTable(["PRODUCT", "TYPE", "PRICES", "PERIOD", "GROUP", "OFFER", "CONTENT"])
        for p in catalog.products {
            var prices = p.prices.map { sp in
                (Storefront.named(sp.storefront).map { "\(sp.storefront) \($0.localizedPrice(sp.price))" }) ?? sp.storefront
            }.joined(separator: ", ")
            // Xcode's rule: the one price is sold everywhere, in each storefront's currency.
            if p.anyStorefront { prices += " (every storefront)" }
            let group = p.subscriptionGroup.map { "\($0) level \(p.groupLevel ?? 1)" } ?? "-"
            let offer = p.introductoryOffer.map { "\($0.paymentMode.rawValue) \($0.numberOfPeriods)x\($0.period.iso8601)" } ?? "-"
            let content =
                p.hostedContent.isEmpty
                ? (p.selfHosted ? "self-hosted" : "-") : p.hostedContent.map(\.contentIdentifier).joined(separator: ", ")
            table.add([p.id.rawValue, p.type.rawValue, prices, p.subscriptionPeriod?.iso8601 ?? "-", group, offer, content])
        }
        c.stdout.write(table.rendered)
        if !catalog.settings.isEmpty {
            c.stdout.line("settings: " + catalog.settings.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
        }
        return .success
    }

    static func runConvert(_ c: CommandContext) throws -> ExitCode {
        let file = c.invocation.positional("FILE") ?? ""
        let (catalog, notes, warnings) = try load(file)
        report(notes, warnings, c)
        let bytes = CatalogJSONFormat.write(catalog)
        if let output = c.invocation.value("output") {
            try OutputFile.write(bytes, to: output)
            if !c.json { c.stdout.line("wrote \(output): \(catalog.products.count) products") }
        } else {
            c.stdout.write(bytes)
        }
        return .success
    }
}

extension CatalogCommand {
    /// Prints what reading a catalog file found: warnings first, then notes, on stderr, so
    /// that stdout stays the catalog (or the command's own output).
    static func report(_ notes: [String], _ warnings: [String], _ c: CommandContext) {
        for warning in warnings { c.warn(warning) }
        for note in notes { c.stderr.message("note: \(note)") }
    }
}
