import IAPHTTP

/// The endpoints of `iapctl serve`: the App Store Server API over the store's transactions, the
/// legacy `verifyReceipt`, and a health check, as a `Router`.
///
/// Every handler that reads the store does so through `reader`, inside one consistent view
/// under the store's shared lock. Signing, receipt verification and subscription status are
/// hooks (`TransactionSigner`, `ReceiptVerifying`, `SubscriptionStatusResolving`) so the engines
/// that own them plug in without the server changing. A route whose hook is missing still
/// validates its request and answers 400 or 404 as Apple would, then 501 for the part it cannot
/// produce; it never answers with made-up signed data.
///
/// Which transactions Apple's server knows: the App Store records purchases, not the device's
/// queue. A transaction that failed, is deferred or still purchasing never reached it.
/// `GET /transactions/{id}` answers for purchased and restored transactions (a backend may be
/// sent any id its app saw); the history and subscription statuses list the App Store's own
/// records only: purchases that started an ownership, charged again, or renewed, not restored
/// copies nor the free re-delivery of something already owned (see `isInHistory`).
public struct AppStoreServerAPI: Sendable {
    public let reader: any StoreReading
    public var tokenVerifier: any BearerTokenVerifier
    public var signer: (any TransactionSigner)?
    /// Where the mutating endpoints (Finish Transaction, Set App Account Token, ...) apply their
    /// commands; nil answers them 501.
    public var writer: (any StoreWriting)?
    /// The app's notification URL (`serve --webhook`); nil answers Request a Test Notification
    /// 404 4040007, as Apple does for an app without one.
    public var notificationURL: String?
    /// The store's signed notifications, for the notification endpoints; nil answers them 501.
    public var notificationHistory: (any NotificationHistorySource)?
    /// How the Retention Messaging performance test calls the realtime URL; nil answers it 501.
    public var realtimeCaller: (any RealtimeCalling)?
    public var receiptVerifier: (any ReceiptVerifying)?
    public var subscriptionStatus: any SubscriptionStatusResolving
    /// `appAppleId` in responses; Apple leaves it out when the app has none (sandbox, Xcode).
    public var appAppleID: Int64?
    /// The wall clock in seconds, for JWT expiry only; IAPKit never reads it itself.
    public var now: @Sendable () -> Int64

    public init(
        reader: any StoreReading, tokenVerifier: any BearerTokenVerifier = AppStoreConnectTokenVerifier(),
        signer: (any TransactionSigner)? = nil, receiptVerifier: (any ReceiptVerifying)? = nil,
        subscriptionStatus: any SubscriptionStatusResolving = StoreSubscriptionStatus(), appAppleID: Int64? = nil,
        writer: (any StoreWriting)? = nil, now: @escaping @Sendable () -> Int64
    ) {
        self.reader = reader
        self.writer = writer
        self.tokenVerifier = tokenVerifier
        self.signer = signer
        self.receiptVerifier = receiptVerifier
        self.subscriptionStatus = subscriptionStatus
        self.appAppleID = appAppleID
        self.now = now
    }

