import IAPCrypto

/// The default catalog (`Fixtures/catalog.json`) and its hosted content, embedded in the binary
/// at build time by the EmbedFixtures plugin so that there is one source of truth.
public enum BuiltinCatalog {
    public static let name = "built-in"

    /// The catalog file's bytes.
    public static var bytes: [UInt8] { file("catalog.json") ?? [] }

    /// An embedded file by its path under `Fixtures/`.
    public static func file(_ path: String) -> [UInt8]? {
        guard let entry = EmbeddedFixtures.files.first(where: { $0.path == path }) else { return nil }
        return Base64.decode(entry.base64)
    }

    /// The embedded files under `directory` (a content folder), sorted by path.
    public static func files(under directory: String) -> [(path: String, bytes: [UInt8])] {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return EmbeddedFixtures.files
            .filter { $0.path == directory || $0.path.hasPrefix(prefix) }
            .sorted { $0.path < $1.path }
            .compactMap { entry in
                Base64.decode(entry.base64).map {
                    (String(entry.path.dropFirst(min(prefix.count, entry.path.count))), $0)
                }
            }
    }

    /// Total bytes of the embedded files under `directory`, from their base64 text alone: every
    /// command measures hosted content, and decoding it just to count would cost more than the
    /// command itself.
    public static func contentLength(under directory: String) -> Int64 {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return EmbeddedFixtures.files
            .filter { $0.path == directory || $0.path.hasPrefix(prefix) }
            .reduce(Int64(0)) { total, entry in
                let utf8 = entry.base64.utf8
                let padding = utf8.reversed().prefix(2).filter { $0 == UInt8(ascii: "=") }.count
                return total + Int64(utf8.count / 4 * 3 - padding)
            }
    }

    /// The parsed default catalog, with hosted content sizes filled in.
    public static func load() throws(CatalogError) -> Catalog {
        let catalog = try CatalogJSONFormat.read(bytes, file: name)
        return catalog.measuringContent { content in
            contentLength(under: content.path)
        }
    }
}

extension Catalog {
    /// The same catalog with each hosted content's `contentLength` computed by `measure`.
    public func measuringContent(_ measure: (HostedContent) -> Int64) -> Catalog {
        let measured = products.map { p -> Product in
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
        return Catalog(products: measured, settings: settings, offerKeys: offerKeys)
    }
}
