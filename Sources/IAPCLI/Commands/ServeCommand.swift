import IAPKit
import IAPRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// `iapctl serve`: an HTTP/1.1 server on the store for backends under test: the App Store Server
/// API, the legacy `verifyReceipt`, a health check, and a webhook for notifications.
enum ServeCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "serve",
            summary: "Serve the store over HTTP: App Store Server API, verifyReceipt, webhook, Transaction Manager",
            discussion: """
                Prints 'listening on http://HOST:PORT' as its first line, then answers until SIGINT or \
                SIGTERM, when it stops accepting, finishes the requests in flight and exits 0. Every \
                request reads the store under its lock, so CLI commands may run alongside. The App Store \
                Server API routes need 'Authorization: Bearer <JWT>'. GET / is the Transaction Manager, the \
                store in a browser (see 'iapctl help ui'). See docs/serve.md and docs/ui.md.
                """,
            options: [
                .value("host", "address", help: "The address to listen on (default: 127.0.0.1)"),
                .value("port", "n", help: "The port; 0 picks a free one (default: 8080)"),
                .flag("allow-remote", help: "Allow a --host that is not loopback (other machines can then read the store)"),
                .value("read-timeout", "seconds", help: "A request must arrive whole within this, else 408 (default: 5)"),
                .value("idle-timeout", "seconds", help: "Close keep-alive connections idle this long (default: 30)"),
                .value("max-body", "bytes", help: "Largest request body accepted, else 413 (default: 1048576)"),
                .value("app-apple-id", "n", help: "The appAppleId to put in responses (default: none, as in sandbox)"),
                .value(
                    "api-key", "file",
                    help: "Verify bearer tokens' ES256 signature with this App Store Connect key (.p8) or its public key PEM"),
                .value(
                    "api-key-id", "kid",
                    help: "The key id tokens must name in kid (default: KID of a file named AuthKey_KID.p8; else any)"),
                .value("webhook", "url", help: "POST each new notification to this loopback http:// URL"),
                .value("webhook-attempts", "n", help: "Tries per notification before giving up, 1 to 20 (default: 5)"),
                .value("webhook-backoff", "seconds", help: "Pause before the first retry, doubling after (default: 1)"),
            ],
            examples: [
                "iapctl serve --port 8080",
                "iapctl serve --port 0 --webhook http://127.0.0.1:9000/apple/notifications",
            ]
        ), run: run)

    static let defaultPort = 8080

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let hostText = i.value("host") ?? "127.0.0.1"
        let port = try i.int("port", in: 0...65535) ?? defaultPort
        guard let address = SocketAddress(host: hostText, port: UInt16(port)) else {
            throw i.usageError(
                "--host '\(hostText)' is not an IP address; give 127.0.0.1, ::1 or localhost (names are not resolved)")
        }
        if !address.isLoopback && !i.flag("allow-remote") {
            throw i.usageError(
                "--host \(hostText) is not a loopback address, so other machines could read this store's purchases; pass --allow-remote to mean it, or use 127.0.0.1"
            )
        }
        var configuration = HTTPServer.Configuration(address: address)
        configuration.readTimeout = try i.double("read-timeout", in: 0.01...3600) ?? 5
        configuration.idleTimeout = try i.double("idle-timeout", in: 0.01...86_400) ?? 30
        configuration.limits.bodyBytes = try i.int("max-body", in: 0...(256 << 20)) ?? configuration.limits.bodyBytes
        let appAppleID = try i.int("app-apple-id", in: 1...Int.max).map { Int64($0) }
        var webhook: WebhookURL?
        if let text = i.value("webhook") {
            do {
                webhook = try WebhookURL(parsing: text)
            } catch {
                throw i.usageError(error.description)
            }
        }
        let policy = RetryPolicy(
            attempts: try i.int("webhook-attempts", in: 1...20) ?? 5, backoff: try i.double("webhook-backoff", in: 0...3600) ?? 1)
        if webhook == nil && (i.isGiven("webhook-attempts") || i.isGiven("webhook-backoff")) {
            throw i.usageError("--webhook-attempts and --webhook-backoff need --webhook URL")
        }

        var keyVerifier: APIKeySignatureVerifier?
        if let path = i.value("api-key") {
            guard !path.isEmpty else {
                throw i.usageError("empty --api-key; give the App Store Connect key file (.p8) or its public key PEM")
            }
            let keyID = i.value("api-key-id") ?? APIKeySignatureVerifier.keyID(fromFileName: path)
            if let keyID, keyID.isEmpty || !keyID.allSatisfy({ $0.isLetter || $0.isNumber }) {
                throw i.usageError(
                    "--api-key-id '\(keyID)' is not a key id; give the 10 letters and digits App Store Connect shows, such as 2X9R4HXF34"
                )
            }
            keyVerifier = try APIKeySignatureVerifier(
                pem: String(
                    decoding: try JWSArgument.read(path, holding: "an App Store Connect key (.p8) or its public key PEM"),
                    as: UTF8.self),
                name: "--api-key \(path)", keyID: keyID)
        } else if i.isGiven("api-key-id") {
            throw i.usageError("--api-key-id needs --api-key FILE: the key whose id it is")
        }
        return try serve(
            c, configuration, announce: .listening, appAppleID: appAppleID, keyVerifier: keyVerifier, webhook: webhook,
            policy: policy)
    }

    /// How a server announces itself on its first line: `serve`'s 'listening on URL', or `ui`'s
    /// Transaction Manager address.
    enum Announcement {
        case listening
        case transactionManager
    }

    /// Opens the store, binds, announces, and serves until SIGINT or SIGTERM: the App Store
    /// server's routes, and the Transaction Manager at `/` (docs/ui.md) for `serve` and `ui` alike.
    static func serve(
        _ c: CommandContext, _ configuration: HTTPServer.Configuration, announce: Announcement, appAppleID: Int64? = nil,
        keyVerifier: APIKeySignatureVerifier? = nil, webhook: WebhookURL? = nil,
        policy: RetryPolicy = RetryPolicy(attempts: 5, backoff: 1)
    ) throws -> ExitCode {
        let address = configuration.address
        let port = address.port
        // The store the server plays the App Store for: created now if missing (a server needs one
        // to serve), and loaded (with its signing chain) before announcing anything.
        let (lastEvent, signer) = try c.write { s throws(StoreError) in
            var signer = try StoreTransactionSigner(session: s)
            signer.cache = SignedPayloadCache()
            return (s.state.nextEventSeq - 1, signer)
        }
        let reader = StoreReaderPool(path: c.storePath, lockTimeout: c.lockTimeout)
        var endpoints = api(reader: reader, appAppleID: appAppleID, signer: signer, keyVerifier: keyVerifier)
        let writer = StoreWriterGate(path: c.storePath, lockTimeout: c.lockTimeout)
        endpoints.writer = writer
        endpoints.notificationURL = webhook?.description
        endpoints.notificationHistory = StoreNotificationHistory(signer: signer, appAppleID: appAppleID)
        endpoints.realtimeCaller = RealtimeHTTPCaller()
        let router = endpoints.router()
        let stop = StopSignal()
        let page = TransactionManagerMount()
        let server = HTTPServer(configuration: configuration, stopSignal: stop) { request in
            page.respond(to: request) ?? router.respond(to: request)
        }
        do {
            try server.bind()
        } catch let failure as Socket.Failure {
            // The command line is right; the service cannot start (69, EX_UNAVAILABLE).
            if failure.code == EADDRINUSE {
                throw StoreError.unavailable(
                    "port \(port) on \(address.hostText) is in use; pick another with --port, or --port 0 for a free one")
            }
            if failure.code == EACCES {
                throw StoreError.unavailable(
                    "no permission to listen on port \(port); use a port above 1023, or --port 0 for a free one")
            }
            throw StoreError.unavailable("cannot listen on \(address): \(failure); pick another --host or --port")
        }
        try page.mount(c, reader: reader, port: server.boundAddress.port)
        stop.catchTerminationSignals()
        defer { stop.restoreSignals() }

        if announce == .transactionManager {
            UICommand.announce(c, url: server.url + "/", host: server.boundAddress.hostText, port: server.boundAddress.port)
        } else if c.json {
            c.printJSON { w in
                w.beginObject()
                w.key("listening")
                w.string(server.url)
                w.key("host")
                w.string(server.boundAddress.hostText)
                w.key("port")
                w.int(Int(server.boundAddress.port))
                w.endObject()
            }
        } else {
            c.stdout.line("listening on \(server.url)")
        }
        c.stdout.flush()

        let log = ServerLog(console: c.stderr)
        let webhookDone = Condition()
        nonisolated(unsafe) var webhookRunning = false
        if let webhook {
            let deliverer = WebhookDeliverer(
                source: notificationSource(signer: signer, appAppleID: appAppleID), reader: reader,
                transport: HTTPWebhookClient(url: webhook), policy: policy, since: lastEvent,
                wait: { seconds in stop.wait(seconds: seconds) }, log: log.line)
            // Each attempt is kept in the store (Get Test Notification Status, restarts).
            deliverer.onAttempt = { seq, result in
                do {
                    _ = try writer.write { s in try s.apply(.serverAPI(.recordSendAttempt(seq: seq, result: result))) }
                } catch {
                    log.line("webhook: cannot record the attempt at notification \(seq) (\(error))")
                }
            }
            webhookRunning = true
            let storePath = c.storePath
            nonisolated(unsafe) let unsafeDeliverer = deliverer
            startThread {
                unsafeDeliverer.run(until: stop, watching: storePath)
                webhookDone.lock()
                webhookRunning = false
                webhookDone.broadcast()
                webhookDone.unlock()
            }
        }

        server.serve()

        webhookDone.lock()
        while webhookRunning { webhookDone.wait() }
        webhookDone.unlock()
        return .success
    }

    /// The endpoints with the engines this build has.
    ///
    /// This is the one place the engines are chosen: the JWS signer (`StoreTransactionSigner`,
    /// the store's signing chain), the `verifyReceipt` engine (`ReceiptVerificationEngine`), the
    /// subscription status (`SubscriptionEngineStatus`, the subscription engine's own record), and
    /// the bearer-token check (well-formedness, plus the ES256 signature when `--api-key` gave a
    /// key).
    static func api(
        reader: any StoreReading, appAppleID: Int64?, signer: StoreTransactionSigner, keyVerifier: APIKeySignatureVerifier?
    ) -> AppStoreServerAPI {
        AppStoreServerAPI(
            reader: reader, tokenVerifier: AppStoreConnectTokenVerifier(signatureVerifier: keyVerifier), signer: signer,
            receiptVerifier: ReceiptVerificationEngine(), subscriptionStatus: SubscriptionEngineStatus(), appAppleID: appAppleID,
            now: { Int64(time(nil)) })
    }

    /// What the webhook posts: the signed App Store Server Notifications V2 of new events, as
    /// `{"signedPayload": ...}`.
    static func notificationSource(signer: StoreTransactionSigner, appAppleID: Int64?) -> any NotificationSource {
        SignedNotificationSource(signer: signer, appAppleID: appAppleID)
    }
}

/// Lines to stderr from any thread, one at a time.
final class ServerLog: @unchecked Sendable {
    private let console: Console
    private let lock = Lock()

    init(console: Console) { self.console = console }

    func line(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        console.line("iapctl serve: \(text)")
        console.flush()
    }
}
