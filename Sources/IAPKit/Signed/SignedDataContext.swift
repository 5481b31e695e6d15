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
    /// The account's `appTransactionId` (`AppTransactionID`), written into every signed
    /// transaction and renewal info; nil leaves it out (payloads built outside a store).
    public var appTransactionID: String?
    /// App account tokens set through the App Store Server API, by original transaction id:
    /// they replace the one the purchase was made with (Set App Account Token).
    public var appAccountTokens: [TransactionID: String] = [:]

    /// The `appAccountToken` of signed data about original transaction `original`, whose
    /// purchase carried `purchased`.
    public func appAccountToken(original: TransactionID, purchased: String?) -> String? {
        appAccountTokens[original] ?? purchased
    }

    public init(bundleID: String, environment: ReceiptEnvironment, signedDate: Timestamp, appTransactionID: String? = nil) {
        self.bundleID = bundleID
        self.environment = environment
        self.signedDate = signedDate
        self.appTransactionID = appTransactionID
    }

    /// The store as it is now: its bundle id, `environment` setting, clock and account.
    public init(state: StoreState) {
        self.init(
            bundleID: state.bundleID, environment: state.settings.environment, signedDate: state.clock,
            appTransactionID: AppTransactionID.of(bundleID: state.bundleID))
        if let records = state.serverAPIRecords {
            for (id, record) in records { if let token = record.appAccountToken { appAccountTokens[id] = token } }
        }
    }

    /// The `environment` value of signed data: "Sandbox", "Production", "Xcode" or "LocalTesting"
    /// (Apple's `environment` type; not the receipt's "ProductionSandbox").
    public var environmentName: String { environment.rawValue }
}
