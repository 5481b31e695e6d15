import IAPCrypto
import IAPHTTP

/// The query of `GET /inApps/v2/history/{transactionId}` (Apple's Get Transaction History): the
/// page position (`revision`), the order, and the filters, all of which must hold.
public struct TransactionHistoryQuery: Sendable, Equatable {
    public enum Sort: String, Sendable {
        case ascending = "ASCENDING"
        case descending = "DESCENDING"
    }

    /// Apple returns at most 20 transactions per response.
    public static let pageSize = 20

    public var revision: HistoryRevision?
    public var sort: Sort = .ascending
    public var productIDs: [ProductID] = []
    public var productTypes: [ProductType] = []
    public var subscriptionGroups: [String] = []
    /// `startDate` (inclusive) and `endDate` (exclusive) on the purchase date, in milliseconds.
    public var startDate: Int64?
    public var endDate: Int64?
    /// `revoked`: true keeps refunded transactions only, false the others.
    public var revoked: Bool?
    /// `inAppOwnershipType`: FAMILY_SHARED keeps a family member's shared copies only, PURCHASED
    /// the customer's own purchases (the account's, or a member's `buy --member`).
    public var familyShared: Bool?
    /// Whose history: nil the account's, else the family member's. Not a query parameter: Apple's
    /// history is keyed by the customer the path's transaction id belongs to ("Get a customer's
    /// in-app purchase transaction history for your app", get-transaction-history), so a member's
    /// transaction id lists that member's transactions.
    public var member: String?
    /// Get Transaction History v1 leaves out consumables the app finished, unless refunded:
    /// it lists "Consumable in-app purchases if the transaction is refunded or revoked, or if the
    /// app hasn't finished processing the transaction" (get-transaction-history-v1).
    public var leavesOutFinishedConsumables = false

    public init() {}

    /// Apple's names for the product types (`productType=AUTO_RENEWABLE`).
    static func productType(named name: String) -> ProductType? {
        switch name {
        case "AUTO_RENEWABLE": return .autoRenewable
        case "NON_RENEWABLE": return .nonRenewing
        case "CONSUMABLE": return .consumable
        case "NON_CONSUMABLE": return .nonConsumable
        default: return nil
        }
    }

    /// Reads the query items; unknown parameters are ignored, as Apple does.
    public static func parse(_ items: [HTTPRequest.QueryItem]) -> Result<TransactionHistoryQuery, HistoryQueryError> {
        var q = TransactionHistoryQuery()
        for item in items {
            let v = item.value
            switch item.name {
            case "revision":
                guard let r = HistoryRevision(token: v) else {
                    return .failure(
                        HistoryQueryError(
                            .invalidRequestRevision,
                            "'\(HTTPRequestParser.printable(v))' is not a revision this server issued; pass the revision of the previous response"
                        ))
                }
                q.revision = r
            case "sort":
                guard let s = Sort(rawValue: v) else {
                    return .failure(
                        HistoryQueryError(.invalidSort, "'\(HTTPRequestParser.printable(v))'; use ASCENDING or DESCENDING"))
                }
                q.sort = s
            case "productId":
                guard !v.isEmpty, v.utf8.count <= 256 else {
                    return .failure(HistoryQueryError(.invalidProductId, "give a non-empty product identifier"))
                }
                q.productIDs.append(ProductID(v))
            case "productType":
                guard let t = productType(named: v) else {
                    return .failure(
                        HistoryQueryError(
                            .invalidProductType,
                            "'\(HTTPRequestParser.printable(v))'; use AUTO_RENEWABLE, NON_RENEWABLE, CONSUMABLE or NON_CONSUMABLE"
                        ))
                }
                q.productTypes.append(t)
            case "subscriptionGroupIdentifier":
                guard !v.isEmpty else {
                    return .failure(
                        HistoryQueryError(.invalidSubscriptionGroupIdentifier, "give a non-empty subscription group identifier"))
                }
                q.subscriptionGroups.append(v)
            case "startDate":
                guard let ms = Int64(v), ms >= 0 else {
                    return .failure(
                        HistoryQueryError(.invalidStartDate, "'\(HTTPRequestParser.printable(v))' is not milliseconds since 1970")
                    )
                }
                q.startDate = ms
            case "endDate":
                guard let ms = Int64(v), ms >= 0 else {
                    return .failure(
                        HistoryQueryError(.invalidEndDate, "'\(HTTPRequestParser.printable(v))' is not milliseconds since 1970"))
                }
                q.endDate = ms
            case "revoked":
                // Apple documents true/false; Apple's Python library sends str(bool), True/False.
                switch v {
                case "true", "True": q.revoked = true
                case "false", "False": q.revoked = false
                default:
                    return .failure(HistoryQueryError(.invalidRevoked, "'\(HTTPRequestParser.printable(v))'; use true or false"))
                }
            case "inAppOwnershipType":
                guard v == "PURCHASED" || v == "FAMILY_SHARED" else {
                    return .failure(
                        HistoryQueryError(
                            .invalidInAppOwnershipType, "'\(HTTPRequestParser.printable(v))'; use PURCHASED or FAMILY_SHARED"))
                }
                q.familyShared = v == "FAMILY_SHARED"
            default:
                continue
            }
        }
        if let s = q.startDate, let e = q.endDate, e <= s {
            return .failure(HistoryQueryError(.startDateAfterEndDate, "startDate \(s), endDate \(e)"))
        }
        return .success(q)
    }

