import Foundation
import IAPKit
import Testing

@testable import IAPJSON

/// App transactions have no `signedDate`: Apple's verifier checks them at `receiptCreationDate`
/// and reads the environment from `receiptType` and, in Production, the app from `appAppleId`.
/// No App Store-signed app transaction with a licence to copy was found for Fixtures/real, so
/// these are signed with the store's chain and verified by `iapctl jws decode` and by Apple's
/// `verify_and_decode_app_transaction` against the store's root, which must agree.
@Suite("App transactions: receiptCreationDate and receiptType, as Apple's verifier reads them")
struct AppTransactionTests {
    static let script = """
        import sys, json
        from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
        from appstoreserverlibrary.models.Environment import Environment
        from cryptography import x509
        from cryptography.hazmat.primitives import serialization
        root = x509.load_pem_x509_certificate(open(sys.argv[1], 'rb').read()).public_bytes(serialization.Encoding.DER)
        for job in json.load(sys.stdin):
            v = SignedDataVerifier([root], False, Environment(job['environment']), job['bundleId'], job['appAppleId'])
            try:
                v.verify_and_decode_app_transaction(job['token'])
                print('OK')
            except VerificationException as e:
                print(e.status.name)
        """

    /// (payload, expected environment, expected bundle id, app Apple ID, Apple's verdict).
    static let cases: [(String, String, String, Int64?, String)] = [
        (
            #"{"receiptType":"Sandbox","appAppleId":1,"bundleId":"com.x.demo","applicationVersion":"1","receiptCreationDate":1767225601000,"originalPurchaseDate":1767225600000,"originalApplicationVersion":"1"}"#,
            "Sandbox", "com.x.demo", nil, "OK"
        ),
        (
            #"{"receiptType":"Production","appAppleId":42,"bundleId":"com.x.demo","receiptCreationDate":1767225601000}"#,
            "Production", "com.x.demo", 42, "OK"
        ),
        (
            #"{"receiptType":"Production","appAppleId":42,"bundleId":"com.x.demo","receiptCreationDate":1767225601000}"#,
            "Production", "com.x.demo", 43, "INVALID_APP_IDENTIFIER"
        ),
        (
            #"{"receiptType":"Sandbox","appAppleId":42,"bundleId":"com.x.demo","receiptCreationDate":1767225601000}"#,
            "Production", "com.x.demo", 42, "INVALID_ENVIRONMENT"
        ),
        (
            #"{"receiptType":"Sandbox","bundleId":"com.x.other","receiptCreationDate":1767225601000}"#, "Sandbox",
            "com.x.demo", nil, "INVALID_APP_IDENTIFIER"
        ),
        // A receipt creation date after the test chain's leaf expired (2099): both refuse the chain.
        (
            #"{"receiptType":"Sandbox","bundleId":"com.x.demo","receiptCreationDate":4200000000000}"#, "Sandbox",
            "com.x.demo", nil, "VERIFICATION_FAILURE"
        ),
    ]

    @Test func sameVerdictAsApple() throws {
        let signer = JWSSigner(identity: SigningIdentity.builtin)
        let root = CLIHarness.fixture("signing/root.pem")
        let tokens = Self.cases.map { signer.sign(Array($0.0.utf8)) }
        let jobs: [[String: Any]] = zip(Self.cases, tokens).map { c, token in
            [
                "token": token, "environment": c.1, "bundleId": c.2,
                "appAppleId": c.3.map { NSNumber(value: $0) } ?? NSNull(),
            ]
        }
        let input = String(decoding: try JSONSerialization.data(withJSONObject: jobs), as: UTF8.self)
        let apple = try ExternalTool.run("python3", ["-c", Self.script, root], stdin: input)
        #expect(apple.code == 0, "\(apple.stderr)")
        let verdicts = apple.stdout.split(separator: "\n").map(String.init)
        #expect(verdicts == Self.cases.map(\.4))
        let h = CLIHarness()
        for (c, token) in zip(Self.cases, tokens) {
            var arguments = ["jws", "decode", token, "--root", root, "--bundle-id", c.2, "--environment", c.1, "--json"]
            if let id = c.3 { arguments += ["--app-apple-id", String(id)] }
            let r = h.run(arguments, useStore: false)
            let valid = r.json?["verification"]?["valid"]?.boolValue
            #expect(valid == (c.4 == "OK"), "\(c.0): iapctl \(String(describing: valid)), Apple \(c.4)\n\(r)")
            #expect(r.json?["verification"]?["time"]?["source"] == .string("receiptCreationDate"))
        }
        let text = h.run(["jws", "decode", tokens[0], "--root", root], useStore: false)
        #expect(text.stdout.contains(", valid at 2026-01-01T00:00:01Z (the payload's receiptCreationDate)\n"), "\(text)")
    }
}
