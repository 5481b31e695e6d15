/// The verdict RMStore's `RMStoreAppReceiptVerifier` gives a transaction: the store's current
/// receipt must verify (signature, chain to the store's root, markers, bundle id, version, hash)
/// and contain a purchase of the transaction's product (`containsInAppPurchaseOfProductIdentifier:`).
/// Used by `finish --verify` and `auto-finish`; the machine then applies it
/// (`ReceiptRequest.verifyTransaction`), where an armed `verification` fault can override it.
///
/// RMStore's verifier refreshes the receipt and tries once more before failing; a receipt the
/// store just built never needs that, so iapctl folds the retry in: a fault is the verifier's
/// final answer.
public enum TransactionVerification {
    /// nil when the transaction verifies; else RMStore's error (`net.robotmedia.store` code 0).
    public static func verdict(for t: Transaction, session: StoreSession) throws(StoreError) -> TransactionError? {
        let (der, _) = try StoreReceipt.build(session)
        let decoded: DecodedReceipt
        do {
            decoded = try DecodedReceipt.decode(der)
        } catch {
            return ReceiptVerificationRecord.invalidReceipt("The app receipt is invalid: \(error)")
        }
        let state = session.state
        let expectations = ReceiptExpectations(
            root: try session.signingIdentity().root, bundleID: state.bundleID, appVersion: state.appVersion,
            deviceID: state.deviceIdentifier, productID: t.productID.rawValue)
        let report = ReceiptVerifier.verify(decoded, expecting: expectations)
        guard let failure = report.firstFailure else { return nil }
        if failure.name == "product" {
            return ReceiptVerificationRecord.invalidReceipt("The app receipt does not contain the given product (\(t.productID))")
        }
        return ReceiptVerificationRecord.invalidReceipt("The app receipt is invalid: \(failure.name): \(failure.detail)")
    }
}
