import IAPKit

#if canImport(Glibc)
    import Glibc
#endif

/// How a failed webhook POST is retried: `attempts` tries in all, the first retry `backoff`
/// seconds after the failure, each later one twice as long after the previous (1, 2, 4, 8 s by
/// default). No jitter, so the schedule is the same every time. Apple retries App Store Server
/// Notifications V2 on its own, longer schedule (1, 12, 24, 48, 72 hours); a test server wants
/// minutes at most, so the shape is kept and the scale shortened.
package struct RetryPolicy: Equatable {
    package var attempts: Int = 5
    package var backoff: Double = 1

    package init(attempts: Int = 5, backoff: Double = 1) {
        self.attempts = attempts
        self.backoff = backoff
    }

    /// The pause after failed attempt `n` (1-based) before the next one.
    package func delay(afterAttempt n: Int) -> Double {
        backoff * Double(1 << min(max(n - 1, 0), 30))
    }

    /// Every pause of a notification that fails every attempt.
    package var schedule: [Double] { attempts > 1 ? (1..<attempts).map(delay(afterAttempt:)) : [] }
}

/// Posts each new notification to the webhook, in order, with retries.
///
/// It reads the `NotificationSource` through the store reader (whole commits only) after each
/// commit of the store, which it learns from inotify on the store directory (the commit renames
/// a new `state` file into it), and at least every `interval` seconds. Waiting is injected
/// (`wait` returns true when the server is stopping), so tests run the retry schedule without
/// sleeping.
package final class WebhookDeliverer {
    package let source: any NotificationSource
    package let reader: any StoreReading
    package let transport: any WebhookTransport
    package let policy: RetryPolicy
    /// Pauses for a retry; true means "stop now".
    package let wait: (Double) -> Bool
    package let log: (String) -> Void
    /// The sequence number of the last notification handled (delivered or given up on).
    package private(set) var cursor: UInt64
    /// The journal length at the last look (nil before the first).
    private var seenJournalLength: UInt64?
    /// Called after each attempt with the notification's `seq` and Apple's `sendAttemptResult`
    /// for it (`serve` records it in the store for Get Test Notification Status).
    package var onAttempt: ((UInt64, String) -> Void)?

    package init(
        source: any NotificationSource, reader: any StoreReading, transport: any WebhookTransport, policy: RetryPolicy,
        since: UInt64,
        wait: @escaping (Double) -> Bool, log: @escaping (String) -> Void
    ) {
        self.source = source
        self.reader = reader
        self.transport = transport
        self.policy = policy
        self.cursor = since
        self.wait = wait
        self.log = log
    }

    /// Delivers every notification after the cursor. Returns false when told to stop while
    /// waiting to retry.
    @discardableResult
    package func deliverPending() -> Bool {
        let pending: [(seq: UInt64, body: [UInt8])]
        do {
            let since = cursor
            let seen = seenJournalLength
            // Every notification stems from an event, and every event is a journal record: a
            // journal that has not grown since the last look holds nothing new, and asking the
            // source (which scans the journal) can wait.
            let found = try reader.read { session -> (UInt64, [(seq: UInt64, body: [UInt8])])? in
                guard session.journalLength != seen else { return nil }
                return (session.journalLength, try source.notifications(since: since, in: session))
            }
            guard let found else { return true }
            seenJournalLength = found.0
            pending = found.1
        } catch {
            log("webhook: cannot read the store (\(error)); will try again")
            return true
        }
        for item in pending {
            var attempt = 1
            while true {
                let outcome = transport.post(item.body)
                onAttempt?(item.seq, outcome.sendAttemptResult)
                switch outcome {
                case .delivered:
                    break
                case .failed(let reason):
                    if attempt >= policy.attempts {
                        log(
                            "webhook: gave up on notification \(item.seq) after \(attempt) attempt\(attempt == 1 ? "" : "s"): \(reason)"
                        )
                        break
                    }
                    if wait(policy.delay(afterAttempt: attempt)) { return false }
                    attempt += 1
                    continue
                }
                break
            }
            cursor = item.seq
        }
        return true
    }

    /// Delivers after every commit until `stop`.
    package func run(until stop: StopSignal, watching storePath: String, interval: Double = 1) {
        let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if watch >= 0 { _ = inotify_add_watch(watch, storePath, UInt32(IN_MOVED_TO)) }
        defer { if watch >= 0 { close(watch) } }
        var drain = [UInt8](repeating: 0, count: 4096)
        while true {
            guard deliverPending() else { return }
            let ready = Socket.waitReadable(watch >= 0 ? [stop.readFD, watch] : [stop.readFD], timeout: interval)
            if ready.contains(stop.readFD) { return }
            if watch >= 0 && ready.contains(watch) {
                while drain.withUnsafeMutableBytes({ read(watch, $0.baseAddress, $0.count) }) > 0 {}
            }
        }
    }
}
