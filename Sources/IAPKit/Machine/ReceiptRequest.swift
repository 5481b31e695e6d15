/// The receipt and verification requests `Machine.apply` takes (`Command.receipt`).
public enum ReceiptRequest: Hashable, Sendable {
    /// `SKReceiptRefreshRequest` (RMStore's `refreshReceiptOnSuccess:failure:`): answered, or
    /// failed by a `refresh-receipt` fault.
    case refresh
    /// Record a verification and its verdict (an armed `verification` fault overrides it).
    case recordVerification(ReceiptVerificationRecord)
    /// RMStore's verification of one queued purchased or restored transaction: the verifier's
    /// verdict (nil: valid). On failure the transaction is finished unless the error says
    /// verification could not be completed (error 200), so StoreKit delivers it again; on
    /// success it is finished too when `thenFinish` (`finish --verify`), or left for the rest of
    /// the pipeline (downloads, then `finish`) when not (`auto-finish`).
    case verifyTransaction(TransactionID, failure: TransactionError?, thenFinish: Bool)
}

/// What receipt requests did: the events `iapctl events` shows for them (`EventKind.receipt`).
public enum ReceiptEvent: Hashable, Sendable {
    /// RMStore's `storeRefreshReceiptFinished`.
    case refreshFinished
    /// RMStore's `storeRefreshReceiptFailed` {error}.
    case refreshFailed(TransactionError)
    /// A verifier accepted the receipt (RMStore's verifier calls its success block).
    case verified(ReceiptVerificationRecord)
    /// A verifier rejected it, or could not complete (its failure block).
    case verificationFailed(ReceiptVerificationRecord)
    /// RMStore's `storePaymentTransactionFailed` after a failed verification: the transaction
    /// was finished, or kept in the queue when verification could not be completed (error 200).
    case transactionVerificationFailed(Transaction, TransactionError)

    public var name: String {
        switch self {
        case .refreshFinished: return "refreshReceiptFinished"
        case .refreshFailed: return "refreshReceiptFailed"
        case .verified: return "receiptVerified"
        case .verificationFailed: return "receiptVerificationFailed"
        case .transactionVerificationFailed: return "transactionVerificationFailed"
        }
    }

    public var transaction: Transaction? {
        if case .transactionVerificationFailed(let t, _) = self { return t }
        return nil
    }
}
