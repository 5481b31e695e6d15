import Foundation
import IAPKit
import Testing

@testable import IAPCrypto
@testable import IAPJSON

/// `iapctl jws` and `iapctl notifications` end to end, checked against Apple's own verifier
/// (`app-store-server-library`) and openssl.
@Suite("jws and notifications end to end")
struct JWSCommandTests {
    /// A store with a little of everything: a consumable for an account, a subscription for a
    /// UUID user that renewed, an upgrade in another group, a refund, a non-renewing one, a
    /// restore.
    static func richStore() -> CLIHarness {
        let h = CLIHarness()
        for line in [
            ["buy", "com.x.coin42", "--account", "alice", "--quantity", "2"],
            ["buy", "com.x.vip2", "--user", "8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E90"],
            ["clock", "advance", "P3M"],
            ["buy", "com.x.weekly"],
            ["buy", "com.x.noads"],
            ["buy", "com.x.vip1"],
            ["finish", "--all"],
            ["refund", "2000000000000001", "--reason", "1"],
            ["buy", "com.x.vippro"],
            ["restore"],
        ] {
            let r = h.run(line)
            #expect(r.code == 0, "\(line): \(r)")
        }
        return h
    }

    @Test("jws prints one compact JWS; the same commands on another store give the same bytes")
    func deterministic() throws {
        let a = Self.richStore()
        let b = Self.richStore()
        for id in ["2000000000000001", "2000000000000002", "2000000000000003"] {
            let ra = a.run(["jws", id])
            #expect(ra.code == 0 && ra.stderr.isEmpty, "\(ra)")
            #expect(
                ra.stdout.split(separator: ".").count == 3 && ra.stdout.hasSuffix("\n") && !ra.stdout.dropLast().contains("\n"))
            #expect(ra.stdout == b.run(["jws", id]).stdout)
            #expect(ra.stdout == a.run(["jws", "show", id]).stdout)
        }
        #expect(a.run(["jws", "renewal", "com.x.vip2"]).stdout == b.run(["jws", "renewal", "com.x.vip2"]).stdout)
        let na = a.run(["notifications", "--json"])
        #expect(na.code == 0 && !na.stdout.isEmpty)
        #expect(na.stdout == b.run(["notifications", "--json"]).stdout)
        let json = try #require(a.run(["jws", "2000000000000002", "--json"]).json)
        #expect(json.objectValue?.map(\.key) == ["transactionIdentifier", "signedTransactionInfo", "header", "payload"])
        #expect(json["header"]?.objectValue?.map(\.key) == ["alg", "x5c", "typ"])
        #expect(json["payload"]?["appAccountToken"] == .string("8e3a1f0c-5b7d-4c21-9a6e-2f4b8d1c7e90"))
    }

    @Test("Apple's SignedDataVerifier verifies every signed transaction and reads exactly what dump shows")
    func appleVerifiesTransactions() throws {
        let h = Self.richStore()
        let transactions = SignedDataExpectations.dump(h).values.filter {
            ["purchased", "restored"].contains($0["state"]?.stringValue ?? "")
        }.sorted { $0["transactionIdentifier"]!.stringValue! < $1["transactionIdentifier"]!.stringValue! }
        #expect(transactions.count >= 8)
        let kinds = Set(transactions.compactMap { $0["productType"]?.stringValue })
        #expect(kinds == ["consumable", "nonConsumable", "autoRenewable", "nonRenewing"])
        let tokens = transactions.map { h.run(["jws", $0["transactionIdentifier"]!.stringValue!]).stdout }
        let decoded = try AppleVerifier.decode(tokens.map { (.transaction, $0.trimmingCharacters(in: .newlines)) })
        let clock = SignedDataExpectations.clock(h)
        for (t, d) in zip(transactions, decoded) {
            #expect(d == SignedDataExpectations.transaction(t, signedDate: clock), "\(t["transactionIdentifier"]!)")
        }
        #expect(
            decoded.contains { $0["revocationReason"] == .number("1") } && decoded.contains { $0["isUpgraded"] == .bool(true) })
        #expect(decoded.contains { $0["transactionReason"] == .string("RENEWAL") })
    }

    @Test("Apple's verifier reads signed renewal infos as the subscriptions command shows them; Production needs appAppleId")
    func appleVerifiesRenewalInfo() throws {
        let h = Self.richStore()
        let subscriptions = try #require(h.run(["subscriptions", "--json"]).json?.arrayValue)
        let auto = subscriptions.filter { $0["productType"] == .string("autoRenewable") }
        #expect(auto.count == 2)
        let tokens = auto.map {
            h.run(["jws", "renewal", $0["originalTransactionIdentifier"]!.stringValue!]).stdout.trimmingCharacters(in: .newlines)
        }
        let decoded = try AppleVerifier.decode(tokens.map { (.renewal, $0) })
        for (s, d) in zip(auto, decoded) {
            #expect(d["originalTransactionId"] == s["originalTransactionIdentifier"])
            #expect(d["productId"] == s["productIdentifier"] && d["autoRenewProductId"] == s["autoRenewProductIdentifier"])
            #expect(d["autoRenewStatus"] == .number(s["autoRenewStatus"] == .bool(true) ? "1" : "0"))
            #expect(d["renewalDate"] == s["expiresTimestamp"] && d["environment"] == .string("Sandbox"))
            #expect(d["signedDate"] == .number(String(SignedDataExpectations.clock(h))))
        }
        // Any transaction of a subscription names it.
        #expect(h.run(["jws", "renewal", "2000000000000003"]).stdout == tokens[0] + "\n")
        // Production: the environment setting is what the data says; Apple's verifier then wants the app's id.
        #expect(h.run(["config", "set", "environment", "Production"]).code == 0)
        let production = h.run(["jws", "2000000000000002"]).stdout.trimmingCharacters(in: .newlines)
        let sandboxReader = try AppleVerifier.decode([(.transaction, production)])
        #expect(sandboxReader == [.object([(key: "error", value: .string("INVALID_ENVIRONMENT"))])])
        let productionReader = try AppleVerifier.decode([(.transaction, production)], environment: "Production", appAppleID: 1)
        #expect(productionReader.first?["environment"] == .string("Production"))
    }

    @Test("openssl agrees: the chain verifies, and the ES256 signature (as DER) verifies with the leaf's key")
    func openssl() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        let token = h.run(["jws", "2000000000000001"]).stdout.trimmingCharacters(in: .newlines)
        let jws = try CompactJWS(parsing: token)
        let chain = try #require(jws.certificateChainBase64)
        let pems = try chain.map { try Certificate(der: try #require(Base64.decode($0))).pemRepresentation }
        h.write("leaf.pem", pems[0])
        h.write("intermediate.pem", pems[1])
        h.write("root.pem", pems[2])
        let verify = try ExternalTool.run(
            "openssl", ["verify", "-CAfile", "root.pem", "-untrusted", "intermediate.pem", "leaf.pem"], in: h.directory)
        #expect(verify.stdout == "leaf.pem: OK\n", "\(verify)")
        let key = try ExternalTool.run("openssl", ["x509", "-in", "leaf.pem", "-noout", "-pubkey"], in: h.directory)
        h.write("leaf-pub.pem", key.stdout)
        _ = FileManager.default.createFile(atPath: h.path("input"), contents: Data(jws.signingInput))
        let der = try P256.Signature(rawRepresentation: jws.signature).derRepresentation
        _ = FileManager.default.createFile(atPath: h.path("signature.der"), contents: Data(der))
        let dgst = try ExternalTool.run(
            "openssl", ["dgst", "-sha256", "-verify", "leaf-pub.pem", "-signature", "signature.der", "input"], in: h.directory)
        #expect(dgst.stdout == "Verified OK\n", "\(dgst)")
        #expect(try CompactJWS(parsing: token).header["x5c"]?.arrayValue?.count == 3)
        #expect(pems[2] == (try? String(contentsOfFile: CLIHarness.fixture("signing/root.pem"), encoding: .utf8)))
    }

    @Test("decode --root checks each step: exit 0 when valid, 1 on another root; Xcode's token with its certificate")
    func decodeVerifies() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.vip2"]).code == 0)
        let token = h.run(["jws", "2000000000000001"]).stdout
        let ok = h.run(["jws", "decode", "-", "--root", CLIHarness.fixture("signing/root.pem")], stdin: token)
        #expect(
            ok.code == 0 && ok.stdout.hasSuffix("signature     pass  ES256 over header.payload, with the leaf's key\nvalid\n"),
            "\(ok)")
        #expect(ok.stdout.hasPrefix("header\n  alg: ES256\n  x5c: 'iapctl TEST ONLY — not Apple StoreKit Signer', "))
        #expect(ok.stdout.contains("\n  expiresDate: 1775001601000 (2026-04-01T00:00:01Z)\n"))
        let wrong = h.run([
            "jws", "decode", token.trimmingCharacters(in: .newlines), "--root", CLIHarness.fixture("signing/intermediate.pem"),
        ])
        #expect(wrong.code == 1 && wrong.stdout.hasSuffix("invalid: chain failed\n"), "\(wrong)")
        let json = try #require(
            h.run(["jws", "decode", "-", "--root", CLIHarness.fixture("signing/root.pem"), "--json"], stdin: token).json)
        #expect(json.objectValue?.map(\.key) == ["header", "certificates", "payload", "signature", "verification"])
        #expect(json["verification"]?["valid"] == .bool(true))
        #expect(
            json["verification"]?["checks"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == [
                "algorithm", "certificates", "chain", "appleMarkers", "signature",
            ])
        let plain = h.run(["jws", "decode", "-", "--json"], stdin: token)
        #expect(plain.code == 0 && plain.json?["verification"] == .null)
        let xcode = h.run(
            [
                "jws", "decode", CLIHarness.fixture("vectors/xcode-signed-transaction"), "--root",
                CLIHarness.fixture("vectors/xcode-jws-certificate.pem"),
            ], useStore: false)
        #expect(xcode.code == 0, "\(xcode)")
        #expect(xcode.stdout.contains("\n  kid: Apple_Xcode_Key\n") && xcode.stdout.contains("\n  environment: Xcode\n"))
        #expect(
            xcode.stdout.contains("appleMarkers  skip  one self-signed certificate (Xcode's StoreKit testing) has no markers\n"))
        #expect(!FileManager.default.fileExists(atPath: h.directory + "/.iapctl"), "decode needs no store")
    }

    /// Each bad command line: the exit code and the one line on stderr.
    static let badInput: [(arguments: [String], code: Int32, stderr: String)] = [
        (["jws", "2000000000000099"], 3, "error: unknown transaction '2000000000000099' (see 'iapctl queue' or 'iapctl dump')"),
        (
            ["jws", "abc"], 64,
            "error: bad transaction id 'abc'; ids are decimal numbers such as 2000000000000001 (see 'iapctl help jws show')"
        ),
        (
            ["jws", "2000000000000002"], 4,
            "error: transaction 2000000000000002 is failed: only purchased and restored transactions have signed data (the payment never reached the App Store)"
        ),
        (
            ["jws", "decod", "x"], 64,
            "error: unknown subcommand 'decod' for 'jws'; did you mean 'decode'? (see 'iapctl help jws')"
        ),
        (
            ["jws", "renewal", "com.x.coin42"], 64,
            "error: 'com.x.coin42' is consumable, not an auto-renewable subscription; name a subscription product or an original transaction id"
        ),
        (
            ["jws", "renewal", "com.x.vip2"], 3,
            "error: no subscription in group 'vip' of 'com.x.vip2'; buy one first ('iapctl buy com.x.vip2')"
        ),
        (
            ["jws", "renewal", "2000000000000001"], 3,
            "error: no subscription has original transaction id 2000000000000001 (list them with 'iapctl subscriptions', no id)"
        ),
        (["jws", "decode", "nosuch"], 66, "error: cannot read 'nosuch': no such file (give a file holding a compact JWS)"),
        (
            ["jws", "decode", "eyJhbGciOiJFUzI1NiJ9.e30"], 66,
            "error: cannot read 'eyJhbGciOiJFUzI1NiJ9.e30': no such file (give a file holding a compact JWS)"
        ),
        (
            ["jws", "decode", "eyJhbGciOiJFUzI1NiJ9.e30.AAAA", "--root", "nosuch.pem"], 66,
            "error: cannot read 'nosuch.pem': no such file (give the trusted root certificate for --root, PEM or DER, such as AppleRootCA-G3.cer)"
        ),
        (
            ["jws", "decode", "eyJhbGciOiJFUzI1NiJ9.W10.AAAA"], 65,
            "error: the JWS argument: the JWS payload is an array, not a JSON object"
        ),
        (["notifications", "--since", "-1"], 64, "error: '--since' expects an integer of at least 0, got '-1'"),
        (
            ["serve", "--port", "0", "--api-key", "nosuch.p8"], 66,
            "error: cannot read 'nosuch.p8': no such file (give an App Store Connect key (.p8) or its public key PEM)"
        ),
    ]

    @Test("bad input: one line naming the value and the fix, the documented exit code, the store unchanged")
    func badInputs() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        #expect(h.run(["config", "set", "fail-transactions", "true"]).code == 0)
        #expect(h.run(["buy", "com.x.coin42"]).code == 1)
        #expect(h.run(["config", "set", "fail-transactions", "false"]).code == 0)
        let before = h.bytes("store/state")
        for (arguments, code, stderr) in Self.badInput {
            let r = h.run(arguments)
            #expect(r.code == code, "\(arguments): \(r)")
            #expect(r.stderr == stderr + "\n", "\(arguments)")
            #expect(r.stdout.isEmpty, "\(arguments)")
        }
        let garbage = h.run(["jws", "decode", "-"], stdin: "not a token\n")
        #expect(garbage.code == 65)
        #expect(
            garbage.stderr == "error: stdin: not a compact JWS: 1 part separated by '.', expected 3 (header.payload.signature)\n")
        #expect(h.bytes("store/state") == before)
    }

    @Test("notifications: one line each, and Apple's verifier decodes every type the store makes, data and all")
    func appleVerifiesNotifications() throws {
        let h = CLIHarness()
        for line in [
            ["config", "set", "billing-issues", "true"], ["config", "set", "grace-period", "true"],
            ["buy", "com.x.vip2"],  // SUBSCRIBED INITIAL_BUY
            ["clock", "advance", "P3M"],  // DID_FAIL_TO_RENEW GRACE_PERIOD
            ["clock", "advance", "P20D"],  // GRACE_PERIOD_EXPIRED
            ["resolve", "com.x.vip2"],  // DID_RENEW BILLING_RECOVERY
            ["config", "set", "billing-issues", "false"],
            ["clock", "advance", "P3M"],  // DID_RENEW
            ["buy", "com.x.vipmonthly"],  // DID_CHANGE_RENEWAL_PREF DOWNGRADE
            ["auto-renew", "off", "com.x.vip2"],  // DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED
            ["expire", "com.x.vip2"],  // EXPIRED VOLUNTARY
            ["buy", "com.x.vip2"],  // SUBSCRIBED RESUBSCRIBE
            ["buy", "com.x.coin42"],  // ONE_TIME_CHARGE
            ["refund", "2000000000000006"],  // REFUND
        ] {
            let r = h.run(line)
            #expect(r.code == 0, "\(line): \(r)")
        }
        let text = h.run(["notifications"])
        #expect(text.code == 0)
        let lines = text.stdout.split(separator: "\n").map {
            $0.split(separator: " ").dropFirst().prefix(2).joined(separator: " ")
        }
        #expect(
            lines == [
                "SUBSCRIBED INITIAL_BUY", "DID_FAIL_TO_RENEW GRACE_PERIOD", "GRACE_PERIOD_EXPIRED -",
                "DID_RENEW BILLING_RECOVERY",
                "DID_RENEW -", "DID_CHANGE_RENEWAL_PREF DOWNGRADE", "DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED",
                "EXPIRED VOLUNTARY", "SUBSCRIBED RESUBSCRIBE", "ONE_TIME_CHARGE -", "REFUND -",
            ], "\(text.stdout)")
        let json = h.run(["notifications", "--json"]).stdout.split(separator: "\n").map { try? JSONParser.parse(String($0)) }
        let payloads = json.compactMap { $0?["signedPayload"]?.stringValue }
        #expect(payloads.count == lines.count)
        let decoded = try AppleVerifier.decode(payloads.map { (.notification, $0) })
        #expect(decoded.map { "\($0["notificationType"]?.stringValue ?? "?") \($0["subtype"]?.stringValue ?? "-")" } == lines)
        #expect(decoded.allSatisfy { $0["version"] == .string("2.0") && $0["data"]?["bundleId"] == .string("com.x.demo") })
        #expect(
            zip(decoded, json).allSatisfy {
                $0["notificationUUID"] == $1?["notificationUUID"] && $0["signedDate"] == $1?["timestamp"]
            })
        #expect(
            decoded.map { $0["data"]?["status"]?.stringValue ?? $0["data"]?["status"].map { $0.serialized() } ?? "-" } == [
                "1", "4", "3", "1", "1", "1", "1", "2", "1", "-", "-",
            ])
        // The transaction and renewal info inside each verify too, and name the event's transaction.
        var inner: [(AppleVerifier.Kind, String)] = []
        for d in decoded {
            inner.append((.transaction, d["data"]!["signedTransactionInfo"]!.stringValue!))
            if let r = d["data"]?["signedRenewalInfo"]?.stringValue { inner.append((.renewal, r)) }
        }
        let innerDecoded = try AppleVerifier.decode(inner)
        #expect(innerDecoded.allSatisfy { $0["error"] == nil }, "\(innerDecoded)")
        let refunded = try #require(innerDecoded.last)
        #expect(refunded["transactionId"] == .string("2000000000000006") && refunded["revocationReason"] == .number("0"))
    }
}
