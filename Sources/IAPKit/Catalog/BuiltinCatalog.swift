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
        var total: Int64 = 0
        for entry in EmbeddedFixtures.files where entry.path == directory || startsWithBytes(entry.path, prefix) {
            let utf8 = entry.base64.utf8
            var padding = 0
            var end = utf8.endIndex
            while padding < 2, end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "=") {
                padding += 1
                end = utf8.index(before: end)
            }
            total += Int64(utf8.count / 4 * 3 - padding)
        }
        return total
    }

    /// Whether `text`'s UTF-8 begins with `prefix`'s: paths compared as bytes through their
    /// contiguous storage, where `hasPrefix` compares Unicode text and `utf8.starts(with:)` walks
    /// two views (about a thousand instructions a path, for each of the embedded files).
    static func startsWithBytes(_ text: String, _ prefix: String) -> Bool {
        let whole = text.utf8
        let start = prefix.utf8
        guard whole.count >= start.count else { return false }
        let fast = whole.withContiguousStorageIfAvailable { w in
            start.withContiguousStorageIfAvailable { s in
                for i in 0..<s.count where w[i] != s[i] { return false }
                return true
            }
        }
        if let fast, let result = fast { return result }
        return whole.starts(with: start)
    }

    /// The parsed default catalog, with hosted content sizes filled in.
    public static func load() throws(CatalogError) -> Catalog {
        let catalog = try CatalogJSONFormat.read(bytes, file: name)
        return catalog.measuringContent { content in
            contentLength(under: content.path)
        }
    }
}
