import IAPCrypto
import IAPJSON
import IAPTime

/// Apple's legacy verifyReceipt endpoint, emulated on the store (REFERENCE section 6): what
/// DYFStoreKit's `DYFStoreReceiptVerifier` and RMStore's transaction receipt verifier POST to
/// `buy.itunes.apple.com/verifyReceipt` and `sandbox.itunes.apple.com/verifyReceipt`, and what
/// they get back. `iapctl verify-receipt` prints it; `iapctl serve` answers `POST /verifyReceipt`
/// and `POST /sandbox/verifyReceipt` with it.
///
/// Request: `{"receipt-data": base64, "password": shared secret, "exclude-old-transactions":
/// bool}`. The status is decided in this order:
/// - 21000: the body is not a JSON object;
/// - 21002: `receipt-data` is missing, not base64, or not a receipt; also for receipts of the
///   Xcode and LocalTesting environments, which the App Store cannot validate;
/// - 21003: the signature or the chain to the store's root does not verify;
/// - 21007: a sandbox receipt sent to production; 21008: a production receipt sent to sandbox;
/// - 21004: the receipt holds auto-renewable subscriptions, the store has a `shared-secret`, and
///   `password` is missing or differs (without a configured secret, any password is accepted);
/// - 0 otherwise, with `receipt`, and for receipts with auto-renewable subscriptions
///   `latest_receipt_info` (newest first), `latest_receipt` and `pending_renewal_info`.
///
/// An armed `verification` fault overrides the status (`fault add verification 21005`; an
/// error that is not a status answers 21005); 21005 and 21100-21199 carry `is-retryable`.
/// Every request is recorded as a `receiptVerified` or `receiptVerificationFailed` event.
public enum ReceiptVerification {
    /// The response to one request, as bytes (compact JSON and a newline). Never throws: a store
    /// that cannot be read or written answers 21009 (internal data access error), as Apple does.
    public static func respond(requestBody: [UInt8], endpoint: VerifyReceiptEndpoint, session: StoreSession) -> [UInt8] {
        do {
            return try response(requestBody: requestBody, endpoint: endpoint, session: session).body
        } catch {
            return statusBody(21009)
        }
    }

    /// The status and body; throws only when the store fails (a writing session records the
    /// request, a reading one answers without recording or firing faults).
    public static func response(requestBody: [UInt8], endpoint: VerifyReceiptEndpoint, session: StoreSession) throws(StoreError)
        -> (status: Int, body: [UInt8])
    {
        guard let json = try? JSONParser.parse(requestBody), json.objectValue != nil else {
            return try answer(nil, natural: 21000, exclude: false, endpoint: endpoint, session: session)
        }
        let exclude = json["exclude-old-transactions"]?.boolValue ?? false
        guard let data = json["receipt-data"]?.stringValue, let d = try? DecodedReceipt.decode(Array(data.utf8)) else {
            return try answer(nil, natural: 21002, exclude: exclude, endpoint: endpoint, session: session)
        }
        let natural = try status(of: d, password: json["password"]?.stringValue, endpoint: endpoint, session: session)
        return try answer(d, natural: natural, exclude: exclude, endpoint: endpoint, session: session)
    }

    /// The answer to a request `iapctl serve` already parsed (`VerifyReceiptRequest`).
    public static func response(_ request: VerifyReceiptRequest, session: StoreSession) throws(StoreError) -> (
        status: Int, body: [UInt8]
    ) {
        let endpoint: VerifyReceiptEndpoint = request.sandbox ? .sandbox : .production
        guard let d = try? DecodedReceipt.decode(request.receipt) else {
            return try answer(nil, natural: 21002, exclude: request.excludeOldTransactions, endpoint: endpoint, session: session)
        }
        let natural = try status(of: d, password: request.password, endpoint: endpoint, session: session)
        return try answer(d, natural: natural, exclude: request.excludeOldTransactions, endpoint: endpoint, session: session)
    }

    /// Records the verification (when the session can write), lets a fault override the
    /// natural status, and renders the response.
    static func answer(
        _ decoded: DecodedReceipt?, natural: Int, exclude: Bool, endpoint: VerifyReceiptEndpoint, session: StoreSession
    ) throws(StoreError) -> (status: Int, body: [UInt8]) {
        var record = ReceiptVerificationRecord(
            method: .verifyReceipt(endpoint), status: natural, error: natural == 0 ? nil : VerifyReceiptStatus.error(natural))
        if session.writable {
            let effects = try session.apply(.receipt(.recordVerification(record)))
            for e in effects.events {
                if case .receipt(.verified(let r)) = e.kind { record = r }
                if case .receipt(.verificationFailed(let r)) = e.kind { record = r }
            }
        }
        let status = record.status ?? natural
        guard status == 0, let decoded else { return (status, statusBody(status)) }
        return (0, try validBody(decoded, endpoint: endpoint, exclude: exclude, session: session))
    }

