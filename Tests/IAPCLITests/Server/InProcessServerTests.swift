import Foundation
import IAPKit
import Testing

@testable import IAPCLI
@testable import IAPJSON
@testable import IAPRuntime

/// Readable stand-ins for signed data, for tests only; the shipped server gets the ES256 signer.
struct StandInSigner: TransactionSigner {
    func environment(session: StoreSession) -> String { "Sandbox" }

    func signedTransaction(_ transaction: Transaction, session: StoreSession) throws -> String {
        "jws.\(transaction.id).\(transaction.state.name)"
    }

    func signedRenewalInfo(_ latest: Transaction, session: StoreSession) throws -> String { "renewal.\(latest.originalID)" }

    func signedAppTransaction(session: StoreSession, appAppleID: Int64?) throws -> String { "app.\(session.state.bundleID)" }

    func sign(payload: [UInt8], session: StoreSession) throws -> String { "signed.\(payload.count)" }
}

/// The server class in this process, with a stand-in signer, over real sockets: the path a
/// signed answer takes, while real `iapctl` processes write to the store.
@Suite("HTTP server in process", .serialized)
struct InProcessServerTests {
    final class Running {
        let server: HTTPServer
        let done = DispatchSemaphore(value: 0)

        init(store: String, readTimeout: Double = 5) throws {
            let reader = StoreReaderPool(path: store, lockTimeout: 5)
            let api = AppStoreServerAPI(reader: reader, signer: StandInSigner(), now: { Int64(time(nil)) })
            let router = api.router()
            var configuration = HTTPServer.Configuration(address: SocketAddress(host: "127.0.0.1", port: 0)!)
            configuration.readTimeout = readTimeout
            server = HTTPServer(configuration: configuration) { router.respond(to: $0) }
            try server.bind()
            let server = self.server
            let done = self.done
            Thread {
                server.serve()
                done.signal()
            }.start()
        }

        /// Stops and waits (bounded) for `serve` to return.
        func stop() -> Bool {
            server.stop()
            return done.wait(timeout: .now() + 30) == .success
        }
    }

    @Test("signed transactions and history over the wire, with CLI processes writing in between")
    func signedOverTheWire() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let running = try Running(store: h.store)
        let auth = ["-H", "Authorization: Bearer \(BearerToken.make())"]
        let buy = h.run(["buy", "com.x.vip2", "--json"])
        let id = try #require(buy.json?["transactionIdentifier"]?.stringValue)
        let info = BoundedRun.curl(auth + [running.server.url + "/inApps/v1/transactions/\(id)"])
        #expect(info.stdout == #"{"signedTransactionInfo":"jws.\#(id).purchased"}"#, "\(info)")
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        let history = BoundedRun.curl(auth + [running.server.url + "/inApps/v2/history/\(id)?sort=DESCENDING"])
        let json = try JSONParser.parse(history.stdout)
        #expect(
            json["signedTransactions"]
                == .array([.string("jws.\(TransactionID(UInt64(id)! + 1)).purchased"), .string("jws.\(id).purchased")]))
        #expect(json["hasMore"] == .bool(false))
        let statuses = BoundedRun.curl(auth + [running.server.url + "/inApps/v1/subscriptions/\(id)"])
        #expect(
            statuses.stdout
                == #"{"environment":"Sandbox","bundleId":"com.x.demo","data":[{"subscriptionGroupIdentifier":"vip","lastTransactions":[{"status":1,"originalTransactionId":"\#(id)","signedTransactionInfo":"jws.\#(id).purchased","signedRenewalInfo":"renewal.\#(id)"}]}]}"#
        )
        #expect(running.stop())
        #expect(running.server.requestCount == 3)
    }

    @Test("readers never see a half-committed store while a CLI process commits in a loop")
    func consistentUnderWriters() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let running = try Running(store: h.store)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = [
            "-c", "for i in $(seq 30); do \"$0\" --store \"$1\" buy com.x.coin42 >/dev/null || exit 1; done", CLIHarness.binary,
            h.store,
        ]
        try writer.run()
        // While it writes: every history page is whole (ids consecutive from the first) and never
        // shrinks; every request succeeds.
        let script = """
            import http.client, sys, json
            port, token, first = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
            c = http.client.HTTPConnection('127.0.0.1', port, timeout=20)
            last, bad = 0, []
            for i in range(150):
                c.request('GET', '/inApps/v2/history/%d?sort=DESCENDING' % first, headers={'Authorization': 'Bearer ' + token})
                r = c.getresponse(); body = r.read()
                if r.status == 404: continue
                if r.status != 200: bad.append((r.status, body)); continue
                ids = [int(s.split('.')[1]) for s in json.loads(body)['signedTransactions']]
                top = ids[0] if ids else 0
                if ids != list(range(top, max(first, top - 19) - 1, -1)): bad.append(ids)
                if top < last: bad.append(('went back', top, last))
                last = top
            print(len(bad), bad[:2], last >= first)
            """
        let r = BoundedRun.python(
            script, [String(running.server.boundAddress.port), BearerToken.make(), TransactionID.first.description], timeout: 120)
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0, "the CLI writer must never time out on the lock")
        #expect(r.stdout == "0 [] True\n", "\(r)")
        #expect(running.stop())
    }
}