    /// Every route, in the order `docs/serve.md` lists them. Every route but the health check and
    /// `verifyReceipt` (which Apple serves without a bearer token) is authenticated here, once:
    /// the token is verified before the handler runs, and the handler gets its claims, so no
    /// handler can forget to check it. A refused token answers 401 before the request is read
    /// further, as Apple's server does.
    public func router() -> Router {
        var r = Router()
        /// A route behind the bearer token.
        func add(
            _ method: String, _ pattern: String,
            _ handler: @escaping @Sendable (HTTPRequest, BearerTokenClaims, PathParameters) -> HTTPResponse
        ) {
            r.add(method, pattern) { request, p in
                switch self.authenticate(request) {
                case .failure(let refusal): return refusal.response
                case .success(let claims): return handler(request, claims, p)
                }
            }
        }
        /// A route anyone may call (no bearer token).
        func open(_ method: String, _ pattern: String, _ handler: @escaping Router.Handler) {
            r.add(method, pattern, handler)
        }
        open("GET", "/health") { _, _ in AppStoreServerAPI.health() }
        add("GET", "/inApps/v1/transactions/{transactionId}") { request, claims, p in self.transactionInfo(request, claims, p) }
        add("GET", "/inApps/v1/history/{transactionId}") { request, claims, p in self.history(request, claims, p, version: 1) }
        add("GET", "/inApps/v2/history/{transactionId}") { request, claims, p in self.history(request, claims, p, version: 2) }
        add("GET", "/inApps/v1/subscriptions/{transactionId}") { request, claims, p in
            self.subscriptionStatuses(request, claims, p)
        }
        add("GET", "/inApps/v2/refund/lookup/{transactionId}") { request, claims, p in self.refundHistory(request, claims, p) }
        add("GET", "/inApps/v1/lookup/{orderId}") { request, claims, p in self.orderLookup(request, claims, p) }
        add("GET", "/inApps/v1/transactions/appTransactions/{transactionId}") { request, claims, p in
            self.appTransactionInfo(request, claims, p)
        }
        add("POST", "/inApps/v1/transactions/{transactionId}/finish") { request, claims, p in
            self.finishTransaction(request, claims, p)
        }
        add("PUT", "/inApps/v1/transactions/{originalTransactionId}/appAccountToken") { request, claims, p in
            self.setAppAccountToken(request, claims, p)
        }
        add("POST", "/inApps/v1/subscriptions/extend/mass") { request, claims, _ in self.massExtendRenewalDate(request, claims) }
        add("POST", "/inApps/v1/notifications/test") { request, claims, _ in self.requestTestNotification(request, claims) }
        add("POST", "/inApps/v1/notifications/history") { request, claims, _ in self.notificationHistoryPage(request, claims) }
        add("GET", "/inApps/v1/messaging/image/list") { request, claims, _ in self.imageList(request, claims) }
        add("PUT", "/inApps/v1/messaging/image/{imageIdentifier}") { request, claims, p in self.uploadImage(request, claims, p) }
        add("DELETE", "/inApps/v1/messaging/image/{imageIdentifier}") { request, claims, p in self.deleteImage(request, claims, p)
        }
        add("GET", "/inApps/v1/messaging/message/list") { request, claims, _ in self.messageList(request, claims) }
        add("PUT", "/inApps/v1/messaging/message/{messageIdentifier}") { request, claims, p in
            self.uploadMessage(request, claims, p)
        }
        add("DELETE", "/inApps/v1/messaging/message/{messageIdentifier}") { request, claims, p in
            self.deleteMessage(request, claims, p)
        }
        add("POST", "/inApps/v1/messaging/performanceTest") { request, claims, _ in self.initiatePerformanceTest(request, claims)
        }
        add("GET", "/inApps/v1/messaging/performanceTest/result/{requestId}") { request, claims, p in
            self.performanceTestResults(request, claims, p)
        }
        for method in ["GET", "PUT", "DELETE"] {
            add(method, "/inApps/v1/messaging/default/{productId}/{locale}") { request, claims, p in
                self.defaultMessage(request, claims, p, method: method)
            }
            add(method, "/inApps/v1/messaging/realtime/url") { request, claims, _ in
                self.realtimeURL(request, claims, method: method)
            }
        }
        add("GET", "/inApps/v1/notifications/test/{testNotificationToken}") { request, claims, p in
            self.testNotificationStatus(request, claims, p)
        }
        add("PUT", "/inApps/v1/subscriptions/extend/{originalTransactionId}") { request, claims, p in
            self.extendRenewalDate(request, claims, p)
        }
        add("GET", "/inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}") { request, claims, p in
            self.massExtensionStatus(request, claims, p)
        }
        add("PUT", "/inApps/v1/transactions/consumption/{transactionId}") { request, claims, p in
            self.consumptionInformation(request, claims, p, version: 1)
        }
        add("PUT", "/inApps/v2/transactions/consumption/{transactionId}") { request, claims, p in
            self.consumptionInformation(request, claims, p, version: 2)
        }
        open("POST", "/verifyReceipt") { request, _ in self.verifyReceipt(request, sandbox: false) }
        open("POST", "/sandbox/verifyReceipt") { request, _ in self.verifyReceipt(request, sandbox: true) }
        // Apple answers a verifyReceipt that is not a POST with status 21000, not with 405.
        open("GET", "/verifyReceipt") { request, _ in self.verifyReceipt(request, sandbox: false) }
        open("GET", "/sandbox/verifyReceipt") { request, _ in self.verifyReceipt(request, sandbox: true) }
        return r
    }

    /// Whether a transaction is one of the App Store's own records, listed by the history and
    /// the subscription statuses: purchased, and the first of its ownership, charged, or a
    /// renewal. Restored transactions are the device's copies of such a record, and re-buying an
    /// owned non-consumable re-delivers the first purchase without a new one.
    public static func isInHistory(_ t: Transaction) -> Bool {
        guard case .purchased = t.state else { return false }
        return t.id == t.originalID || t.charged || t.reason == .renewal
    }