    /// The status of a decoded receipt before faults.
    static func status(of d: DecodedReceipt, password: String?, endpoint: VerifyReceiptEndpoint, session: StoreSession)
        throws(StoreError) -> Int
    {
        guard let environment = d.receipt.environment.flatMap(ReceiptEnvironment.init(receiptValue:)),
            environment == .sandbox || environment == .production
        else { return 21002 }
        let root = try session.signingIdentity().root
        let signer = d.envelope.signers.first.flatMap { info in
            (d.envelope.certificates + [root]).first { ReceiptVerifier.matches($0, info) }
        }
        guard ReceiptVerifier.signatureCheck(d, d.envelope.signers.first, signer).verdict == .pass,
            ReceiptVerifier.chainCheck(d, signer, root: root).verdict == .pass
        else { return 21003 }
        if environment == .sandbox && endpoint == .production { return 21007 }
        if environment == .production && endpoint == .sandbox { return 21008 }
        if let secret = session.state.settings.sharedSecret, hasAutoRenewables(d.receipt, session.catalog), password != secret {
            return 21004
        }
        return 0
    }

    static func hasAutoRenewables(_ r: AppReceipt, _ catalog: Catalog) -> Bool {
        r.inAppPurchases.contains { p in
            if let id = p.productID, let product = catalog[ProductID(id)] { return product.type == .autoRenewable }
            return p.webOrderLineItemID != nil && p.expiresDate != nil
        }
    }

