import IAPCrypto
import IAPTime

/// The `notificationUUID` of a notification: "a unique identifier for the notification" (App
/// Store Server Notifications, notificationUUID), which a backend uses to drop duplicates when
/// the App Store retries.
///
/// Apple's are random; iapctl's are derived from the store (SHA-256 of the bundle id, the event's
/// sequence number and date), so the same store gives the same notifications and a webhook retry
/// carries the same UUID. Formatted as RFC 9562 UUID version 8 (the version for custom,
/// hash-based UUIDs), lowercase 8-4-4-4-12 hex as Apple writes them.
public enum NotificationUUID {
    public static func make(bundleID: String, seq: UInt64, date: Timestamp) -> String {
        var bytes = Array(SHA256.hash(Array("iapctl notification \(bundleID) \(seq) \(date.milliseconds)".utf8)).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Hex.encode(bytes)
        var out = ""
        for (i, ch) in hex.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append("-") }
            out.append(ch)
        }
        return out
    }
}
