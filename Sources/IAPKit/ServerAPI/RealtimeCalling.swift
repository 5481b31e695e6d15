/// How the Retention Messaging performance test calls the configured realtime URL (`iapctl
/// serve` installs an HTTP client; IAPKit does no I/O): POST `body` and answer the wall-clock
/// milliseconds it took and Apple's `sendAttemptResult` for the answer.
public protocol RealtimeCalling: Sendable {
    func post(url: String, body: [UInt8]) -> (milliseconds: Int, result: String)
}