    /// `{"status": N}`, with `is-retryable` for the statuses that carry it.
    static func statusBody(_ status: Int) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.key("status")
        w.int(status)
        if let retryable = VerifyReceiptStatus.isRetryable(status) {
            w.key("is-retryable")
            w.bool(retryable)
        }
        w.endObject()
        w.bytes.append(0x0A)
        return w.bytes
    }

    // MARK: - Status 0

    static func validBody(_ d: DecodedReceipt, endpoint: VerifyReceiptEndpoint, exclude: Bool, session: StoreSession)
        throws(StoreError) -> [UInt8]
    {
        let r = d.receipt
        let state = session.state
        // What the store knows about each transaction, for the fields receipts do not carry.
        var known: [String: Transaction] = [:]
        var latest: [Transaction] = []
        // A family member's receipt (`receipt --member`) is answered with that member's
        // transactions: its entries name the member's transaction ids.
        var member: String?
        for p in r.inAppPurchasesInOrder {
            if let text = p.transactionID, let id = TransactionID(parsing: text), let t = try session.transaction(id) {
                member = t.familyMember
                break
            }
        }
        try session.forEachTransaction(TransactionFilter(member: member)) { t throws(StoreError) in
            if StoreReceipt.lists(t) {
                known[t.id.description] = t
                latest.append(t)
            }
        }
        var w = JSONWriter(capacity: 4096 + r.inAppPurchases.count * 900)
        w.beginObject()
        w.key("receipt")
        w.beginObject()
        pair("receipt_type", r.environment ?? "", &w)
        w.key("adam_id")
        w.int(0)
        w.key("app_item_id")
        w.int(0)
        pair("bundle_id", r.bundleID ?? "", &w)
        pair("application_version", r.appVersion ?? "", &w)
        w.key("download_id")
        w.int(0)
        w.key("version_external_identifier")
        w.int(0)
        dates("receipt_creation_date", r.creationDate ?? state.clock, &w)
        dates("request_date", state.clock, &w)
        pair("original_application_version", r.originalAppVersion ?? "", &w)
        w.key("in_app")
        w.beginArray()
        for p in r.inAppPurchasesInOrder {
            entry(p, transaction: p.transactionID.flatMap { known[$0] }, group: false, &w)
        }
        w.endArray()
        w.endObject()
        w.key("environment")
        w.string(endpoint.environmentName)
        let subscriptions = latest.filter { $0.productType == .autoRenewable }
        if !subscriptions.isEmpty || hasAutoRenewables(r, session.catalog) {
            var listed = latest.sorted { ($0.date, $0.id) > ($1.date, $1.id) }
            if exclude {
                // Only the latest transaction of each auto-renewable subscription.
                var seen: Set<TransactionID> = []
                listed = listed.filter { $0.productType == .autoRenewable && seen.insert($0.originalID).inserted }
            }
            w.key("latest_receipt_info")
            w.beginArray()
            for t in listed { entry(StoreReceipt.entry(t), transaction: t, group: true, &w) }
            w.endArray()
            w.key("latest_receipt")
            let (der, _) = try StoreReceipt.build(session, member: member)
            w.string(Base64.encode(der))
            w.key("pending_renewal_info")
            w.beginArray()
            for s in state.subscriptions.values.sorted(by: { $0.originalID < $1.originalID }) {
                let storefront = known[s.latestID.description]?.storefront ?? state.settings.storefront
                let info = RenewalInfo(
                    s, offers: state.subscriptionOffers(s.originalID), storefront: storefront, catalog: session.catalog,
                    now: state.clock)
                renewal(s, offer: info.renewalOffer, consent: state.priceConsents?[s.originalID], &w)
            }
            w.endArray()
        }
        w.key("status")
        w.int(0)
        w.endObject()
        w.bytes.append(0x0A)
        return w.bytes
    }

    /// One `in_app` or `latest_receipt_info` entry; every value a string, as Apple writes them.
    static func entry(_ p: InAppPurchaseReceipt, transaction t: Transaction?, group: Bool, _ w: inout JSONWriter) {
        w.beginObject()
        pair("quantity", String(p.quantity ?? 1), &w)
        pair("product_id", p.productID ?? "", &w)
        pair("transaction_id", p.transactionID ?? "", &w)
        pair("original_transaction_id", p.originalTransactionID ?? p.transactionID ?? "", &w)
        if let d = p.purchaseDate { dates("purchase_date", d, &w) }
        if let d = p.originalPurchaseDate { dates("original_purchase_date", d, &w) }
        if let d = p.expiresDate { dates("expires_date", d, &w) }
        if let id = p.webOrderLineItemID { pair("web_order_line_item_id", String(id), &w) }
        pair("is_trial_period", (p.isTrialPeriod ?? false) ? "true" : "false", &w)
        if let intro = p.isInIntroOfferPeriod { pair("is_in_intro_offer_period", intro ? "true" : "false", &w) }
        if let id = p.promotionalOfferID { pair("promotional_offer_id", id, &w) }
        // "When a customer successfully redeems an offer code, this field is present in the
        // receipt and contains the reference name of the offer" (App Store Receipts,
        // offer_code_ref_name); the receipt file has no attribute for it, so it comes from the
        // store's transaction.
        if let t, t.offerType == .code, let name = t.offerID { pair("offer_code_ref_name", name.rawValue, &w) }
        if let d = p.cancellationDate ?? t?.revocationDate {
            dates("cancellation_date", d, &w)
            pair("cancellation_reason", String(t?.revocationReason ?? 0), &w)
        }
        if t?.isUpgraded == true { pair("is_upgraded", "true", &w) }
        // "FAMILY_SHARED: The transaction belongs to a family member who benefits from service.
        // PURCHASED: The transaction belongs to the purchaser" (App Store Receipts,
        // in_app_ownership_type).
        pair("in_app_ownership_type", t?.inAppOwnershipType ?? "PURCHASED", &w)
        if group, let g = t?.subscriptionGroup { pair("subscription_group_identifier", g, &w) }
        w.endObject()
    }

    /// One `pending_renewal_info` entry, from the store's subscription record, with the offer
    /// the next renewal applies (`offer`, as signed renewal info reports it): an offer code's
    /// `offer_code_ref_name` or a promotional offer's `promotional_offer_id` (App Store
    /// Receipts, responseBody.Pending_renewal_info).
    /// A price increase waiting for the renewal adds `price_consent_status` and
    /// `price_increase_status` ("0" not yet answered, "1" agreed or no consent needed; issue 15).
    static func renewal(_ s: Subscription, offer: RenewalOffer?, consent: PriceConsent? = nil, _ w: inout JSONWriter) {
        w.beginObject()
        pair("auto_renew_product_id", s.renewalProductID.rawValue, &w)
        pair("auto_renew_status", s.autoRenew ? "1" : "0", &w)
        if let intent = s.expirationIntent { pair("expiration_intent", String(intent.rawValue), &w) }
        if let grace = s.gracePeriodExpiresDate { dates("grace_period_expires_date", grace, &w) }
        pair("is_in_billing_retry_period", s.isInBillingRetry ? "1" : "0", &w)
        if let offer, offer.type == .code, let name = offer.id { pair("offer_code_ref_name", name.rawValue, &w) }
        pair("original_transaction_id", s.originalID.description, &w)
        if let consent {
            pair("price_consent_status", String(consent.priceIncreaseStatus), &w)
            pair("price_increase_status", String(consent.priceIncreaseStatus), &w)
        }
        pair("product_id", s.productID.rawValue, &w)
        if let offer, offer.type == .promotional, let id = offer.id { pair("promotional_offer_id", id.rawValue, &w) }
        w.endObject()
    }

    private static func pair(_ key: StaticString, _ value: String, _ w: inout JSONWriter) {
        w.key(key)
        w.string(value)
    }

    /// `name`, `name_ms` and `name_pst`.
    private static func dates(_ name: String, _ t: Timestamp, _ w: inout JSONWriter) {
        w.key(name)
        w.string(VerifyReceiptDate.gmt(t))
        w.key(name + "_ms")
        w.string(VerifyReceiptDate.milliseconds(t))
        w.key(name + "_pst")
        w.string(VerifyReceiptDate.pacific(t))
    }
}

/// The verifyReceipt engine `iapctl serve` installs for `POST /verifyReceipt` and
/// `POST /sandbox/verifyReceipt`. Serve answers from a reading session, so its requests are
/// not recorded as events and do not fire `verification` faults (`verify-receipt` does both).
public struct ReceiptVerificationEngine: ReceiptVerifying {
    public init() {}

    public func verifyReceipt(_ request: VerifyReceiptRequest, session: StoreSession) throws -> [UInt8] {
        try ReceiptVerification.response(request, session: session).body
    }
}
