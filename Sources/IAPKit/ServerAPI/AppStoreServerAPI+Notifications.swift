import IAPHTTP
import IAPJSON

/// Request a Test Notification and Get Test Notification Status (docs/server-api.md, section
/// 2.8). The request is one commit (event `testNotificationRequested`, whose notification is the
/// TEST one, so the webhook posts it like any other); its token is that notification's
/// `notificationUUID`. The status answers the signed TEST notification with the webhook's
/// attempts, which `serve` records in the store as it makes them.
extension AppStoreServerAPI {
    // MARK: - POST /inApps/v1/notifications/test

    func requestTestNotification(_ request: HTTPRequest, _ claims: BearerTokenClaims) -> HTTPResponse {
        guard notificationURL != nil else {
            return AppStoreAPIError.serverNotificationURLNotFound.response(
                "This server has no notification URL: start 'iapctl serve' with --webhook URL.")
        }
        return writing { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            let effects = try session.apply(.serverAPI(.requestTestNotification))
            guard let event = effects.events.last else {
                return AppStoreAPIError.generalInternal.response("The test notification request left no event.")
            }
            let token = NotificationUUID.make(bundleID: session.state.bundleID, seq: event.seq, date: event.date)
            return .json { w in
                w.beginObject()
                w.key("testNotificationToken")
                w.string(token)
                w.endObject()
            }
        }
    }

    // MARK: - GET /inApps/v1/notifications/test/{testNotificationToken}

    func testNotificationStatus(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        let given = p["testNotificationToken"] ?? ""
        guard let token = AppAccountToken.token(for: UserID(given)) else {
            return AppStoreAPIError.invalidTestNotificationToken.response(
                "'\(HTTPRequestParser.printable(given))' is not a token Request a Test Notification returned (a UUID).")
        }
        guard let notificationHistory else {
            return .error(.notImplemented, message: "this server has no notification log installed")
        }
        return reading { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            guard
                let n = try notificationHistory.notifications(in: session).first(where: {
                    $0.notificationType == "TEST" && $0.notificationUUID == token
                })
            else {
                return AppStoreAPIError.testNotificationNotFound.response("No test notification has the token \(token).")
            }
            let attempts = session.state.sendAttempts?[n.seq] ?? []
            return .json { w in
                w.beginObject()
                w.key("signedPayload")
                w.string(n.signedPayload)
                w.key("sendAttempts")
                Self.write(attempts, into: &w)
                w.endObject()
            }
        }
    }

    /// `sendAttempts`: at most six, the last ones (Apple's first attempt and up to five retries).
    static func write(_ attempts: [SendAttempt], into w: inout JSONWriter) {
        w.beginArray()
        for a in attempts.suffix(6) {
            w.beginObject()
            w.key("attemptDate")
            w.int(a.date.milliseconds)
            w.key("sendAttemptResult")
            w.string(a.result)
            w.endObject()
        }
        w.endArray()
    }
}

extension AppStoreServerAPI {
    // MARK: - POST /inApps/v1/notifications/history

    /// Get Notification History: the store's notifications (`iapctl notifications`, byte for
    /// byte) in the date range of their `signedDate`, filtered, oldest first, 20 a page, each with
    /// the webhook's send attempts. The `paginationToken` names the last notification returned.
    func notificationHistoryPage(_ request: HTTPRequest, _ claims: BearerTokenClaims) -> HTTPResponse {
        guard let items = request.queryItems() else {
            return AppStoreAPIError.generalBadRequest.response("The query has a malformed percent escape.")
        }
        var after: UInt64 = 0
        for item in items where item.name == "paginationToken" {
            guard let token = HistoryRevision(token: item.value) else {
                return AppStoreAPIError.invalidPaginationToken.response(
                    "'\(HTTPRequestParser.printable(item.value))' is not a paginationToken this server issued.")
            }
            after = token.boundary
        }
        guard let body = Self.jsonObject(request) else { return Self.notJSONObject() }
        guard let notificationHistory else {
            return .error(.notImplemented, message: "this server has no notification log installed")
        }
        return reading { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            let query: NotificationHistoryQuery
            switch NotificationHistoryQuery.parse(body, now: session.state.clock.milliseconds) {
            case .failure(let e): return e.error.response(e.detail)
            case .success(let q): query = q
            }
            // `transactionId` limits the history "to this one customer": the account, or the
            // family member the id belongs to (a member's REVOKE and own purchases).
            var customer: String?
            if let id = query.transactionID {
                switch try Self.lookUp(id, claims: claims, in: session) {
                case .failure(let refusal): return refusal.response
                case .success(let found): customer = found.familyMember
                }
            }
            let attempts = session.state.sendAttempts ?? [:]
            var page: [SignedNotification] = []
            var hasMore = false
            for n in try notificationHistory.notifications(in: session) where n.seq > after {
                guard query.matches(n, attempts: attempts[n.seq] ?? []) else { continue }
                if query.transactionID != nil, let id = n.transactionID, try session.transaction(id)?.familyMember != customer {
                    continue
                }
                if page.count == TransactionHistoryQuery.pageSize {
                    hasMore = true
                    break
                }
                page.append(n)
            }
            return .json { w in
                w.beginObject()
                if hasMore, let last = page.last {
                    w.key("paginationToken")
                    w.string(HistoryRevision(boundary: last.seq).token)
                }
                w.key("hasMore")
                w.bool(hasMore)
                w.key("notificationHistory")
                w.beginArray()
                for n in page {
                    w.beginObject()
                    w.key("signedPayload")
                    w.string(n.signedPayload)
                    w.key("sendAttempts")
                    Self.write(attempts[n.seq] ?? [], into: &w)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
        }
    }
}
