/// Apple's App Store Server Notifications V2 types and the subtypes each may carry
/// (App Store Server Notifications, `notificationType` and `subtype`), and how
/// `iapctl notifications send` makes each one.
public enum NotificationTypes {
    /// One notification type: its subtypes, and whether it may come without one.
    public struct Entry: Sendable {
        public let type: String
        public let subtypes: [String]
        /// Whether the type is also sent with no subtype.
        public let bare: Bool
    }

    /// Every type Apple documents, alphabetically, with its subtypes as Apple lists them.
    public static let all: [Entry] = [
        Entry(type: "CONSUMPTION_REQUEST", subtypes: [], bare: true),
        Entry(type: "DID_CHANGE_RENEWAL_PREF", subtypes: ["UPGRADE", "DOWNGRADE"], bare: true),
        Entry(type: "DID_CHANGE_RENEWAL_STATUS", subtypes: ["AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED"], bare: false),
        Entry(type: "DID_FAIL_TO_RENEW", subtypes: ["GRACE_PERIOD"], bare: true),
        Entry(type: "DID_RENEW", subtypes: ["BILLING_RECOVERY"], bare: true),
        Entry(type: "EXPIRED", subtypes: ["VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE"], bare: true),
        Entry(type: "EXTERNAL_PURCHASE_TOKEN", subtypes: ["UNREPORTED"], bare: false),
        Entry(type: "GRACE_PERIOD_EXPIRED", subtypes: [], bare: true),
        Entry(type: "METADATA_UPDATE", subtypes: [], bare: true),
        Entry(type: "MIGRATION", subtypes: [], bare: true),
        Entry(type: "OFFER_REDEEMED", subtypes: ["INITIAL_BUY", "RESUBSCRIBE", "UPGRADE", "DOWNGRADE"], bare: true),
        Entry(type: "ONE_TIME_CHARGE", subtypes: [], bare: true),
        Entry(type: "PRICE_CHANGE", subtypes: [], bare: true),
        Entry(type: "PRICE_INCREASE", subtypes: ["PENDING", "ACCEPTED"], bare: false),
        Entry(type: "REFUND", subtypes: [], bare: true),
        Entry(type: "REFUND_DECLINED", subtypes: [], bare: true),
        Entry(type: "REFUND_REVERSED", subtypes: [], bare: true),
        Entry(type: "RENEWAL_EXTENDED", subtypes: [], bare: true),
        Entry(type: "RENEWAL_EXTENSION", subtypes: ["SUMMARY", "FAILURE"], bare: false),
        Entry(type: "RESCIND_CONSENT", subtypes: [], bare: true),
        Entry(type: "REVOKE", subtypes: [], bare: true),
        Entry(type: "SUBSCRIBED", subtypes: ["INITIAL_BUY", "RESUBSCRIBE"], bare: false),
        Entry(type: "TEST", subtypes: [], bare: true),
    ]

    public static func entry(_ type: String) -> Entry? { all.first { $0.type == type } }

    /// Every subtype of any type, for did-you-mean.
    public static var allSubtypes: [String] {
        var seen: [String] = []
        for e in all { for s in e.subtypes where !seen.contains(s) { seen.append(s) } }
        return seen
    }

    /// How `iapctl notifications send` makes a notification: through the state change that
    /// causes it where iapctl models one (the store then reflects it), otherwise on its own.
    public enum Cause: Equatable, Sendable {
        /// `auto-renew on|off`: DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_ENABLED / AUTO_RENEW_DISABLED.
        case autoRenew(on: Bool)
        /// `expire` (the user cancelled, the period ran out): EXPIRED VOLUNTARY.
        case expire
        /// `renew`: DID_RENEW.
        case renew
        /// `refund`: REFUND.
        case refund
        /// Extend a Subscription Renewal Date by one day: RENEWAL_EXTENDED.
        case extendRenewal
        /// Extend Subscription Renewal Dates for All Active Subscribers of the transaction's
        /// product by one day: RENEWAL_EXTENSION SUMMARY (and FAILURE for any it cannot extend).
        case massExtension
        /// Request a Test Notification: TEST.
        case test
        /// `refund request`: CONSUMPTION_REQUEST (issue 15).
        case refundRequest
        /// `refund decline` of the open request: REFUND_DECLINED.
        case refundDecline
        /// `refund reverse` of a refunded transaction: REFUND_REVERSED.
        case refundReverse
        /// `price-consent ID accept` of a pending price increase: PRICE_INCREASE ACCEPTED.
        case acceptPriceIncrease
        /// `refund` of the account's purchase shared with its family: REVOKE for each member's
        /// copy (and REFUND for the purchase).
        case revokeShared
        /// No state change: a `notificationSent` event carries the notification
        /// (`ServerAPIRequest.sendNotification`).
        case standalone
    }

    /// The cause of each type and subtype. Types iapctl does not model (METADATA_UPDATE, MIGRATION,
    /// ...), and cases whose cause needs a value the notification does not carry (PRICE_INCREASE
    /// PENDING needs the new price: use `iapctl price-increase`), are `.standalone`.
    public static func cause(_ n: ServerNotification) -> Cause {
        switch (n.type, n.subtype) {
        case ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"?): return .autoRenew(on: true)
        case ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"?): return .autoRenew(on: false)
        case ("EXPIRED", "VOLUNTARY"?): return .expire
        case ("DID_RENEW", nil): return .renew
        case ("REFUND", nil): return .refund
        case ("RENEWAL_EXTENDED", nil): return .extendRenewal
        case ("RENEWAL_EXTENSION", "SUMMARY"?): return .massExtension
        case ("TEST", nil): return .test
        case ("CONSUMPTION_REQUEST", nil): return .refundRequest
        case ("REFUND_DECLINED", nil): return .refundDecline
        case ("REFUND_REVERSED", nil): return .refundReverse
        case ("PRICE_INCREASE", "ACCEPTED"?): return .acceptPriceIncrease
        case ("REVOKE", nil): return .revokeShared
        default: return .standalone
        }
    }
}
