/// The store's ES256 signer of StoreKit 2 signed data: signed transactions, signed renewal
/// information and (through `NotificationLog`) notifications, with the store's signing chain (the
/// one that signs its receipts: `SigningIdentity`, the built-in TEST ONLY chain unless the store
/// was created with `init --signing-dir`).
///
/// It is the `TransactionSigner` `iapctl serve` installs, and what `iapctl jws` prints with. The
/// chain is loaded once (`init(session:)`); a session whose state names another chain (the store
/// was replaced while a server ran) is signed with that one, loaded for the call.
public struct StoreTransactionSigner: TransactionSigner {
    public let signer: JWSSigner
    /// The `signingSHA256` of the state the chain was loaded for (nil: the built-in chain).
    let signingSHA256: String?

    public init(session: StoreSession) throws(StoreError) {
        signer = JWSSigner(identity: try session.signingIdentity())
        signingSHA256 = session.state.signingSHA256
    }

    /// The signer for this session's chain.
    public func jwsSigner(for session: StoreSession) throws(StoreError) -> JWSSigner {
        if session.state.signingSHA256 == signingSHA256 { return signer }
        return JWSSigner(identity: try session.signingIdentity())
    }

    public func environment(session: StoreSession) -> String {
        session.state.settings.environment.rawValue
    }

    /// `signedTransactionInfo`, signed at the store's clock.
    public func signedTransaction(_ transaction: Transaction, session: StoreSession) throws -> String {
        try jwsSigner(for: session).sign(
            SignedTransactionPayload.bytes(transaction, context: SignedDataContext(state: session.state)))
    }

    /// `signedRenewalInfo` of the subscription `latest` belongs to, signed at the store's clock.
    public func signedRenewalInfo(_ latest: Transaction, session: StoreSession) throws -> String {
        let info = try Self.renewalInfo(original: latest.originalID, session: session)
        return try jwsSigner(for: session).sign(
            SignedRenewalInfoPayload.bytes(info, context: SignedDataContext(state: session.state)))
    }

    /// `signedAppTransactionInfo`, signed at the store's clock (its `receiptCreationDate`).
    public func signedAppTransaction(session: StoreSession, appAppleID: Int64?) throws -> String {
        try jwsSigner(for: session).sign(
            AppTransactionPayload.bytes(
                try AppTransactionPayload.content(session: session, appAppleID: appAppleID),
                context: SignedDataContext(state: session.state)))
    }

    public func sign(payload: [UInt8], session: StoreSession) throws -> String {
        try jwsSigner(for: session).sign(payload)
    }

    /// The renewal info of the subscription with this original transaction id, as the engine
    /// holds it now. `storefront` prices the next period (default: the account's storefront now).
    public static func renewalInfo(original: TransactionID, session: StoreSession, storefront: String? = nil) throws(StoreError)
        -> RenewalInfo
    {
        guard let sub = session.state.subscriptions[original] else {
            throw .notFound(
                "no auto-renewable subscription has original transaction id \(original) (see 'iapctl subscriptions')")
        }
        // The next period is charged in the account's storefront as it is now (`Machine.renew`
        // prices the renewal there), so a storefront change shows in the renewal price at once.
        let shop = storefront ?? session.state.settings.storefront
        var info = RenewalInfo(
            sub, offers: session.state.offers.subscriptions[original], storefront: shop,
            catalog: session.catalog, now: session.state.clock)
        info.applyPriceIncreases(
            session.state.priceIncreases, storefront: shop, asOf: session.state.clock)
        if let consent = session.state.priceConsents?[original] { info.apply(consent) }
        return info
    }
}
