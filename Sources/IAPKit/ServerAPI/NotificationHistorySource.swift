/// Where the App Store Server API's notification endpoints find the store's signed
/// notifications, oldest first (`iapctl serve` installs `StoreNotificationHistory`).
public protocol NotificationHistorySource: Sendable {
    func notifications(in session: StoreSession) throws -> [SignedNotification]
}
