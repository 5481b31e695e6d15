/// The `status` values of Apple's legacy verifyReceipt endpoint (REFERENCE section 6), and the
/// faults that make the emulated endpoint answer them.
///
/// A `verification` fault whose error is one of these statuses (`iapctl fault add verification
/// 21005`, or by name, `receiptServerUnavailable`) makes the next verification answer it. These
/// errors live in the domain `verifyReceipt`, with the status as the code.
public enum VerifyReceiptStatus {
    public static let domain = "verifyReceipt"

    /// The statuses with names, as Apple's documentation describes them.
    public static let named: [(status: Int, name: String, message: String)] = [
        (21000, "requestNotReadable", "The request to the App Store was not a readable JSON POST"),
        (21002, "malformedReceiptData", "The data in the receipt-data property was malformed or missing"),
        (21003, "receiptNotAuthenticated", "The receipt could not be authenticated"),
        (
            21004, "sharedSecretMismatch",
            "The shared secret you provided does not match the shared secret on file for your account"
        ),
        (21005, "receiptServerUnavailable", "The receipt server was temporarily unable to provide the receipt"),
        (21006, "subscriptionExpired", "This receipt is valid but the subscription has expired"),
        (
            21007, "sandboxReceiptInProduction",
            "This receipt is from the test environment, but it was sent to the production environment"
        ),
        (
            21008, "productionReceiptInSandbox",
            "This receipt is from the production environment, but it was sent to the test environment"
        ),
        (21009, "internalDataAccessError", "Internal data access error. Try again later"),
        (21010, "accountNotFound", "The user account cannot be found or has been deleted"),
    ]

    /// The fault error for `status`: a named one, or 21100...21199 ("internal data access errors").
    public static func error(_ status: Int) -> TransactionError? {
        if let n = named.first(where: { $0.status == status }) {
            return TransactionError(domain: domain, code: status, name: n.name, message: n.message)
        }
        guard (21100...21199).contains(status) else { return nil }
        return TransactionError(
            domain: domain, code: status, name: "internalError\(status)", message: "Internal data access error")
    }

    /// Parses `21005`, `receiptServerUnavailable` or `internalError21105` (case-insensitive).
    public static func error(spec text: String) -> TransactionError? {
        if let code = Int(text) { return error(code) }
        let lowered = text.lowercased()
        if let n = named.first(where: { $0.name.lowercased() == lowered }) { return error(n.status) }
        if lowered.hasPrefix("internalerror"), let code = Int(lowered.dropFirst(13)) { return error(code) }
        return nil
    }

    /// `is-retryable`, which Apple sends with 21100-21199: iapctl answers true for 21005 and
    /// 21100-21149 (temporary trouble: try again) and false for 21150-21199, so scripts can
    /// exercise both branches deterministically. Other statuses carry no `is-retryable`.
    public static func isRetryable(_ status: Int) -> Bool? {
        if status == 21005 || (21100...21149).contains(status) { return true }
        if (21150...21199).contains(status) { return false }
        return nil
    }

    /// The status a failed verification answers at verifyReceipt: the status a fault names, or
    /// 21005 (server unavailable) for any other injected error (RMStore's 200, a network error).
    public static func status(for error: TransactionError) -> Int {
        error.domain == domain ? error.code : 21005
    }

    /// Whether `error` means the verification could not be completed (RMStore's error 200,
    /// `RMStoreErrorCodeUnableToCompleteVerification`), so the transaction must stay in the queue:
    /// error 200 itself, and the verifyReceipt statuses that say "try again".
    public static func isUnableToComplete(_ error: TransactionError) -> Bool {
        if error == TransactionError.unableToCompleteVerification { return true }
        if error.domain == TransactionError.rmStoreDomain && error.code == 200 { return true }
        return error.domain == domain && isRetryable(error.code) == true
    }
}
