import IAPJSON

/// Where `iapctl serve --webhook` finds what to POST: every notification with a sequence number
/// after `since`, oldest first, each with the exact request body to send.
///
/// `iapctl serve` installs `SignedNotificationSource`: signed App Store Server Notifications V2
/// (`{"signedPayload": "<JWS>"}`, docs/signed.md). `StoreEventNotificationSource` delivers the
/// store's raw event log instead (tests use it). The source reads through the session it is
/// given, so the webhook sees whole commits only.
public protocol NotificationSource: Sendable {
    func notifications(since: UInt64, in session: StoreSession) throws -> [(seq: UInt64, body: [UInt8])]
}

/// The store's events (`iapctl events`) as notifications: each body is one event's JSON object,
/// the line `iapctl events` prints, and its sequence number is the event's `seq`.
public struct StoreEventNotificationSource: NotificationSource {
    public init() {}

    public func notifications(since: UInt64, in session: StoreSession) throws -> [(seq: UInt64, body: [UInt8])] {
        var sink = LineCollector()
        try session.events(since: since, into: &sink)
        sink.finish()
        var out: [(seq: UInt64, body: [UInt8])] = []
        for line in sink.lines {
            guard let seq = (try? JSONParser.parse(line))?["seq"]?.int64Value, seq > 0 else {
                throw StoreError.damaged(path: session.storePath, problem: "an event line has no seq")
            }
            out.append((UInt64(seq), line))
        }
        return out
    }

    /// Splits the streamed JSON Lines into lines.
    private struct LineCollector: ByteSink {
        var lines: [[UInt8]] = []
        var partial: [UInt8] = []

        mutating func write(_ bytes: [UInt8]) throws(StoreError) {
            for b in bytes {
                if b == 0x0A {
                    lines.append(partial)
                    partial.removeAll(keepingCapacity: true)
                } else {
                    partial.append(b)
                }
            }
        }

        mutating func finish() {
            if !partial.isEmpty { lines.append(partial) }
        }
    }
}