    /// Whether `GET /inApps/v1/transactions/{id}` knows a transaction: purchased or restored.
    public static func isKnown(_ t: Transaction) -> Bool {
        switch t.state {
        case .purchased, .restored: return true
        case .purchasing, .deferred, .failed: return false
        }
    }

    // MARK: - GET /health

    static func health() -> HTTPResponse {
        .json { w in
            w.beginObject()
            w.key("status")
            w.string("ok")
            w.endObject()
        }
    }

    // MARK: - GET /inApps/v1/transactions/{transactionId}

    func transactionInfo(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.transactionID(p) else { return Self.badTransactionID(p) }
        return reading { session in
            let t: Transaction
            switch try Self.lookUp(id, claims: claims, in: session) {
            case .failure(let refusal): return refusal.response
            case .success(let found): t = found
            }
            guard let signer else { return Self.noSigner() }
            let signed = try signer.signedTransaction(t, session: session)
            return .json { w in
                w.beginObject()
                w.key("signedTransactionInfo")
                w.string(signed)
                w.endObject()
            }
        }
    }

    // MARK: - GET /inApps/v1/history/{transactionId}, /inApps/v2/history/{transactionId}

    /// Get Transaction History; `version` 1 is the deprecated v1, which leaves out finished
    /// consumables (`TransactionHistoryQuery.leavesOutFinishedConsumables`).
    func history(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters, version: Int) -> HTTPResponse {
        guard let id = Self.transactionID(p) else { return Self.badTransactionID(p) }
        guard let items = request.queryItems() else {
            return AppStoreAPIError.generalBadRequest.response("The query has a malformed percent escape.")
        }
        var query: TransactionHistoryQuery
        switch TransactionHistoryQuery.parse(items) {
        case .failure(let e): return e.error.response(e.detail)
        case .success(let q): query = q
        }
        query.leavesOutFinishedConsumables = version == 1
        return reading { session in
            var query = query
            switch try Self.lookUp(id, claims: claims, in: session) {
            case .failure(let refusal): return refusal.response
            // The customer the id belongs to: a family member's id lists the member's history.
            case .success(let found): query.member = found.familyMember
            }
            let page = try Self.historyPage(query, in: session)
            guard let signer else { return Self.noSigner() }
            var signed: [String] = []
            signed.reserveCapacity(page.transactions.count)
            for t in page.transactions { signed.append(try signer.signedTransaction(t, session: session)) }
            let environment = signer.environment(session: session)
            return .json { w in
                w.beginObject()
                w.key("revision")
                w.string(page.revision.token)
                w.key("hasMore")
                w.bool(page.hasMore)
                w.key("bundleId")
                w.string(session.state.bundleID)
                if let appAppleID {
                    w.key("appAppleId")
                    w.int(appAppleID)
                }
                w.key("environment")
                w.string(environment)
                w.key("signedTransactions")
                w.beginArray()
                for s in signed { w.string(s) }
                w.endArray()
                w.endObject()
            }
        }
    }

    /// One page of history: up to 20 transactions after the revision in the query's order, and
    /// whether more follow. Walks ids from the boundary, so a page costs its own lookups (plus
    /// those the filters skip), not the whole store.
    public static func historyPage(_ q: TransactionHistoryQuery, in session: StoreSession) throws(StoreError) -> (
        transactions: [Transaction], hasMore: Bool, revision: HistoryRevision
    ) {
        let first = TransactionID.first.rawValue
        let end = session.state.nextTransactionID.rawValue
        var page: [Transaction] = []
        var hasMore = false
        func consider(_ id: UInt64) throws(StoreError) -> Bool {
            guard let t = try session.transaction(TransactionID(id)), isInHistory(t), q.matches(t) else { return true }
            if page.count == TransactionHistoryQuery.pageSize {
                hasMore = true
                return false
            }
            page.append(t)
            return true
        }
        switch q.sort {
        case .ascending:
            let boundary = q.revision?.boundary ?? 0
            var id = boundary >= first ? boundary &+ 1 : first
            while id < end && id != 0 {
                guard try consider(id) else { break }
                id += 1
            }
        case .descending:
            var id = min(end, q.revision?.boundary ?? UInt64.max)
            while id > first {
                id -= 1
                guard try consider(id) else { break }
            }
        }
        let initial: UInt64 = q.sort == .ascending ? 0 : UInt64.max
        let revision = HistoryRevision(boundary: page.last?.id.rawValue ?? q.revision?.boundary ?? initial)
        return (page, hasMore, revision)
    }

    // MARK: - GET /inApps/v1/subscriptions/{transactionId}

