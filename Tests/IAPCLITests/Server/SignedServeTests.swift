import Foundation
import IAPKit
import Testing

@testable import IAPJSON

#if canImport(Glibc)
    import Glibc
#endif

/// `iapctl serve` answering with real signed data: what a backend under test fetches with curl
/// or its HTTP client, checked with Apple's own verifier. Every wait is bounded.
@Suite("iapctl serve with signed data", .serialized)
struct SignedServeTests {
    static func get(_ server: ServerProcess, _ path: String, token: String = BearerToken.make()) -> BoundedRun {
        BoundedRun.curl(["-H", "Authorization: Bearer \(token)", "-w", "\n%{http_code}", server.url + path])
    }

    /// The JSON body and the status of a `get`.
    static func body(_ r: BoundedRun) throws -> (JSONValue, String) {
        let parts = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = String(parts.last ?? "")
        return (try JSONParser.parse(parts.dropLast().joined(separator: "\n")), status)
    }

    @Test("buy with the CLI, GET the transaction with curl: Apple's SignedDataVerifier reads what dump shows")
    func transactionEndToEnd() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let server = try ServerProcess(store: h.store)
        #expect(h.run(["buy", "com.x.vip2", "--user", "0f6d4c52-3a1e-4b8e-9c47-2d5a8e1f6b30"]).code == 0)
        let (json, status) = try Self.body(Self.get(server, "/inApps/v1/transactions/2000000000000001"))
        #expect(status == "200")
        let token = try #require(json["signedTransactionInfo"]?.stringValue)
        #expect(token == h.run(["jws", "2000000000000001"]).stdout.trimmingCharacters(in: .newlines), "the server and jws agree")
        let decoded = try AppleVerifier.decode([(.transaction, token)])
        let dump = try #require(SignedDataExpectations.dump(h)["2000000000000001"])
        #expect(decoded == [SignedDataExpectations.transaction(dump, signedDate: SignedDataExpectations.clock(h))])
        #expect(server.stop() == 0)
    }

    @Test("history pages and subscription statuses are signed; the status is the engine's (grace period 4, billing retry 3)")
    func historyAndStatuses() throws {
        let h = CLIHarness()
        for line in [
            ["config", "set", "billing-issues", "true"], ["config", "set", "grace-period", "true"], ["buy", "com.x.weekly"],
            ["buy", "com.x.coin42"],
        ] {
            #expect(h.run(line).code == 0, "\(line)")
        }
        let server = try ServerProcess(store: h.store)
        let (history, historyStatus) = try Self.body(Self.get(server, "/inApps/v2/history/2000000000000002"))
        #expect(historyStatus == "200")
        #expect(history.objectValue?.map(\.key) == ["revision", "hasMore", "bundleId", "environment", "signedTransactions"])
        let signed = (history["signedTransactions"]?.arrayValue ?? []).compactMap { $0.stringValue }
        let decoded = try AppleVerifier.decode(signed.map { (.transaction, $0) })
        #expect(decoded.map { $0["productId"]?.stringValue } == ["com.x.weekly", "com.x.coin42"])
        // A week on, the renewal fails: grace period (6 days for a weekly subscription).
        #expect(h.run(["clock", "advance", "P7D"]).code == 0)
        var (statuses, code) = try Self.body(Self.get(server, "/inApps/v1/subscriptions/2000000000000001"))
        #expect(code == "200")
        var last = try #require(statuses["data"]?.arrayValue?.first?["lastTransactions"]?.arrayValue?.first)
        #expect(last["status"] == .number("4"))
        let renewal = try AppleVerifier.decode([(.renewal, try #require(last["signedRenewalInfo"]?.stringValue))])
        #expect(renewal.first?["isInBillingRetryPeriod"] == .bool(true) && renewal.first?["gracePeriodExpiresDate"] != nil)
        #expect(h.run(["clock", "advance", "P7D"]).code == 0)
        (statuses, code) = try Self.body(Self.get(server, "/inApps/v1/subscriptions/2000000000000001?status=3"))
        last = try #require(statuses["data"]?.arrayValue?.first?["lastTransactions"]?.arrayValue?.first)
        #expect(last["status"] == .number("3"), "grace over, billing retry goes on")
        #expect(server.stop() == 0)
    }

    @Test("--api-key: a token signed with the App Store Connect key (PyJWT, ES256) passes, an unsigned one gets 401")
    func apiKey() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        let key = try ExternalTool.run(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "AuthKey_ABC123DEFG.p8"],
            in: h.directory)
        #expect(key.code == 0, "\(key)")
        let pub = try ExternalTool.run("openssl", ["pkey", "-in", "AuthKey_ABC123DEFG.p8", "-pubout"], in: h.directory)
        h.write("public.pem", pub.stdout)
        let sign = """
            import jwt, sys, time
            now = int(time.time())
            key = open(sys.argv[1]).read()
            print(jwt.encode({'iss': '57246542-96fe-1a63-e053-0824d011072a', 'iat': now, 'exp': now + 1200,
                              'aud': 'appstoreconnect-v1', 'bid': 'com.x.demo'}, key, algorithm='ES256',
                             headers={'kid': 'ABC123DEFG', 'typ': 'JWT'}))
            """
        let token = BoundedRun.python(sign, [h.path("AuthKey_ABC123DEFG.p8")]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(token.split(separator: ".").count == 3, "PyJWT made no token: \(token)")
        for keyFile in ["AuthKey_ABC123DEFG.p8", "public.pem"] {
            let server = try ServerProcess(store: h.store, ["--api-key", h.path(keyFile)])
            let (ok, okStatus) = try Self.body(Self.get(server, "/inApps/v1/transactions/2000000000000001", token: token))
            #expect(okStatus == "200" && ok["signedTransactionInfo"] != nil, "\(keyFile)")
            let (refused, refusedStatus) = try Self.body(Self.get(server, "/inApps/v1/transactions/2000000000000001"))
            #expect(refusedStatus == "401")
            #expect(
                refused["errorMessage"]
                    == .string("the JWT signature does not verify with the API key given to 'iapctl serve --api-key'"))
            #expect(server.stop() == 0)
        }
        let bad = h.run(["serve", "--port", "0", "--api-key", CLIHarness.fixture("signing/root.pem")])
        #expect(bad.code == 65)
        #expect(
            bad.stderr
                == "error: --api-key \(CLIHarness.fixture("signing/root.pem")): not a P-256 key in PEM; give the App Store Connect key (.p8, 'BEGIN PRIVATE KEY') or its public half ('BEGIN PUBLIC KEY')\n"
        )
    }

    @Test("the webhook delivers signed notifications that Apple's verify_and_decode_notification accepts")
    func webhookSigned() throws {
        let receiver = try WebhookReceiver(requests: 3)
        let port = receiver.port
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let server = try ServerProcess(store: h.store, ["--webhook", "http://127.0.0.1:\(port)/n", "--app-apple-id", "1234"])
        for line in [["buy", "com.x.vip2"], ["auto-renew", "off", "com.x.vip2"], ["buy", "com.x.coin42"]] {
            #expect(h.run(line).code == 0, "\(line)")
        }
        let payloads = try #require(try receiver.signedPayloads(3), "the webhook delivered fewer than 3 notifications")
        #expect(server.stop() == 0)
        let decoded = try AppleVerifier.decode(payloads.map { (.notification, $0) }, appAppleID: 1234)
        #expect(
            decoded.map { "\($0["notificationType"]?.stringValue ?? "?") \($0["subtype"]?.stringValue ?? "-")" } == [
                "SUBSCRIBED INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED", "ONE_TIME_CHARGE -",
            ], "\(decoded)")
        #expect(decoded.allSatisfy { $0["data"]?["appAppleId"] == .number("1234") })
        let listed = h.run(["notifications", "--json", "--app-apple-id", "1234"]).stdout.split(separator: "\n").compactMap {
            try? JSONParser.parse(String($0))["signedPayload"]?.stringValue
        }
        #expect(listed == payloads, "the webhook posts what 'iapctl notifications' lists")
    }

    @Test("notifications send: serve's webhook posts what it makes; history and send attempts survive a restart of serve")
    func sentNotificationsSurviveRestart() throws {
        let receiver = try WebhookReceiver(requests: 3)
        let port = receiver.port
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.vip2"]).code == 0)
        var server = try ServerProcess(store: h.store, ["--webhook", "http://127.0.0.1:\(port)/n"])
        let sends = [
            ["DID_CHANGE_RENEWAL_STATUS", "--subtype", "AUTO_RENEW_DISABLED", "2000000000000001"], ["METADATA_UPDATE"],
            ["TEST"],
        ]
        for line in sends { #expect(h.run(["notifications", "send"] + line).code == 0, "\(line)") }
        let payloads = try #require(try receiver.signedPayloads(3), "the webhook delivered fewer than 3 notifications")
        let decoded = try AppleVerifier.decode(payloads.map { (.notification, $0) })
        #expect(
            decoded.map { "\($0["notificationType"]?.stringValue ?? "?") \($0["subtype"]?.stringValue ?? "-")" } == [
                "DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED", "METADATA_UPDATE -", "TEST -",
            ], "\(decoded)")
        // Get Notification History: each posted notification with its SUCCESS attempt, asked until
        // serve has recorded the third attempt (bounded), then the same answer after a restart.
        let start = Int64(1_767_225_600_000) - 1000
        let query = #"{"startDate":\#(start),"endDate":\#(start + 864_000_000)}"#
        func history(_ server: ServerProcess) throws -> [(String, [String])] {
            let r = BoundedRun.curl([
                "-H", "Authorization: Bearer \(BearerToken.make())", "-H", "Content-Type: application/json", "-d", query,
                server.url + "/inApps/v1/notifications/history",
            ])
            let items = try JSONParser.parse(r.stdout)["notificationHistory"]?.arrayValue ?? []
            return items.map { item in
                (
                    item["signedPayload"]?.stringValue ?? "",
                    (item["sendAttempts"]?.arrayValue ?? []).compactMap { $0["sendAttemptResult"]?.stringValue }
                )
            }
        }
        let deadline = Date(timeIntervalSinceNow: 30)
        var before = try history(server)
        while before.filter({ payloads.contains($0.0) && $0.1 == ["SUCCESS"] }).count < 3 && Date() < deadline {
            before = try history(server)
        }
        #expect(before.filter { payloads.contains($0.0) && $0.1 == ["SUCCESS"] }.count == 3, "\(before)")
        #expect(server.stop() == 0)
        server = try ServerProcess(store: h.store)
        let after = try history(server)
        #expect(after.map(\.0) == before.map(\.0), "the same notifications after a restart")
        #expect(after.map(\.1) == before.map(\.1), "with the same send attempts")
        #expect(server.stop() == 0)
    }
}
