import IAPJSON

/// The payload of a notification's `signedPayload`: Apple's `responseBodyV2DecodedPayload` ("a
/// decoded payload that contains the version 2 notification data", App Store Server
/// Notifications).
///
/// `{"notificationType", "subtype" (only when the type has one), "notificationUUID", "data":
/// {"appAppleId" (only when the app has one), "bundleId", "bundleVersion", "environment",
/// "signedTransactionInfo", "signedRenewalInfo" (auto-renewable subscriptions), "status"
/// (auto-renewable subscriptions: 1 active ... 5 revoked)}, "version": "2.0", "signedDate"}`,
/// in the order the App Store writes them. `data` is the only one of Apple's mutually exclusive
/// `data`, `summary`, `externalPurchaseToken` and `appData` objects iapctl's events need.
public enum NotificationPayload {
    public struct Content: Sendable {
        public var notificationType: String
        public var subtype: String?
        public var notificationUUID: String
        public var appAppleID: Int64?
        public var bundleVersion: String
        /// Absent for TEST, which is about no transaction.
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
        public var status: SubscriptionStatus?
        /// RENEWAL_EXTENSION SUMMARY: the payload has `summary` instead of `data`.
        public var summary: MassExtension?
        /// CONSUMPTION_REQUEST's `data.consumptionRequestReason` (issue 15), when the request's
        /// reason is one of Apple's `ConsumptionRequestReason` values.
        public var consumptionRequestReason: String? = nil

        public init(
            notificationType: String, subtype: String?, notificationUUID: String, appAppleID: Int64?, bundleVersion: String,
            signedTransactionInfo: String?, signedRenewalInfo: String?, status: SubscriptionStatus?,
            summary: MassExtension? = nil
        ) {
            self.summary = summary
            self.notificationType = notificationType
            self.subtype = subtype
            self.notificationUUID = notificationUUID
            self.appAppleID = appAppleID
            self.bundleVersion = bundleVersion
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
            self.status = status
        }
    }

    public static func bytes(_ c: Content, context: SignedDataContext) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("notificationType")
        w.string(c.notificationType)
        if let subtype = c.subtype {
            w.key("subtype")
            w.string(subtype)
        }
        w.key("notificationUUID")
        w.string(c.notificationUUID)
        if let summary = c.summary {
            // notifications/summary: the request, the app, and the counts.
            w.key("summary")
            w.beginObject()
            w.key("requestIdentifier")
            w.string(summary.requestIdentifier)
            w.key("environment")
            w.string(context.environmentName)
            if let id = c.appAppleID {
                w.key("appAppleId")
                w.int(id)
            }
            w.key("bundleId")
            w.string(context.bundleID)
            w.key("productId")
            w.string(summary.productID.rawValue)
            if let storefronts = summary.storefronts {
                w.key("storefrontCountryCodes")
                w.beginArray()
                for code in storefronts { w.string(code) }
                w.endArray()
            }
            w.key("succeededCount")
            w.int(summary.succeeded)
            w.key("failedCount")
            w.int(summary.failed)
            w.endObject()
            w.key("version")
            w.string("2.0")
            w.key("signedDate")
            w.int(context.signedDate.milliseconds)
            w.endObject()
            return w.bytes
        }
        w.key("data")
        w.beginObject()
        if let id = c.appAppleID {
            w.key("appAppleId")
            w.int(id)
        }
        w.key("bundleId")
        w.string(context.bundleID)
        w.key("bundleVersion")
        w.string(c.bundleVersion)
        w.key("environment")
        w.string(context.environmentName)
        if let info = c.signedTransactionInfo {
            w.key("signedTransactionInfo")
            w.string(info)
        }
        if let renewal = c.signedRenewalInfo {
            w.key("signedRenewalInfo")
            w.string(renewal)
        }
        if let status = c.status {
            w.key("status")
            w.int(status.rawValue)
        }
        if let reason = c.consumptionRequestReason {
            w.key("consumptionRequestReason")
            w.string(reason)
        }
        w.endObject()
        w.key("version")
        w.string("2.0")
        w.key("signedDate")
        w.int(context.signedDate.milliseconds)
        w.endObject()
        return w.bytes
    }
}
