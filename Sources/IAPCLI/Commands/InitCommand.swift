import IAPKit
import IAPTime

/// `iapctl init`: create a store bound to a catalog.
enum InitCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "init",
            summary: "Create a store bound to a catalog",
            discussion:
                "Without --catalog the built-in catalog is used. An existing store is only replaced with --force. A .storekit catalog is sold in every storefront, its one price shown in the storefront's currency (as in Xcode); what the file holds that iapctl does not simulate is listed on stderr as notes.",
            options: [
                .value("bundle-id", "id", help: "The app's bundle identifier (default: com.x.demo)"),
                .value("app-version", "version", help: "The app's version (default: 1.0)"),
                .value(
                    "storefront", "code",
                    help: "The storefront: any App Store storefront's ISO 3166-1 alpha-3 code, USA, CHN, JPN, ... (default: USA)"),
                .value("start-date", "date", help: "The simulated clock's start, RFC 3339 (default: 2026-01-01T00:00:00Z)"),
                .flag("force", help: "Replace an existing store (its transactions are lost)"),
                .value(
                    "signing-dir", "dir",
                    help:
                        "Sign receipts with your own chain: leaf.pem, intermediate.pem, root.pem, leaf-key.pem (default: the built-in TEST ONLY chain)"
                ),
            ],
            examples: [
                "iapctl init --catalog Fixtures/Example.storekit --storefront JPN", "iapctl --store /tmp/s init --force",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        var creation = c.creation
        if let id = i.value("bundle-id") {
            guard !id.isEmpty, id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw i.usageError("bad bundle id '\(id)'; write it like com.example.app")
            }
            creation.bundleID = id
        }
        if let v = i.value("app-version") {
            guard !v.isEmpty, v.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw i.usageError("bad app version '\(v)'; write it like 1.0")
            }
            creation.appVersion = v
        }
        if let s = i.value("storefront") {
            guard Storefront.named(s) != nil else {
                throw i.usageError("unknown storefront '\(s)'; \(Storefront.unknownCodeHint(s))")
            }
            creation.storefront = s
        }
        if let d = i.value("start-date") {
            guard let t = Timestamp(rfc3339: d) else {
                throw i.usageError("bad --start-date '\(d)'; write RFC 3339 such as 2026-01-01T00:00:00Z")
            }
            creation.start = t
        }
        if let dir = i.value("signing-dir") {
            guard !dir.isEmpty else {
                throw i.usageError(
                    "empty --signing-dir; give a folder holding leaf.pem, intermediate.pem, root.pem, leaf-key.pem")
            }
            // Validated before the store is touched: a bad chain never replaces a store.
            let identity = try SigningIdentity.load(directory: dir, at: creation.start)
            for warning in identity.warnings { c.warn(warning) }
            creation.signing = identity
        }
        try c.store.create(creation, force: i.flag("force"))
        if let file = creation.catalogFile {
            // The store keeps the file; say what of it iapctl reads but does not simulate.
            let loaded = try CatalogCommand.load(file)
            CatalogCommand.report(loaded.notes, loaded.warnings, c)
        }
        return try c.read { s throws(StoreError) in
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("store")
                    w.string(c.storePath)
                    w.key("catalog")
                    w.string(s.catalogName)
                    w.key("products")
                    w.int(s.catalog.products.count)
                    w.key("bundleId")
                    w.string(s.state.bundleID)
                    w.key("appVersion")
                    w.string(s.state.appVersion)
                    w.key("storefront")
                    w.string(s.state.settings.storefront)
                    w.key("clock")
                    w.string(s.state.clock.rfc3339)
                    w.key("clockTimestamp")
                    w.int(s.state.clock.milliseconds)
                    w.endObject()
                }
            } else {
                c.stdout.line(
                    "created store \(c.storePath): catalog \(s.catalogName) (\(s.catalog.products.count) products), bundle \(s.state.bundleID) \(s.state.appVersion), storefront \(s.state.settings.storefront), clock \(s.state.clock.rfc3339)"
                )
            }
            return .success
        }
    }
}
