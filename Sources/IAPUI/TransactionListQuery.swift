import IAPHTTP
import IAPKit

/// The query of `GET /ui/api/transactions`: which page of which transactions.
///
/// `offset` and `limit` page through the matches newest first; `product`, `state`, `account`
/// and `member` narrow them (empty means any). `account` is an account name, matched as
/// `--account NAME` makes user ids (its SHA-256), or a user id itself.
package struct TransactionListQuery: Sendable, Equatable {
    package var offset = 0
    package var limit = TransactionListQuery.defaultLimit
    package var product: ProductID?
    package var state: String?
    package var account: String?
    package var member: String?

    package static let defaultLimit = 100
    /// The most rows one request returns: a screenful many times over, and a bounded response.
    package static let maximumLimit = 500

    package init() {}

    /// Reads the query string; a bad value is a one-line message naming it and the fix.
    package init(_ request: HTTPRequest) throws(UIRequestError) {
        guard let items = request.queryItems() else {
            throw .badRequest("malformed query string '\(request.query ?? "")'; use offset=0&limit=100&product=ID")
        }
        for item in items {
            let value = item.value
            switch item.name {
            case "offset":
                guard let n = Int(value), n >= 0 else {
                    throw .badRequest("offset '\(value)' is not a row number; give 0 or more")
                }
                offset = n
            case "limit":
                guard let n = Int(value), (1...Self.maximumLimit).contains(n) else {
                    throw .badRequest("limit '\(value)' is out of range; give 1 to \(Self.maximumLimit)")
                }
                limit = n
            case "product": product = value.isEmpty ? nil : ProductID(value)
            case "state":
                guard value.isEmpty || TransactionState.allNames.contains(value) else {
                    throw .badRequest(
                        "unknown state '\(value)'; give one of \(TransactionState.allNames.joined(separator: ", "))")
                }
                state = value.isEmpty ? nil : value
            case "account": account = value.isEmpty ? nil : value
            case "member": member = value.isEmpty ? nil : value
            default:
                throw .badRequest(
                    "unknown query parameter '\(item.name)'; use offset, limit, product, state, account or member")
            }
        }
    }
}
