import IAPKit

#if canImport(Glibc)
    import Glibc
#endif

/// `RealtimeCalling` for `iapctl serve`: POSTs to the loopback realtime URL with the webhook's
/// HTTP client and measures the call on the monotonic clock.
package struct RealtimeHTTPCaller: RealtimeCalling {
    package init() {}

    package func post(url: String, body: [UInt8]) -> (milliseconds: Int, result: String) {
        guard let target = try? WebhookURL(parsing: url) else { return (0, "OTHER") }
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let outcome = HTTPWebhookClient(url: target, timeout: 5).post(body)
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let ms = (Int(end.tv_sec) - Int(start.tv_sec)) * 1000 + (Int(end.tv_nsec) - Int(start.tv_nsec)) / 1_000_000
        return (max(0, ms), outcome.sendAttemptResult)
    }
}
