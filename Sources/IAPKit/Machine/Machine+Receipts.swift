/// Receipt refreshes and verifications (issue 5; REFERENCE sections 5 and 6).
///
/// The machine does no crypto and reads no receipt: verdicts are computed by the receipt layer
/// (`ReceiptVerifier`, `ReceiptVerification`) from the store's receipt and passed in. What the
/// machine owns is what must be deterministic and recorded: the injected faults
/// (`refresh-receipt`, `verification`), the events, and what a verdict does to a transaction.
extension Machine {
    mutating func applyReceipt(_ request: ReceiptRequest, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        switch request {
        case .refresh:
            // AppTransaction.refresh() is StoreKit 2's receipt refresh: an `app-transaction` fault
            // fails it too.
            if let error = takeFault(.refreshReceipt, product: nil, into: &effects)
                ?? takeFault(.appTransaction, product: nil, into: &effects)
            {
                emit(.receipt(.refreshFailed(error)), into: &effects)
                effects.outcome = .receiptRefresh(failure: error)
            } else {
                emit(.receipt(.refreshFinished), into: &effects)
                effects.outcome = .receiptRefresh(failure: nil)
            }
        case .recordVerification(var record):
            if let fault = takeFault(.verification, product: record.productID, into: &effects) { record.impose(fault) }
            emit(.receipt(record.passed ? .verified(record) : .verificationFailed(record)), into: &effects)
            effects.outcome = .receiptVerification(record)
        case .verifyTransaction(let id, let failure, let thenFinish):
            try verifyTransaction(id, failure: failure, thenFinish: thenFinish, archive: archive, into: &effects)
        }
    }

    /// RMStore's `didPurchaseTransaction:` / `didRestoreTransaction:` with a receipt verifier:
    /// success goes on to `finishTransaction` (downloads and the ledger as `finish` does them);
    /// failure calls `didFailTransaction:`, which finishes the transaction unless the error is
    /// `RMStoreErrorCodeUnableToCompleteVerification` ("If we were unable to complete the
    /// verification we want StoreKit to keep reminding us of the transaction"), and posts
    /// `storePaymentTransactionFailed`. A failed transaction is not counted in the ledger.
    private mutating func verifyTransaction(
        _ id: TransactionID, failure: TransactionError?, thenFinish: Bool, archive: some TransactionArchive,
        into effects: inout Effects
    ) throws(StoreError) {
        guard let t = state.queued(id) else {
            if try archive.transaction(id) != nil { throw .alreadyFinished(id) }
            throw .unknownTransaction(id)
        }
        guard t.state.isFinishable else { throw .cannotFinish(id, state: t.state.name) }
        var record = ReceiptVerificationRecord(method: .local, transactionID: id, productID: t.productID, error: failure)
        if let fault = takeFault(.verification, product: t.productID, into: &effects) { record.impose(fault) }
        guard let error = record.error else {
            emit(.receipt(.verified(record)), into: &effects)
            if thenFinish { finishValidated(t, into: &effects) }
            effects.outcome = .transactionVerification(.verified(record, finish: effects.finish))
            return
        }
        emit(.receipt(.verificationFailed(record)), into: &effects)
        var failed = t
        if !VerifyReceiptStatus.isUnableToComplete(error) { failed = finishUndelivered(t, into: &effects) }
        emit(.receipt(.transactionVerificationFailed(failed, error)), into: &effects)
        effects.outcome = .transactionVerification(.failed(record, failed, error, finish: effects.finish))
    }

    /// `[queue finishTransaction:]` without delivery: unended downloads are cancelled (StoreKit
    /// drops them with the transaction), nothing is credited.
    private mutating func finishUndelivered(_ t: Transaction, into effects: inout Effects) -> Transaction {
        var t = t
        markFinished(&t, into: &effects)
        effects.finish.steps.append(.undelivered(t))
        return t
    }
}
