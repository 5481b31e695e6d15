/// One receipt verification the app performed, as the store records it: how (RMStore's local
/// app receipt verifier, or the remote verifyReceipt endpoint), about which transaction or
/// product, and the outcome. The verdict is computed outside the machine (it needs the receipt
/// and crypto); `Machine.apply` records it, and an armed `verification` fault overrides it.
public struct ReceiptVerificationRecord: Hashable, Sendable {
    public enum Method: Hashable, Sendable {
        /// RMStore's `RMStoreAppReceiptVerifier`: the receipt checked on the device.
        case local
        /// Apple's verifyReceipt endpoint, as DYFStoreKit's `DYFStoreReceiptVerifier` and
        /// RMStore's `RMStoreTransactionReceiptVerifier` call it.
        case verifyReceipt(VerifyReceiptEndpoint)

        public var name: String {
            switch self {
            case .local: return "local"
            case .verifyReceipt: return "verifyReceipt"
            }
        }
    }

    public var method: Method
    public var transactionID: TransactionID?
    public var productID: ProductID?
    /// verifyReceipt's `status` (0 for a valid receipt); nil for local verification.
    public var status: Int?
    /// Why verification failed; nil when it passed.
    public var error: TransactionError?

    public init(
        method: Method, transactionID: TransactionID? = nil, productID: ProductID? = nil, status: Int? = nil,
        error: TransactionError? = nil
    ) {
        self.method = method
        self.transactionID = transactionID
        self.productID = productID
        self.status = status
        self.error = error
    }

    public var passed: Bool { error == nil }

    /// The outcome an injected fault imposes: its error, and at verifyReceipt the status it
    /// names (or 21005 for an error that is not a status).
    mutating func impose(_ fault: TransactionError) {
        error = fault
        if case .verifyReceipt = method { status = VerifyReceiptStatus.status(for: fault) }
    }

    /// RMStore's local verifier reports a bad receipt with `RMStoreErrorDomain` code 0 and a
    /// message saying which check failed ("The app receipt is invalid", "... does not contain
    /// the given product").
    public static func invalidReceipt(_ message: String) -> TransactionError {
        TransactionError(domain: TransactionError.rmStoreDomain, code: 0, name: "invalidReceipt", message: message)
    }
}
