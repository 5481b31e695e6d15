import IAPCrypto
import IAPTime

/// The app receipt a store would put at `Bundle.main.appStoreReceiptURL`: built from the store's
/// state and transactions, signed with its signing chain, the same bytes every time for the same
/// store (REFERENCE section 5).
///
/// What it lists, as Apple documents: every non-consumable (its original purchase, once),
/// every auto-renewable subscription transaction (purchases and renewals, with expiry and, once
/// refunded, the cancellation date), every non-renewing subscription purchase, and consumables
/// only until they are finished. Restored copies are not listed again: a restore brings the
/// original purchases back, which the receipt already holds. Failed, purchasing and deferred
/// transactions never appear.
public enum StoreReceipt {
    /// Whether `t` has an in-app entry in the receipt.
    public static func lists(_ t: Transaction) -> Bool {
        guard t.state == .purchased else { return false }
        switch t.productType {
        case .consumable: return !t.finished
        case .nonConsumable: return t.id == t.originalID
        case .autoRenewable, .nonRenewing: return true
        }
    }

    /// The in-app entry of a listed transaction.
    ///
    /// `is_trial_period` and `is_in_intro_offer_period` report the introductory offer only (a
    /// free trial; pay as you go or pay up front): Apple's receipts are how apps decide
    /// introductory eligibility ("If a previous subscription period in the receipt has the value
    /// true for either the is_trial_period or is_in_intro_offer_period keys, the user isn't
    /// eligible for a free trial or introductory price within that subscription group", App Store
    /// Receipts, is_in_intro_offer_period), and a promotional offer, offer code or win-back
    /// offer leaves the customer eligible. A promotional offer's period carries its identifier
    /// (1721, `promotional_offer_id`).
    public static func entry(_ t: Transaction) -> InAppPurchaseReceipt {
        let subscription = t.productType == .autoRenewable
        let intro = subscription && t.offerType == .introductory
        return InAppPurchaseReceipt(
            quantity: t.quantity, productID: t.productID.rawValue, transactionID: t.id.description,
            originalTransactionID: t.originalID.description, purchaseDate: t.date, originalPurchaseDate: t.originalDate,
            expiresDate: t.expiresDate, webOrderLineItemID: t.webOrderLineItemID.map { Int64(truncatingIfNeeded: $0) },
            cancellationDate: t.revocationDate, isTrialPeriod: subscription ? intro && t.offer == .freeTrial : nil,
            isInIntroOfferPeriod: subscription ? intro && (t.offer == .payAsYouGo || t.offer == .payUpFront) : nil,
            promotionalOfferID: subscription && t.offerType == .promotional ? t.offerID?.rawValue : nil)
    }

    /// The payload for `state` with these in-app entries (in the order given), created now.
    public static func payload(state: StoreState, entries: [InAppPurchaseReceipt]) -> AppReceipt {
        let device = state.deviceIdentifier
        let bundleIDData = DER.utf8String(state.bundleID)
        let opaque = opaqueValue(device: device, bundleID: state.bundleID, created: state.clock)
        var sha = SHA1()
        sha.update(device)
        sha.update(opaque)
        sha.update(bundleIDData)
        let environment = state.settings.environment
        return AppReceipt(
            environment: environment.receiptValue, bundleID: state.bundleID, bundleIDData: bundleIDData,
            appVersion: state.appVersion, opaqueValue: opaque, sha1Hash: sha.finalize(), creationDate: state.clock,
            originalAppVersion: state.originalAppVersion,
            // Xcode's StoreKit testing writes a far-future expiration (4001-01-01); App Store
            // receipts of ordinary apps have none.
            expirationDate: environment == .xcode ? CivilTime(year: 4001, month: 1, day: 1).timestamp : nil,
            inAppPurchases: entries)
    }

    /// Apple's opaque value is an 8-byte value that changes with every receipt; iapctl derives it
    /// from the device, the app and the receipt's creation date, so it is reproducible.
    static func opaqueValue(device: [UInt8], bundleID: String, created: Timestamp) -> [UInt8] {
        var sha = SHA256()
        sha.update(Array("iapctl opaque value ".utf8))
        sha.update(device)
        sha.update(Array(" \(bundleID) \(created.milliseconds)".utf8))
        return Array(sha.finalize().prefix(8))
    }

    /// The store's receipt: the payload and its signed DER. With `member`, a family member's
    /// receipt: its FAMILY_SHARED transactions ("When family members benefit from a shared
    /// subscription, App Store updates their receipt to include the family-shared purchase",
    /// App Store Receipts, in_app_ownership_type). The receipt's ASN.1 payload has no ownership
    /// attribute (REFERENCE section 5): `in_app_ownership_type` exists only in verifyReceipt's
    /// JSON.
    public static func build(_ session: StoreSession, member: String? = nil) throws(StoreError) -> (
        der: [UInt8], receipt: AppReceipt
    ) {
        var entries: [InAppPurchaseReceipt] = []
        try session.forEachTransaction(TransactionFilter(member: member)) { t throws(StoreError) in
            if lists(t) { entries.append(entry(t)) }
        }
        let receipt = payload(state: session.state, entries: entries)
        let identity = try session.signingIdentity()
        return (PKCS7SignedData.sign(ReceiptPayload.encode(receipt), with: identity), receipt)
    }
}
