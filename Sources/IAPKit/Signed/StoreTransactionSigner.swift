import Synchronization

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
    /// Signed payloads already made with the loaded chain (`serve` installs one); nil signs every
    /// time. ES256 signing here is deterministic (RFC 6979 nonces), so a cached JWS is the very
    /// bytes signing again would give.
    public var cache: SignedPayloadCache?

    public init(session: StoreSession) throws(StoreError) {
        signer = JWSSigner(identity: try session.signingIdentity())
        signingSHA256 = session.state.signingSHA256
    }

    /// The signer for this session's chain.
    /// `payload` signed with the session's chain, from the cache when the chain is the loaded one.
    func signed(_ payload: [UInt8], session: StoreSession) throws(StoreError) -> String {
        guard let cache, session.state.signingSHA256 == signingSHA256 else { return try jwsSigner(for: session).sign(payload) }
        return cache.signed(payload) { signer.sign($0) }
    }

    public func jwsSigner(for session: StoreSession) throws(StoreError) -> JWSSigner {
        if session.state.signingSHA256 == signingSHA256 { return signer }
        return JWSSigner(identity: try session.signingIdentity())
    }

    public func environment(session: StoreSession) -> String {
        session.state.settings.environment.rawValue
    }

    /// `signedTransactionInfo`, signed at the store's clock.
    public func signedTransaction(_ transaction: Transaction, session: StoreSession) throws -> String {
        try signed(
            SignedTransactionPayload.bytes(transaction, context: SignedDataContext(state: session.state)), session: session)
    }

    /// `signedRenewalInfo` of the subscription `latest` belongs to, signed at the store's clock.
    public func signedRenewalInfo(_ latest: Transaction, session: StoreSession) throws -> String {
        let info = try Self.renewalInfo(of: latest, session: session)
        return try signed(
            SignedRenewalInfoPayload.bytes(info, context: SignedDataContext(state: session.state)), session: session)
    }

    /// `signedAppTransactionInfo`, signed at the store's clock (its `receiptCreationDate`).
    public func signedAppTransaction(session: StoreSession, appAppleID: Int64?) throws -> String {
        try signed(
            AppTransactionPayload.bytes(
                try AppTransactionPayload.content(session: session, appAppleID: appAppleID),
                context: SignedDataContext(state: session.state)), session: session)
    }

    public func sign(payload: [UInt8], session: StoreSession) throws -> String {
        try jwsSigner(for: session).sign(payload)
    }

    /// The renewal info of the subscription whose latest transaction is `latest`. A family
    /// member's shared copy renews with the purchaser's subscription, so its renewal info is the
    /// purchaser's under the member's own `originalTransactionId` ("each family member gets their
    /// own unique receipts and transactions", StoreKit, "Supporting Family Sharing in your app"),
    /// without the purchaser's `appAccountToken` or win-back offers.
    public static func renewalInfo(of latest: Transaction, session: StoreSession) throws(StoreError) -> RenewalInfo {
        if latest.isMemberPurchase, latest.productType == .autoRenewable, let expires = latest.expiresDate {
            // A member's own subscription: one period with auto-renew off (docs/family.md); once
            // it is over, expirationIntent 1 ("the customer canceled their subscription").
            let expired = expires <= session.state.clock
            return RenewalInfo(
                originalTransactionID: latest.originalID, productID: latest.productID, autoRenewProductID: latest.productID,
                autoRenew: false, expirationIntent: expired ? 1 : nil, isInBillingRetryPeriod: expired ? false : nil,
                gracePeriodExpiresDate: nil, renewalOffer: nil, renewalPrice: nil, currency: nil,
                recentSubscriptionStartDate: latest.originalDate, renewalDate: expires, appAccountToken: nil,
                status: latest.revocationDate != nil ? .revoked : expired ? .expired : .active)
        }
        guard latest.familyMember != nil, !latest.isMemberPurchase else {
            return try renewalInfo(original: latest.originalID, session: session)
        }
        guard let purchaser = session.state.purchaserSubscription(ofShared: latest) else {
            throw .missing(.sharedSubscription(member: latest.familyMember ?? "", latest.id))
        }
        var info = try renewalInfo(original: purchaser.originalID, session: session)
        info.originalTransactionID = latest.originalID
        info.appAccountToken = nil
        info.eligibleWinBackOfferIDs = []
        return info
    }

    /// The renewal info of the subscription with this original transaction id, as the engine
    /// holds it now. `storefront` prices the next period (default: the account's storefront now).
    public static func renewalInfo(original: TransactionID, session: StoreSession, storefront: String? = nil) throws(StoreError)
        -> RenewalInfo
    {
        guard let sub = session.state.subscriptions[original] else {
            throw .missing(.noSubscriptionForRenewal(original))
        }
        // The next period is charged in the account's storefront as it is now (`Machine.renew`
        // prices the renewal there), so a storefront change shows in the renewal price at once.
        let shop = storefront ?? session.state.settings.storefront
        var info = RenewalInfo(
            sub, offers: session.state.subscriptionOffers(original), storefront: shop,
            catalog: session.catalog, now: session.state.clock)
        info.applyPriceIncreases(
            session.state.priceIncreases, storefront: shop, asOf: session.state.clock)
        if let consent = session.state.priceConsents?[original] { info.apply(consent) }
        return info
    }
}

/// JWS already signed, by payload: a bounded table keyed by the exact payload bytes (which hold
/// the signed date, the transaction's fields and the environment, so any change is a new key),
/// evicting the oldest insertion first. `iapctl serve` answers the same transaction many times
/// between changes; each answer after the first costs a table lookup instead of a P-256 signature.
public final class SignedPayloadCache: Sendable {
    public static let defaultCapacity = 1024
    public let capacity: Int

    private struct Table {
        var signed: [Key: String] = [:]
        var order: [Key] = []
        var next = 0
    }

    /// A payload with its hash computed once, outside the lock, over the bytes as one block
    /// (`Hasher.combine(bytes:)`): an `[UInt8]` key hashes byte by byte, which for kilobyte
    /// payloads cost more than the rest of the lookup, and did it while holding the lock.
    private struct Key: Hashable, Sendable {
        let bytes: [UInt8]
        let digest: Int

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var h = Hasher()
            bytes.withUnsafeBytes { h.combine(bytes: $0) }
            digest = h.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(digest) }
        static func == (a: Key, b: Key) -> Bool { a.digest == b.digest && a.bytes == b.bytes }
    }

    private let table = Mutex(Table())

    public init(capacity: Int = SignedPayloadCache.defaultCapacity) {
        precondition(capacity > 0, "a signed-payload cache holds at least one payload")
        self.capacity = capacity
    }

    /// How many payloads are held.
    public var count: Int { table.withLock { $0.signed.count } }

    /// The JWS of `payload`: the held one, else `sign(payload)` (outside the lock), then held.
    public func signed(_ payload: [UInt8], sign: ([UInt8]) -> String) -> String {
        let key = Key(payload)
        if let hit = table.withLock({ $0.signed[key] }) { return hit }
        let jws = sign(payload)
        table.withLock { t in
            guard t.signed[key] == nil else { return }
            if t.order.count < capacity {
                t.order.append(key)
            } else {
                t.signed[t.order[t.next]] = nil
                t.order[t.next] = key
                t.next = (t.next + 1) % capacity
            }
            t.signed[key] = jws
        }
        return jws
    }
}