    /// Whether a transaction passes every filter.
    public func matches(_ t: Transaction) -> Bool {
        if !productIDs.isEmpty && !productIDs.contains(t.productID) { return false }
        if !productTypes.isEmpty && !productTypes.contains(t.productType) { return false }
        if !subscriptionGroups.isEmpty && !subscriptionGroups.contains(t.subscriptionGroup ?? "") { return false }
        if let startDate, t.date.milliseconds < startDate { return false }
        if let endDate, t.date.milliseconds >= endDate { return false }
        if let revoked, revoked != (t.revocationDate != nil) { return false }
        if t.familyMember != member { return false }
        if let familyShared, familyShared != (t.inAppOwnershipType == "FAMILY_SHARED") { return false }
        if leavesOutFinishedConsumables && t.productType == .consumable && t.finished && t.revocationDate == nil { return false }
        return true
    }
}

/// A refused history query: the Apple error and what was wrong.
public struct HistoryQueryError: Error, Sendable, Equatable {
    public let error: AppStoreAPIError
    public let detail: String

    public init(_ error: AppStoreAPIError, _ detail: String) {
        self.error = error
        self.detail = detail
    }
}

/// The `revision` token of a history page: where the next page starts.
///
/// Apple's token is opaque; this one is too, and deterministic: 24 lowercase hex digits holding
/// the last transaction id returned and a CRC-32C that makes an altered token a 4000005
/// InvalidRequestRevisionError rather than a silently wrong page. In ascending order the next
/// page holds ids after it, in descending order ids before it.
public struct HistoryRevision: Sendable, Equatable {
    /// The last transaction id of the previous page; 0 before the first page.
    public let boundary: UInt64

    public init(boundary: UInt64) { self.boundary = boundary }

    public init?(token: String) {
        guard token.utf8.count == 24, let value = Hex.decode(token) else { return nil }
        var boundary: UInt64 = 0
        for b in value[0..<8] { boundary = boundary << 8 | UInt64(b) }
        // Re-encoding must give the same text: this checks the CRC and refuses upper case.
        guard HistoryRevision(boundary: boundary).token == token else { return nil }
        self.boundary = boundary
    }

    public var token: String {
        var bytes: [UInt8] = []
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: boundary >> UInt64(shift))) }
        let crc = CRC32C.checksum(bytes + Array("iapctl-history".utf8))
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        return Hex.encode(bytes)
    }
}
