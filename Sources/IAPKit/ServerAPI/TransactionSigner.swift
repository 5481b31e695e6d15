/// Produces the signed data the App Store Server API returns: JWS transactions and renewal
/// infos (REFERENCE section 7), signed with the store's certificate chain.
///
/// The server's routes call this; the ES256 signer is injected by `iapctl serve`. A signer must be
/// safe to call from several request threads at once.
public protocol TransactionSigner: Sendable {
    /// The `environment` the signed data and the responses around it claim: "Sandbox",
    /// "Production", "Xcode" or "LocalTesting" (from the store's settings).
    func environment(session: StoreSession) -> String

    /// `signedTransactionInfo`: the compact JWS of one transaction.
    func signedTransaction(_ transaction: Transaction, session: StoreSession) throws -> String

    /// `signedRenewalInfo`: the compact JWS of the renewal info of the subscription whose latest
    /// transaction is `latest`.
    func signedRenewalInfo(_ latest: Transaction, session: StoreSession) throws -> String

    /// `signedAppTransactionInfo`: the compact JWS of the store's AppTransaction
    /// (`AppTransactionPayload`), with `appAppleId` when the app has one.
    func signedAppTransaction(session: StoreSession, appAppleID: Int64?) throws -> String

    /// Any payload as a compact JWS with the store's chain (the performance test's realtime
    /// requests).
    func sign(payload: [UInt8], session: StoreSession) throws -> String
}
