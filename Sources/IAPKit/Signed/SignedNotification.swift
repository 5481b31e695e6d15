import IAPJSON
import IAPTime

/// One App Store Server Notification V2, signed: what the App Store POSTs to a backend as
/// `{"signedPayload": "<JWS>"}` (App Store Server Notifications, responseBodyV2), made from one
/// event of the store's log.
public struct SignedNotification: Hashable, Sendable {
    /// The `seq` of the event it reports.
    public let seq: UInt64
    /// The event's date: the notification's `signedDate`.
    public let date: Timestamp
    public let notificationType: String
    public let subtype: String?
    public let notificationUUID: String
    /// The transaction in `data.signedTransactionInfo`; nil for TEST.
    public let transactionID: TransactionID?
    /// The compact JWS of the `responseBodyV2DecodedPayload`.
    public let signedPayload: String

    public init(
        seq: UInt64, date: Timestamp, notificationType: String, subtype: String?, notificationUUID: String,
        transactionID: TransactionID?, signedPayload: String
    ) {
        self.seq = seq
        self.date = date
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.transactionID = transactionID
        self.signedPayload = signedPayload
    }

    /// The body the App Store POSTs: `{"signedPayload":"..."}`.
    public var requestBody: [UInt8] {
        var w = JSONWriter(capacity: signedPayload.utf8.count + 24)
        w.beginObject()
        w.key("signedPayload")
        w.string(signedPayload)
        w.endObject()
        return w.bytes
    }
}
