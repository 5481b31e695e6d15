import IAPHTTP
import IAPJSON

/// The body of Get Notification History (`NotificationHistoryRequest`, App Store Server API):
/// a date range (both required, at most 180 days back), and at most one of a notification type
/// (with an optional subtype of that type) or a transaction id; `onlyFailures` keeps the
/// notifications that never reached the server.
public struct NotificationHistoryQuery: Sendable, Equatable {
    public var startDate: Int64
    public var endDate: Int64
    public var notificationType: String?
    public var subtype: String?
    public var transactionID: TransactionID?
    public var onlyFailures = false

    /// "Notification history is available for the past 180 days" (notificationhistoryrequest).
    public static let windowDays: Int64 = 180

    /// The 23 `notificationType` values and the subtypes each may have (App Store Server
    /// Notifications, notificationType and subtype).
    public static let subtypes: [String: [String]] = [
        "SUBSCRIBED": ["INITIAL_BUY", "RESUBSCRIBE"], "DID_CHANGE_RENEWAL_PREF": ["UPGRADE", "DOWNGRADE"],
        "DID_CHANGE_RENEWAL_STATUS": ["AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED"],
        "OFFER_REDEEMED": ["INITIAL_BUY", "RESUBSCRIBE", "UPGRADE", "DOWNGRADE"], "DID_RENEW": ["BILLING_RECOVERY"],
        "EXPIRED": ["VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE"],
        "DID_FAIL_TO_RENEW": ["GRACE_PERIOD"],
        "GRACE_PERIOD_EXPIRED": [], "PRICE_INCREASE": ["PENDING", "ACCEPTED"], "REFUND": [], "REFUND_DECLINED": [],
        "CONSUMPTION_REQUEST": [], "RENEWAL_EXTENDED": [], "REVOKE": [], "TEST": [], "RENEWAL_EXTENSION": ["SUMMARY", "FAILURE"],
        "REFUND_REVERSED": [], "EXTERNAL_PURCHASE_TOKEN": ["UNREPORTED"], "ONE_TIME_CHARGE": [], "RESCIND_CONSENT": [],
        "METADATA_UPDATE": [], "MIGRATION": [], "PRICE_CHANGE": [],
    ]

    /// Reads and checks the request against the store's clock `now` (ms), with Apple's codes.
    public static func parse(_ body: JSONValue, now: Int64) -> Result<NotificationHistoryQuery, HistoryQueryError> {
        guard let start = body["startDate"]?.int64Value, start >= 0 else {
            return .failure(HistoryQueryError(.invalidStartDate, "Give startDate in milliseconds since 1970."))
        }
        guard let end = body["endDate"]?.int64Value, end >= 0 else {
            return .failure(HistoryQueryError(.invalidEndDate, "Give endDate in milliseconds since 1970."))
        }
        guard end > start else {
            return .failure(HistoryQueryError(.startDateAfterEndDate, "startDate \(start), endDate \(end)"))
        }
        guard start >= now - windowDays * 86_400_000 else {
            return .failure(
                HistoryQueryError(
                    .startDateTooFarInPast, "startDate \(start) is more than 180 days before the store's clock (\(now))."))
        }
        var q = NotificationHistoryQuery(startDate: start, endDate: end)
        if let type = body["notificationType"], type != .null {
            guard let name = type.stringValue, subtypes[name] != nil else {
                return .failure(HistoryQueryError(.invalidNotificationType, "\(type.serialized()) is not a notificationType."))
            }
            q.notificationType = name
        }
        if let sub = body["notificationSubtype"], sub != .null {
            guard let name = sub.stringValue, let type = q.notificationType, subtypes[type]?.contains(name) == true else {
                return .failure(
                    HistoryQueryError(
                        .invalidNotificationType,
                        "notificationSubtype \(sub.serialized()) needs its notificationType (\(q.notificationType ?? "none given"))."
                    ))
            }
            q.subtype = name
        }
        if let id = body["transactionId"], id != .null {
            guard q.notificationType == nil else {
                return .failure(
                    HistoryQueryError(.multipleFiltersSupplied, "Give either transactionId or notificationType, not both."))
            }
            guard let text = id.stringValue, let parsed = TransactionID(parsing: text) else {
                return .failure(HistoryQueryError(.invalidTransactionId, "\(id.serialized()) is not a decimal transaction id."))
            }
            q.transactionID = parsed
        }
        if let failures = body["onlyFailures"], failures != .null {
            guard let flag = failures.boolValue else {
                return .failure(HistoryQueryError(.generalBadRequest, "onlyFailures must be true or false."))
            }
            q.onlyFailures = flag
        }
        return .success(q)
    }

    init(startDate: Int64, endDate: Int64) {
        self.startDate = startDate
        self.endDate = endDate
    }

    /// Whether a notification passes the filters (the transaction filter here: every
    /// notification about a transaction; the route keeps those of the id's customer, the
    /// account or a family member).
    public func matches(_ n: SignedNotification, attempts: [SendAttempt]) -> Bool {
        guard n.date.milliseconds >= startDate, n.date.milliseconds < endDate else { return false }
        if let notificationType, n.notificationType != notificationType { return false }
        if let subtype, n.subtype != subtype { return false }
        if transactionID != nil && n.transactionID == nil { return false }
        if onlyFailures && attempts.contains(where: { $0.result == "SUCCESS" }) { return false }
        return true
    }
}
