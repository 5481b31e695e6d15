/// Errors as people name them on the command line (`fault add`, `decline --error`, the
/// `fail-transactions` setting): an SKError name or code, or one of the seed libraries' codes.
extension TransactionError {
    /// `RMStoreErrorDomain` (RMStore.m: `@"net.robotmedia.store"`).
    public static let rmStoreDomain = "net.robotmedia.store"
    /// `DYFStoreErrorDomain` (DYFStore.m: `@"SKErrorDomain.dyfstore"`).
    public static let dyfStoreDomain = "SKErrorDomain.dyfstore"

    /// The seed libraries' own errors (REFERENCE section 1). 100, 200 and 300 are RMStore's
    /// constants (DYFStoreKit uses 100 and 300 too); 136 is DYFStoreKit's empty-identifier error.
    /// Where both libraries define a code, RMStore's domain is used.
    public static let seedErrors: [TransactionError] = [
        TransactionError(
            domain: rmStoreDomain, code: 100, name: "unknownProductIdentifier", message: "Unknown product identifier"),
        TransactionError(
            domain: dyfStoreDomain, code: 136, name: "invalidParameter", message: "The given product identifier is null or empty"),
        TransactionError(
            domain: rmStoreDomain, code: 200, name: "unableToCompleteVerification", message: "Unable to complete verification"),
        TransactionError(domain: rmStoreDomain, code: 300, name: "downloadCanceled", message: "Download canceled"),
    ]

    /// RMStore's `RMStoreErrorCodeDownloadCanceled` (300): what RMStore reports for a transaction
    /// whose download was cancelled.
    public static let downloadCanceled = seedErrors[3]

    /// RMStore's `RMStoreErrorCodeUnableToCompleteVerification` (200): the transaction is reported
    /// failed but not finished, so StoreKit delivers it again.
    public static let unableToCompleteVerification = seedErrors[2]

    /// Every name `init(spec:)` accepts, SKError names first.
    public static var specNames: [String] { SKErrorCode.allCases.map(\.name) + seedErrors.map(\.name) }

    /// What an error specification may be, for messages.
    public static let specHelp = "an SKError name or code 0-20 (paymentCancelled or 2) or a seed code 100, 136, 200, 300"

    /// Parses `paymentCancelled`, `2`, `300` or `downloadCanceled` (names are case-insensitive).
    public init?(spec text: String) {
        if let code = Int(text) {
            if let sk = SKErrorCode(rawValue: code) {
                self.init(sk)
                return
            }
            guard let seed = TransactionError.seedErrors.first(where: { $0.code == code }) else { return nil }
            self = seed
            return
        }
        let lowered = text.lowercased()
        if let sk = SKErrorCode.allCases.first(where: { $0.name.lowercased() == lowered }) {
            self.init(sk)
            return
        }
        if let seed = TransactionError.seedErrors.first(where: { $0.name.lowercased() == lowered }) {
            self = seed
            return
        }
        // StoreKit 2's VerificationResult.VerificationError cases have no SKError: they keep
        // their own name (Xcode's Verification errors, `_storeKitErrors`).
        guard let i = TransactionError.verificationErrors.firstIndex(where: { $0.lowercased() == lowered }) else { return nil }
        let name = TransactionError.verificationErrors[i]
        self.init(
            domain: "StoreKit.VerificationResult.VerificationError", code: i, name: name,
            message: "the signed data did not verify (\(name))")
    }

    /// `VerificationResult.VerificationError`'s cases, in declaration order.
    public static let verificationErrors = [
        "revokedCertificate", "invalidCertificateChain", "invalidDeviceVerification", "invalidEncoding", "invalidSignature",
        "missingRequiredProperties",
    ]

    /// Why `text` is not an error specification: the value, a near name, and the forms accepted.
    public static func specProblem(_ text: String) -> String {
        let hint = Suggestions.nearest(to: text, among: specNames).map { "did you mean '\($0)'? " } ?? ""
        return "unknown error '\(text)'; \(hint)give \(specHelp)"
    }
}
