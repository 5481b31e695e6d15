import IAPJSON

/// Picks the reader for a catalog file: the project's JSON format or an Xcode `.storekit` file.
///
/// `iapctl init --catalog FILE` accepts either (SPEC section 2). The content decides when it says
/// so itself (`"format": "iapctl-catalog"`, or Xcode's `"version": {"major": ...}` object); else
/// the extension (`.storekit`, `.json`); else the shape of the products (Xcode's `productID`
/// against iapctl's `productIdentifier`). A file that fits neither is refused with the fix.
public enum CatalogLoader {
    /// The catalog formats iapctl reads.
    public enum Format: String, Sendable, CaseIterable {
        /// The project's own format (`docs/catalog.md`).
        case iapctl
        /// Xcode's StoreKit configuration file (`docs/storekit.md`).
        case storeKit
    }

    /// Reads a catalog in whichever supported format `bytes` is written in.
    ///
    /// The JSON is parsed once: every command loads its store's catalog, and parsing was half of
    /// a `buy`'s instructions when the format check and the reader each parsed it.
    public static func load(bytes: [UInt8], file: String) throws(CatalogError) -> Catalog {
        let root = try parse(bytes, file: file)
        switch try format(of: root, file: file) {
        case .iapctl: return try CatalogJSONFormat.read(root: root, file: file)
        case .storeKit: return try StoreKitConfigurationFormat.read(root: root, file: file).catalog
        }
    }

    static func parse(_ bytes: [UInt8], file: String) throws(CatalogError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw CatalogError(file: file, keyPath: "", problem: "\(error.description) (check the JSON syntax)")
        }
    }

    /// The format of a catalog file, from its content and name.
    public static func format(of bytes: [UInt8], file: String) throws(CatalogError) -> Format {
        try format(of: try parse(bytes, file: file), file: file)
    }

    static func format(of root: JSONValue, file: String) throws(CatalogError) -> Format {
        if root["format"] != nil { return .iapctl }
        if root["version"]?["major"] != nil { return .storeKit }
        let name = file.lowercased()
        if name.hasSuffix(".storekit") { return .storeKit }
        if name.hasSuffix(".json") { return .iapctl }
        guard root.objectValue != nil else {
            throw CatalogError(file: file, keyPath: "", problem: "expected a JSON object, found \(root.kindName)")
        }
        let xcodeKeys = ["subscriptionGroups", "nonRenewingSubscriptions"]
        if xcodeKeys.contains(where: { root[$0] != nil }) { return .storeKit }
        let first = root["products"]?.arrayValue?.first
        if first?["productID"] != nil { return .storeKit }
        if first?["productIdentifier"] != nil { return .iapctl }
        throw CatalogError(
            file: file, keyPath: "",
            problem:
                "cannot tell the catalog's format; name it .json (iapctl's format, with \"format\": \"\(CatalogJSONFormat.formatName)\") or .storekit (Xcode's)"
        )
    }
}

extension Catalog {
    /// Reads a catalog from the project's JSON format or an Xcode `.storekit` file
    /// (see `CatalogLoader`).
    public static func load(bytes: [UInt8], file: String) throws(CatalogError) -> Catalog {
        try CatalogLoader.load(bytes: bytes, file: file)
    }
}
