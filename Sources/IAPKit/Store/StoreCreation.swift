import IAPTime

/// How a new store is set up (`iapctl init` options, or defaults on first use).
public struct StoreCreation: Sendable {
    /// A catalog file (project JSON or Xcode `.storekit`); nil for the built-in catalog.
    public var catalogFile: String?
    public var bundleID = "com.x.demo"
    public var appVersion = "1.0"
    public var storefront: String?
    public var start = Timestamp.defaultStart
    /// The user's own receipt signing chain (`init --signing-dir`), validated; nil for the
    /// built-in test chain.
    public var signing: SigningIdentity?

    public init(catalogFile: String? = nil) { self.catalogFile = catalogFile }
}
