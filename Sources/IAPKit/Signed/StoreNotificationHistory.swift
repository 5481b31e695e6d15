/// The store's notifications for the App Store Server API's notification endpoints (Get Test
/// Notification Status; `NotificationHistorySource`): `NotificationLog` signed with the store's
/// chain and `appAppleId`, the very bytes `iapctl notifications` lists and the webhook posts.
public struct StoreNotificationHistory: NotificationHistorySource {
    public let signer: StoreTransactionSigner
    public let appAppleID: Int64?

    public init(signer: StoreTransactionSigner, appAppleID: Int64?) {
        self.signer = signer
        self.appAppleID = appAppleID
    }

    public func notifications(in session: StoreSession) throws -> [SignedNotification] {
        try NotificationLog.notifications(since: 0, in: session, signer: signer, appAppleID: appAppleID)
    }
}