    func subscriptionStatuses(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.transactionID(p) else { return Self.badTransactionID(p) }
        guard let items = request.queryItems() else {
            return AppStoreAPIError.generalBadRequest.response("The query has a malformed percent escape.")
        }
        var wanted: Set<Int> = []
        for item in items where item.name == "status" {
            guard let n = Int(item.value), SubscriptionStatus(rawValue: n) != nil else {
                return AppStoreAPIError.invalidStatus.response("'\(HTTPRequestParser.printable(item.value))'; use 1 to 5")
            }
            wanted.insert(n)
        }
        return reading { session in
            let member: String?
            switch try Self.lookUp(id, claims: claims, in: session) {
            case .failure(let refusal): return refusal.response
            case .success(let found): member = found.familyMember
            }
            let groups = try Self.subscriptionGroups(in: session, member: member)
            guard let signer else { return Self.noSigner() }
            struct Item {
                let status: SubscriptionStatus
                let transaction: Transaction
                let signedTransaction: String
                let signedRenewal: String
            }
            var data: [(group: String, items: [Item])] = []
            for (group, latest) in groups {
                var items: [Item] = []
                for t in latest {
                    let status = Self.status(of: t, resolver: subscriptionStatus, session: session)
                    if !wanted.isEmpty && !wanted.contains(status.rawValue) { continue }
                    items.append(
                        Item(
                            status: status, transaction: t, signedTransaction: try signer.signedTransaction(t, session: session),
                            signedRenewal: try signer.signedRenewalInfo(t, session: session)))
                }
                if !items.isEmpty { data.append((group, items)) }
            }
            let environment = signer.environment(session: session)
            return .json { w in
                w.beginObject()
                w.key("environment")
                w.string(environment)
                w.key("bundleId")
                w.string(session.state.bundleID)
                if let appAppleID {
                    w.key("appAppleId")
                    w.int(appAppleID)
                }
                w.key("data")
                w.beginArray()
                for (group, items) in data {
                    w.beginObject()
                    w.key("subscriptionGroupIdentifier")
                    w.string(group)
                    w.key("lastTransactions")
                    w.beginArray()
                    for item in items {
                        w.beginObject()
                        w.key("status")
                        w.int(item.status.rawValue)
                        w.key("originalTransactionId")
                        w.string(item.transaction.originalID.description)
                        w.key("signedTransactionInfo")
                        w.string(item.signedTransaction)
                        w.key("signedRenewalInfo")
                        w.string(item.signedRenewal)
                        w.endObject()
                    }
                    w.endArray()
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
        }
    }

    /// The customer's auto-renewable subscriptions (the account's, or with `member` that family
    /// member's shared ones): for each group (sorted by identifier), the latest transaction of
    /// each subscription (one per original transaction id, in id order).
    public static func subscriptionGroups(in session: StoreSession, member: String? = nil) throws(StoreError) -> [(
        group: String, latest: [Transaction]
    )] {
        var latest: [TransactionID: Transaction] = [:]
        try session.forEachTransaction(TransactionFilter(member: member)) { t throws(StoreError) in
            guard t.productType == .autoRenewable, isInHistory(t) else { return }
            if let known = latest[t.originalID], known.id > t.id { return }
            latest[t.originalID] = t
        }
        var groups: [String: [Transaction]] = [:]
        for t in latest.values {
            let group = t.subscriptionGroup ?? session.catalog[t.productID]?.subscriptionGroup ?? t.productID.rawValue
            groups[group, default: []].append(t)
        }
        return groups.keys.sorted().map { key in (key, groups[key]!.sorted { $0.originalID < $1.originalID }) }
    }

    /// The `status` of a subscription's latest transaction. A family member's shared copy has
    /// the purchaser's subscription's status while the share lasts ("Provide the customer with
    /// service for the subscription based on the highest level of service where the state is
    /// subscribed", StoreKit, Product.SubscriptionInfo.status), revoked (5) once revoked, and
    /// otherwise what its own dates say.
    static func status(of t: Transaction, resolver: any SubscriptionStatusResolving, session: StoreSession)
        -> SubscriptionStatus
    {
        guard t.familyMember != nil, !t.isMemberPurchase else { return resolver.status(of: t, session: session) }
        if t.revocationDate != nil { return .revoked }
        guard let purchaser = session.state.purchaserSubscription(ofShared: t),
            let latest = try? session.transaction(purchaser.latestID)
        else { return StoreSubscriptionStatus().status(of: t, session: session) }
        return resolver.status(of: latest, session: session)
    }

    // MARK: - POST /verifyReceipt, /sandbox/verifyReceipt

    func verifyReceipt(_ request: HTTPRequest, sandbox: Bool) -> HTTPResponse {
        guard request.method == "POST" else {
            return Self.receiptStatus(VerifyReceiptRequest.unreadable, reason: "verifyReceipt takes a POST with a JSON body")
        }
        let parsed: VerifyReceiptRequest
        switch VerifyReceiptRequest.parse(body: request.body, sandbox: sandbox) {
        case .failure(let refusal): return Self.receiptStatus(refusal.status, reason: refusal.reason)
        case .success(let r): parsed = r
        }
        guard let receiptVerifier else {
            return .error(
                .notImplemented,
                message: "receipt verification is not available: this iapctl has no verifyReceipt engine installed")
        }
        do {
            let body = try reader.read { session in try receiptVerifier.verifyReceipt(parsed, session: session) }
            return HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
        } catch let error as StoreError {
            // REFERENCE section 6: 21100-21199 are internal errors, `is-retryable` says whether to
            // retry; a busy store is worth retrying, a damaged one is not.
            if case .busy = error { return Self.receiptStatus(21100, retryable: true, reason: error.description) }
            return Self.receiptStatus(21009, reason: error.description)
        } catch {
            return Self.receiptStatus(21009, reason: "\(error)")
        }
    }

    /// `{"status": N}` (with `is-retryable` for 211xx), HTTP 200 as Apple answers, and the reason
    /// in an `Iapctl-Reason` header for people reading the exchange.
    static func receiptStatus(_ status: Int, retryable: Bool? = nil, reason: String) -> HTTPResponse {
        var r = HTTPResponse.json { w in
            w.beginObject()
            w.key("status")
            w.int(status)
            if let retryable {
                w.key("is-retryable")
                w.bool(retryable)
            }
            w.endObject()
        }
        r.headers.add("Iapctl-Reason", reason)
        return r
    }

    // MARK: - Shared steps

    /// A refused request, ready to send.
    struct Refusal: Error {
        let response: HTTPResponse
    }

    /// The bearer token's claims, or the 401.
    func authenticate(_ request: HTTPRequest) -> Result<BearerTokenClaims, Refusal> {
        switch tokenVerifier.verify(authorization: request.headers["Authorization"], now: now()) {
        case .success(let claims): return .success(claims)
        case .failure(let error):
            var r = HTTPResponse.error(.unauthorized, message: error.message)
            r.headers.add("WWW-Authenticate", "Bearer realm=\"App Store Server API\"")
            return .failure(Refusal(response: r))
        }
    }

    static func transactionID(_ p: PathParameters) -> TransactionID? {
        p["transactionId"].flatMap { TransactionID(parsing: $0) }
    }

    static func badTransactionID(_ p: PathParameters) -> HTTPResponse {
        let given = HTTPRequestParser.printable(p["transactionId"] ?? "")
        return AppStoreAPIError.invalidTransactionId.response(
            "'\(given)' is not a decimal transaction identifier such as 2000000000000001.")
    }

    /// The transaction, if the token's app owns this store and the App Store knows it. Apple
    /// answers a token for another bundle id with the same 404 as an unknown id.
    static func lookUp(_ id: TransactionID, claims: BearerTokenClaims, in session: StoreSession) throws(StoreError) -> Result<
        Transaction, Refusal
    > {
        guard claims.bundleID == session.state.bundleID else {
            return .failure(
                Refusal(
                    response: AppStoreAPIError.transactionIdNotFound.response(
                        "The token's bid '\(HTTPRequestParser.printable(claims.bundleID))' is not this store's bundle id '\(session.state.bundleID)'."
                    )))
        }
        guard let t = try session.transaction(id), isKnown(t) else {
            return .failure(
                Refusal(
                    response: AppStoreAPIError.transactionIdNotFound.response(
                        "No purchased or restored transaction \(id) in this store.")))
        }
        return .success(t)
    }

    static func noSigner() -> HTTPResponse {
        .error(.notImplemented, message: "signed transactions are not available: this iapctl has no JWS signer installed")
    }

    /// Runs `body` on a consistent view of the store; store and signing failures become Apple's
    /// general internal errors (a busy store the retryable one).
    func reading(_ body: (StoreSession) throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try reader.read(body)
        } catch let error as StoreError {
            if case .busy = error {
                var r = AppStoreAPIError.generalInternalRetryable.response(error.description)
                r.headers.add("Retry-After", "1")
                return r
            }
            return AppStoreAPIError.generalInternal.response(error.description)
        } catch {
            return AppStoreAPIError.generalInternal.response("\(error)")
        }
    }
}
