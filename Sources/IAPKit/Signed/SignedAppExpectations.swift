/// What Apple's `SignedDataVerifier` is built with besides its roots: the app's bundle id, the
/// environment it expects, and, in Production, the app's Apple ID. After the signature it checks
/// the payload against them (app-store-server-library, `verify_and_decode_*`):
///
/// - a transaction: `bundleId` and `environment` (`INVALID_APP_IDENTIFIER`, `INVALID_ENVIRONMENT`);
/// - a renewal info: `environment` only (it carries no bundle id);
/// - a notification: the `bundleId` and `environment` of its `data` (or `summary`, `appData`,
///   `externalPurchaseToken`, whose environment is Sandbox when its `externalPurchaseId` starts
///   with `SANDBOX`), and in Production its `appAppleId`;
/// - an app transaction: `bundleId`, `receiptType` as the environment, and in Production
///   `appAppleId`.
///
/// Each member left nil is not checked (`jws decode` checks only what it is given).
public struct SignedAppExpectations: Sendable, Equatable {
    public var bundleID: String?
    /// `Sandbox`, `Production`, `Xcode` or `LocalTesting`, as the payload spells it.
    public var environment: String?
    public var appAppleID: Int64?

    public init(bundleID: String? = nil, environment: String? = nil, appAppleID: Int64? = nil) {
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
    }

    public var isEmpty: Bool { bundleID == nil && environment == nil && appAppleID == nil }
}
