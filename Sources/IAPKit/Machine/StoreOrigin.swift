import IAPTime

/// What a new store is made of (`iapctl init`, or the first command that writes): the catalog
/// it is bound to, the app it simulates, its clock's start, and its receipt signing chain. The
/// machine applies it once, as the store's first command (`Command.createStore`), and records it
/// as the `storeCreated` event.
public struct StoreOrigin: Hashable, Sendable {
    /// The catalog file as the user named it, or "built-in".
    public var catalog: String
    /// SHA-256 (lowercase hex) of the catalog's bytes, as the store's copy holds them.
    public var catalogSHA256: String
    public var bundleID: String
    public var appVersion: String
    /// The simulated clock's first reading (the event's date).
    public var start: Timestamp
    /// SHA-256 of the store's own signing chain (`init --signing-dir`); nil for the built-in one.
    public var signingSHA256: String?

    public init(
        catalog: String, catalogSHA256: String, bundleID: String, appVersion: String, start: Timestamp,
        signingSHA256: String?
    ) {
        self.catalog = catalog
        self.catalogSHA256 = catalogSHA256
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.start = start
        self.signingSHA256 = signingSHA256
    }
}

/// One entry of a catalog's settings (Xcode's `_askToBuyEnabled` and the like, already mapped to
/// iapctl names by the catalog reader), in catalog order: a setting, or a `fault` entry
/// (`"purchase paymentCancelled"`) that arms a fault.
public struct CatalogSetting: Hashable, Sendable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    public init(_ key: String, _ value: String) {
        self.init(key: key, value: value)
    }
}
