import IAPCrypto
import IAPHTTP
import IAPJSON

/// The App Store Server API endpoints over the store's own records beyond a single transaction:
/// Get Refund History, Look Up Order ID, Get App Transaction Info and Finish Transaction
/// (docs/server-api.md, sections 2.4, 2.5, 2.12, 2.13).
extension AppStoreServerAPI {
    // MARK: - GET /inApps/v2/refund/lookup/{transactionId}

    /// "A list of transactions that the App Store refunded for a customer ... up to 20 ... sorted
    /// in ascending order by revocationDate" (get-refund-history), App Store-approved refunds of
    /// any product type. `revision` pages on, and the last page's revision later returns only
    /// refunds that are new since.
    func refundHistory(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.transactionID(p) else { return Self.badTransactionID(p) }
        guard let items = request.queryItems() else {
            return AppStoreAPIError.generalBadRequest.response("The query has a malformed percent escape.")
        }
        var after: RefundRevision?
        for item in items where item.name == "revision" {
            guard let r = RefundRevision(token: item.value) else {
                return AppStoreAPIError.invalidRequestRevision.response(
                    "'\(HTTPRequestParser.printable(item.value))' is not a revision this server issued; pass the revision of the previous response"
                )
            }
            after = r
        }
        return reading { session in
            let member: String?
            switch try Self.lookUp(id, claims: claims, in: session) {
            case .failure(let refusal): return refusal.response
            case .success(let found): member = found.familyMember
            }
            var refunded: [Transaction] = []
            // The customer's refunds: a family member's id lists the member's. A member's shared
            // copy revoked with FAMILY_REVOKE is not a refund of the member's (the purchaser was
            // refunded, or the member left), so it is not listed: "The response only includes App
            // Store-approved refunds" (get-refund-history).
            try session.forEachTransaction(TransactionFilter(member: member)) { t throws(StoreError) in
                guard Self.isInHistory(t), t.inAppOwnershipType == "PURCHASED", let revoked = t.revocationDate else { return }
                if let after, (UInt64(revoked.milliseconds), t.id.rawValue) <= (after.date, after.id) { return }
                refunded.append(t)
            }
            refunded.sort { ($0.revocationDate!, $0.id) < ($1.revocationDate!, $1.id) }
            let hasMore = refunded.count > TransactionHistoryQuery.pageSize
            let page = refunded.prefix(TransactionHistoryQuery.pageSize)
            let revision =
                page.last.map { RefundRevision(date: UInt64($0.revocationDate!.milliseconds), id: $0.id.rawValue) } ?? after
                ?? RefundRevision(date: 0, id: 0)
            guard let signer else { return Self.noSigner() }
            var signed: [String] = []
            for t in page { signed.append(try signer.signedTransaction(t, session: session)) }
            return .json { w in
                w.beginObject()
                w.key("signedTransactions")
                w.beginArray()
                for s in signed { w.string(s) }
                w.endArray()
                w.key("revision")
                w.string(revision.token)
                w.key("hasMore")
                w.bool(hasMore)
                w.endObject()
            }
        }
    }

    // MARK: - GET /inApps/v1/lookup/{orderId}

    /// The transactions of an order (`OrderIdentifier`). An order id the store has not issued is
    /// not an error: Apple answers 200 with `status` 1 (OrderLookupStatus "invalid") and no
    /// transactions.
    func orderLookup(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        let orderID = p["orderId"] ?? ""
        return reading { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            var found: [Transaction] = []
            if let id = OrderIdentifier.transactionID(of: orderID), let t = try session.transaction(id),
                OrderIdentifier.of(t) == orderID
            {
                found.append(t)
            }
            guard let signer else { return Self.noSigner() }
            var signed: [String] = []
            for t in found { signed.append(try signer.signedTransaction(t, session: session)) }
            return .json { w in
                w.beginObject()
                w.key("status")
                w.int(found.isEmpty ? 1 : 0)
                w.key("signedTransactions")
                w.beginArray()
                for s in signed { w.string(s) }
                w.endArray()
                w.endObject()
            }
        }
    }

    // MARK: - GET /inApps/v1/transactions/appTransactions/{transactionId}

