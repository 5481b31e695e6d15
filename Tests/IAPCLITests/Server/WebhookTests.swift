import Foundation
import IAPKit
import Testing

@testable import IAPCLI
@testable import IAPRuntime

/// A transport that answers from a script and records every body it was given.
final class ScriptedTransport: WebhookTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [WebhookAttempt]
    private(set) var posted: [String] = []

    init(_ script: [WebhookAttempt]) { self.script = script }

    func post(_ body: [UInt8]) -> WebhookAttempt {
        lock.lock()
        defer { lock.unlock() }
        posted.append(String(decoding: body, as: UTF8.self))
        return script.isEmpty ? .delivered(status: 200) : script.removeFirst()
    }
}

@Suite("Webhook delivery")
struct WebhookTests {
    /// A store with two purchases (events 2 to 5, after the creation event 1) and a deliverer over it whose waits are recorded.
    final class Fixture {
        let h = CLIHarness()
        var waits: [Double] = []
        var logs: [String] = []
        var stopAtWait: Int?

        init() {
            #expect(h.runInProcess(["buy", "com.x.coin42"]).code == 0)
            #expect(h.runInProcess(["buy", "com.x.coin210"]).code == 0)
        }

        func deliverer(_ transport: ScriptedTransport, policy: RetryPolicy = RetryPolicy(), since: UInt64 = 0) -> WebhookDeliverer
        {
            WebhookDeliverer(
                source: StoreEventNotificationSource(), reader: StoreReaderPool(path: h.store, lockTimeout: 1),
                transport: transport, policy: policy,
                since: since,
                wait: { [unowned self] seconds in
                    waits.append(seconds)
                    return stopAtWait == waits.count
                }, log: { [unowned self] in logs.append($0) })
        }

        func events() -> [String] { h.runInProcess(["events"]).stdout.split(separator: "\n").map(String.init) }
    }

    @Test("the retry schedule is exponential and deterministic: 1, 2, 4, 8 s by default")
    func schedule() {
        #expect(RetryPolicy().schedule == [1, 2, 4, 8])
        #expect(RetryPolicy(attempts: 3, backoff: 0.25).schedule == [0.25, 0.5])
        #expect(RetryPolicy(attempts: 1, backoff: 5).schedule == [])
        #expect(RetryPolicy(attempts: 4, backoff: 0).schedule == [0, 0, 0])
    }

    @Test("each new event is posted once, in order, and the cursor moves past it")
    func deliversInOrder() {
        let f = Fixture()
        let transport = ScriptedTransport([])
        // Event 1 is the store's creation (storeCreated), 2 and 3 the fixture's purchase.
        let d = f.deliverer(transport, since: 2)
        #expect(d.deliverPending())
        #expect(transport.posted == Array(f.events().dropFirst(2)))
        #expect(d.cursor == 5)
        #expect(d.deliverPending())
        #expect(transport.posted.count == 3, "nothing new, nothing posted")
        #expect(f.h.runInProcess(["finish", "--all"]).code == 0)
        #expect(d.deliverPending())
        #expect(transport.posted.count == 5)
        #expect(f.waits.isEmpty && f.logs.isEmpty)
    }

    @Test("a failing receiver is retried on the schedule, then given up with a log line; later events still go")
    func retriesThenGivesUp() {
        let f = Fixture()
        let transport = ScriptedTransport([
            .failed("HTTP 500"), .failed("HTTP 503"), .delivered(status: 204), .failed("refused"), .failed("refused"),
            .failed("refused"),
        ])
        let d = f.deliverer(transport, policy: RetryPolicy(attempts: 3, backoff: 1), since: 3)
        #expect(d.deliverPending())
        let events = f.events()
        #expect(transport.posted == [events[3], events[3], events[3], events[4], events[4], events[4]])
        #expect(f.waits == [1, 2, 1, 2])
        #expect(f.logs == ["webhook: gave up on notification 5 after 3 attempts: refused"])
        #expect(d.cursor == 5)
    }

    @Test("a stop while waiting to retry ends delivery at once, leaving the notification pending")
    func stopDuringRetry() {
        let f = Fixture()
        f.stopAtWait = 2
        let transport = ScriptedTransport([.failed("x"), .failed("x"), .failed("x")])
        let d = f.deliverer(transport, since: 0)
        #expect(!d.deliverPending())
        #expect(transport.posted.count == 2)
        #expect(d.cursor == 0)
    }

    /// Each `--webhook` value and the error, or the URL it means.
    static let urls: [(text: String, result: String)] = [
        ("http://127.0.0.1:9000/apple/notifications", "http://127.0.0.1:9000/apple/notifications"),
        ("http://localhost:8080", "http://localhost:8080/"),
        ("HTTP://127.0.0.2:1/x?y=1", "http://127.0.0.2:1/x?y=1"),
        ("http://[::1]:9000/n", "http://[::1]:9000/n"),
        ("http://127.0.0.1", "http://127.0.0.1:80/"),
        ("http://127.0.0.1:0/x", "--webhook 'http://127.0.0.1:0/x' has port '0'; give 1 to 65535"),
        ("http://127.0.0.1:99999/x", "--webhook 'http://127.0.0.1:99999/x' has port '99999'; give 1 to 65535"),
        (
            "http://192.168.1.5:80/x",
            "--webhook host '192.168.1.5' is not a loopback address; use 127.0.0.1, ::1 or localhost (the webhook only posts to this machine)"
        ),
        (
            "http://example.com/x",
            "--webhook host 'example.com' is not a loopback address; use 127.0.0.1, ::1 or localhost (the webhook only posts to this machine)"
        ),
        (
            "http://user@127.0.0.1/x",
            "--webhook 'http://user@127.0.0.1/x' has no host; give one such as http://127.0.0.1:8080/notifications"
        ),
        (
            "ftp://127.0.0.1/x",
            "--webhook 'ftp://127.0.0.1/x' is not an http:// URL; give one such as http://127.0.0.1:8080/notifications"
        ),
        ("http://[::1/x", "--webhook 'http://[::1/x' has an unclosed '[' in its host"),
    ]

    @Test("--webhook URLs: loopback http only, each refusal naming the value and the fix", arguments: urls.indices)
    func webhookURL(index: Int) {
        let c = Self.urls[index]
        do {
            #expect(try WebhookURL(parsing: c.text).description == c.result)
        } catch {
            #expect(error.description == c.result)
        }
    }

    @Test("the client reads the status line: 2xx delivered, anything else failed with the reason")
    func statusLine() throws {
        let url = try WebhookURL(parsing: "http://127.0.0.1:9/h")
        #expect(HTTPWebhookClient.outcome(of: Array("HTTP/1.1 204 No Content\r\n\r\n".utf8), url: url) == .delivered(status: 204))
        #expect(
            HTTPWebhookClient.outcome(of: Array("HTTP/1.0 500 Oops\r\n".utf8), url: url)
                == .failed("http://127.0.0.1:9/h answered HTTP 500"))
        #expect(
            HTTPWebhookClient.outcome(of: [], url: url) == .failed("http://127.0.0.1:9/h closed the connection without answering")
        )
        #expect(
            HTTPWebhookClient.outcome(of: Array("SSH-2.0\r\n".utf8), url: url)
                == .failed("http://127.0.0.1:9/h did not answer HTTP"))
        // Nobody listens on the discard port: connection refused, reported, no crash.
        guard case .failed(let reason) = HTTPWebhookClient(url: url, timeout: 2).post([]) else {
            Issue.record("posting to a closed port succeeded")
            return
        }
        #expect(reason == "connect 127.0.0.1:9: Connection refused")
    }
}
