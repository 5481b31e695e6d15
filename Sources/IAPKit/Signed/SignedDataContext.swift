import IAPTime

/// What every piece of signed data says about where and when it was signed: the app, the
/// environment (setting `environment`) and `signedDate`.
///
/// `signedDate` is "the UNIX time, in milliseconds, that the App Store signed the JSON Web
/// Signature data" (App Store Server API, signedDate). iapctl never reads the wall clock: the
/// signing date is the store's clock (for `jws` and the server) or the date of the event a
/// notification reports, so the same store gives the same bytes.
public struct SignedDataContext: Sendable, Equatable {
    public var bundleID: String
    public var environment: ReceiptEnvironment
    public var signedDate: Timestamp

    public init(bundleID: String, environment: ReceiptEnvironment, signedDate: Timestamp) {
        self.bundleID = bundleID
        self.environment = environment
        self.signedDate = signedDate
    }

    /// The store as it is now: its bundle id, `environment` setting and clock.
    public init(state: StoreState) {
        self.init(bundleID: state.bundleID, environment: state.settings.environment, signedDate: state.clock)
    }

    /// The `environment` value of signed data: "Sandbox", "Production", "Xcode" or "LocalTesting"
    /// (Apple's `environment` type; not the receipt's "ProductionSandbox").
    public var environmentName: String { environment.rawValue }
}