    /// The customer's signed AppTransaction, found through any of their transaction ids.
    func appTransactionInfo(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.transactionID(p) else { return Self.badTransactionID(p) }
        return reading { session in
            if case .failure(let refusal) = try Self.lookUp(id, claims: claims, in: session) { return refusal.response }
            guard let signer else { return Self.noSigner() }
            let signed = try signer.signedAppTransaction(session: session, appAppleID: appAppleID)
            return .json { w in
                w.beginObject()
                w.key("signedAppTransactionInfo")
                w.string(signed)
                w.endObject()
            }
        }
    }

    // MARK: - POST /inApps/v1/transactions/{transactionId}/finish

    /// "Notifies the App Store server that your system has finished processing the customer's
    /// transaction" (finish-transaction): the store's `finish`, as `iapctl finish TXID`. A
    /// transaction already finished answers 200 and changes nothing; one the App Store never
    /// knew (purchasing, deferred, failed) is 404 like an unknown id.
    func finishTransaction(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.transactionID(p) else { return Self.badTransactionID(p) }
        return writing { session in
            let t: Transaction
            switch try Self.lookUp(id, claims: claims, in: session) {
            case .failure(let refusal): return refusal.response
            case .success(let found): t = found
            }
            if t.isInQueue { try session.apply(.finish([t.id])) }
            return HTTPResponse(status: .ok)
        }
    }

    // MARK: - Shared steps

    /// The 404 Apple answers a token for another app with.
    static func wrongApp(_ claims: BearerTokenClaims, _ session: StoreSession) -> Refusal? {
        guard claims.bundleID != session.state.bundleID else { return nil }
        return Refusal(
            response: AppStoreAPIError.transactionIdNotFound.response(
                "The token's bid '\(HTTPRequestParser.printable(claims.bundleID))' is not this store's bundle id '\(session.state.bundleID)'."
            ))
    }

    /// Runs `body` in a writing session; without a writer the request is answered 501. Store
    /// errors become Apple's internal errors, and a refused command (a `StoreError` the machine
    /// threw) Apple's general bad request with its text.
    func writing(_ body: (StoreSession) throws -> HTTPResponse) -> HTTPResponse {
        guard let writer else {
            return .error(
                .notImplemented, message: "this server was started without a store writer; it answers read-only endpoints only")
        }
        do {
            return try writer.write(body)
        } catch let error as StoreError {
            switch error {
            case .busy:
                var r = AppStoreAPIError.generalInternalRetryable.response(error.description)
                r.headers.add("Retry-After", "1")
                return r
            case .unknownProduct, .productNotInStorefront, .unknownTransaction, .cannotFinish, .alreadyFinished,
                .quantityOutOfRange, .quantityNotAllowed, .unknownSetting, .badSettingValue, .refused, .missing, .badArgument,
                .badInput, .family, .backdate:
                return AppStoreAPIError.generalBadRequest.response(error.description)
            case .damaged, .badCatalog, .unreadable, .io, .storePath, .cannotCreate, .unavailable:
                return AppStoreAPIError.generalInternal.response(error.description)
            }
        } catch {
            return AppStoreAPIError.generalInternal.response("\(error)")
        }
    }
}

/// The `revision` of a refund history page: the revocation date and id of the last refund
/// returned, with a CRC-32C so an altered token is 4000005 rather than a wrong page (like
/// `HistoryRevision`; 40 lowercase hex digits).
struct RefundRevision: Equatable {
    let date: UInt64
    let id: UInt64

    init(date: UInt64, id: UInt64) {
        self.date = date
        self.id = id
    }

    init?(token: String) {
        guard token.utf8.count == 40, let value = Hex.decode(token) else { return nil }
        var date: UInt64 = 0
        var id: UInt64 = 0
        for b in value[0..<8] { date = date << 8 | UInt64(b) }
        for b in value[8..<16] { id = id << 8 | UInt64(b) }
        guard RefundRevision(date: date, id: id).token == token else { return nil }
        self.date = date
        self.id = id
    }

    var token: String {
        var bytes: [UInt8] = []
        for v in [date, id] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
        }
        let crc = CRC32C.checksum(bytes + Array("iapctl-refunds".utf8))
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        return Hex.encode(bytes)
    }
}
