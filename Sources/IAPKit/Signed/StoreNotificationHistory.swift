import IAPTime
import Synchronization

/// The store's notifications for the App Store Server API's notification endpoints (Get Test
/// Notification Status; `NotificationHistorySource`): `NotificationLog` signed with the store's
/// chain and `appAppleId`, the very bytes `iapctl notifications` lists and the webhook posts.
///
/// The log is a function of the event history, and history only grows by events, so the signed
/// list is held for the store's `(nextEventSeq, nextTransactionID, clock)`: while no event is
/// added, Get Notification History pages through the held list instead of replaying and signing
/// the whole log per request (issue 13 point 6). Any commit moves `nextEventSeq`, so the next
/// request rebuilds it.
public struct StoreNotificationHistory: NotificationHistorySource {
    public let signer: StoreTransactionSigner
    public let appAppleID: Int64?
    private let held = HeldLog()

    public init(signer: StoreTransactionSigner, appAppleID: Int64?) {
        self.signer = signer
        self.appAppleID = appAppleID
    }

    public func notifications(in session: StoreSession) throws -> [SignedNotification] {
        let key = HeldLog.Key(
            nextEventSeq: session.state.nextEventSeq, nextTransactionID: session.state.nextTransactionID,
            clock: session.state.clock)
        if let list = held.list(for: key) { return list }
        let list = try NotificationLog.notifications(since: 0, in: session, signer: signer, appAppleID: appAppleID)
        held.hold(list, for: key)
        return list
    }

    /// The last signed list and the history point it was built at.
    final class HeldLog: Sendable {
        struct Key: Hashable, Sendable {
            let nextEventSeq: UInt64
            let nextTransactionID: TransactionID
            let clock: Timestamp
        }

        private let last = Mutex<(key: Key, list: [SignedNotification])?>(nil)

        func list(for key: Key) -> [SignedNotification]? {
            last.withLock { held in held?.key == key ? held?.list : nil }
        }

        func hold(_ list: [SignedNotification], for key: Key) { last.withLock { $0 = (key, list) } }
    }
}
