import Foundation
import IAPKit
import Testing

@testable import IAPJSON

/// Every JWS in Fixtures/real/jws (signed by the App Store, or by Apple's test chains), through
/// `iapctl jws decode --root` and through Apple's `SignedDataVerifier` (app-store-server-library,
/// online checks off, the environment and bundle id the file was made for): the verdicts and the
/// decoded fields agree, and both agree with Fixtures/real/manifest.json, which was read from the
/// files independently (openssl, Apple's library).
@Suite("Real App Store JWS: iapctl and Apple's SignedDataVerifier agree")
struct RealJWSTests {
    /// One file and how it is verified, from manifest.json (or the test chain's own manifest).
    struct Case: CustomTestStringConvertible, @unchecked Sendable {
        let file: String
        let kind: String
        let root: String
        let environment: String
        let bundleID: String?
        let appAppleID: Int64?
        /// Apple's verdict: `OK` or the `VerificationStatus` name.
        let appleVerdict: String
        /// What app-store-server-library answers here, when it differs from `appleVerdict`.
        let pythonVerdict: String
        let entry: [String: Any]
        var testDescription: String { (file as NSString).lastPathComponent }
    }

    static func environmentName(_ text: String) -> String {
        ["SANDBOX": "Sandbox", "PRODUCTION": "Production", "XCODE": "Xcode", "LOCAL_TESTING": "LocalTesting"][text] ?? text
    }

    static let cases: [Case] = {
        func load(_ path: String) -> [String: Any] {
            let data = FileManager.default.contents(atPath: CLIHarness.fixture(path))!
            return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        }
        var out: [Case] = []
        for e in load("real/manifest.json")["jws"] as! [[String: Any]] {
            let with = e["verifiedWith"] as! [String: Any]
            let verdict = e["appleVerifierVerdict"] as! String
            out.append(
                Case(
                    file: e["file"] as! String, kind: e["kind"] as! String, root: "certs/apple-root-ca-g3.der",
                    environment: environmentName(with["environment"] as! String), bundleID: with["bundleId"] as? String,
                    appAppleID: (with["appAppleId"] as? NSNumber)?.int64Value, appleVerdict: verdict, pythonVerdict: verdict,
                    entry: e))
        }
        for e in load("real/jws/apple-test-chain/manifest.json")["jws"] as! [[String: Any]] {
            let with = e["verifiedWith"] as! [String: Any]
            out.append(
                Case(
                    file: e["file"] as! String, kind: e["kind"] as! String, root: e["root"] as! String,
                    environment: with["environment"] as! String, bundleID: with["bundleId"] as? String,
                    appAppleID: (with["appAppleId"] as? NSNumber)?.int64Value, appleVerdict: e["appleVerdict"] as! String,
                    pythonVerdict: e["pythonVerdictHere"] as! String, entry: e))
        }
        return out
    }()

    /// Every .jws file under Fixtures/real/jws has a manifest entry, so none goes untested.
    @Test func everyFileIsListed() throws {
        let root = CLIHarness.fixture("real/")
        let files = try #require(FileManager.default.subpaths(atPath: root + "jws")).filter { $0.hasSuffix(".jws") }
        #expect(Set(files.map { "jws/" + $0 }) == Set(Self.cases.map(\.file)))
        #expect(files.count >= 13)
    }

    /// Apple's verifier on one file: `{"verdict": "OK" | STATUS, "decoded": {...}}`.
    static let script = """
        import sys, json
        try:
            from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
            from appstoreserverlibrary.models.Environment import Environment
            from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
        except ImportError as e:
            print("app-store-server-library is not installed (pip install -r requirements-test.txt): %s" % e, file=sys.stderr)
            sys.exit(3)
        for job in json.load(sys.stdin):
            verifier = SignedDataVerifier([open(job['root'], 'rb').read()], False, Environment(job['environment']),
                                          job['bundleId'] or 'renewal.infos.carry.no.bundle.id', job['appAppleId'])
            method = {'notification': verifier.verify_and_decode_notification,
                      'transaction': verifier.verify_and_decode_signed_transaction,
                      'renewalInfo': verifier.verify_and_decode_renewal_info,
                      'appTransaction': verifier.verify_and_decode_app_transaction}[job['kind']]
            try:
                decoded = method(open(job['file']).read().strip())
                out = {'verdict': 'OK', 'decoded': _get_cattrs_converter(type(decoded)).unstructure(decoded)}
            except VerificationException as e:
                out = {'verdict': e.status.name, 'decoded': None}
            print(json.dumps(out, sort_keys=True))
        """

    /// Apple's answer per file, as the JSON line the script printed (parsed by each test).
    static let appleResults: [String: String] = {
        let jobs: [[String: Any]] = cases.map { c in
            [
                "file": CLIHarness.fixture("real/" + c.file), "root": CLIHarness.fixture("real/" + c.root), "kind": c.kind,
                "environment": c.environment, "bundleId": c.bundleID as Any? ?? NSNull(),
                "appAppleId": c.appAppleID.map { NSNumber(value: $0) } ?? NSNull(),
            ]
        }
        let input = String(decoding: try! JSONSerialization.data(withJSONObject: jobs), as: UTF8.self)
        guard let r = try? ExternalTool.run("python3", ["-c", script], stdin: input), r.code == 0 else { return [:] }
        var out: [String: String] = [:]
        for (c, line) in zip(cases, r.stdout.split(separator: "\n")) { out[c.file] = String(line) }
        return out
    }()

    /// `iapctl jws decode FILE --root ROOT --bundle-id --environment [--app-apple-id] --json`.
    static func ours(_ c: Case, strict: Bool = false) -> (result: CLIResult, json: [String: Any]?) {
        let h = CLIHarness()
        var arguments = [
            "jws", "decode", CLIHarness.fixture("real/" + c.file), "--root", CLIHarness.fixture("real/" + c.root),
            "--environment", c.environment, "--json",
        ]
        if strict { arguments.append("--strict") }
        if let b = c.bundleID { arguments += ["--bundle-id", b] }
        if let id = c.appAppleID, c.environment == "Production" { arguments += ["--app-apple-id", String(id)] }
        let r = h.run(arguments, useStore: false)
        return (r, try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    @Test(arguments: cases)
    func sameVerdictAsApple(_ c: Case) throws {
        let line = try #require(Self.appleResults[c.file], "Apple's SignedDataVerifier did not run (python3 on PATH?)")
        let apple = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(apple["verdict"] as? String == c.pythonVerdict, "\(c.file): Apple's verifier answered \(apple["verdict"] ?? "-")")
        let (result, json) = Self.ours(c)
        let verification = try #require(json?["verification"] as? [String: Any], "\(result)")
        let valid = try #require(verification["valid"] as? Bool)
        #expect(
            valid == (c.appleVerdict == "OK"),
            "\(c.file): iapctl says \(valid ? "valid" : "invalid"), Apple \(c.appleVerdict)\n\(result)")
        #expect(result.code == (valid ? 0 : 1))
        // What Apple decoded, iapctl shows, member for member.
        if let decoded = apple["decoded"] as? [String: Any], let payload = json?["payload"] as? [String: Any] {
            for (key, value) in decoded where !(value is NSNull) {
                if let nested = value as? [String: Any] {
                    let ours = payload[key] as? [String: Any] ?? [:]
                    for (k, v) in nested where !(v is NSNull) {
                        #expect((ours[k] as? NSObject) == (v as? NSObject), "\(c.file): \(key).\(k)")
                    }
                } else {
                    #expect((payload[key] as? NSObject) == (value as? NSObject), "\(c.file): \(key)")
                }
            }
        }
    }

    /// With `--strict` (OpenSSL's X509_STRICT, which the Python library sets), iapctl gives the
    /// verdict app-store-server-library gives here on every file: the App Store's chains pass,
    /// and Apple's test chains fail on their leaf's missing Authority Key Identifier, as
    /// `openssl verify -x509_strict` reports too (error 85).
    @Test(arguments: cases)
    func strictGivesThePythonVerdict(_ c: Case) throws {
        let line = try #require(Self.appleResults[c.file], "Apple's SignedDataVerifier did not run (python3 on PATH?)")
        let apple = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let (result, json) = Self.ours(c, strict: true)
        let verification = try #require(json?["verification"] as? [String: Any], "\(result)")
        let valid = try #require(verification["valid"] as? Bool)
        #expect(
            valid == ((apple["verdict"] as? String) == "OK"),
            "\(c.file): --strict says \(valid), Python \(apple["verdict"] ?? "-")")
        let checks = verification["checks"] as? [[String: Any]] ?? []
        let chain = checks.first { $0["name"] as? String == "chain" }
        if c.pythonVerdict != c.appleVerdict, c.appleVerdict == "OK" {
            #expect((chain?["detail"] as? String)?.contains("Missing Authority Key Identifier") == true, "\(chain ?? [:])")
        }
        if c.appleVerdict == "OK" && c.pythonVerdict == "OK" { #expect(chain?["verdict"] as? String == "pass") }
    }

    /// The time rule: a signedDate is the time; without one, now (which Apple's verifier uses too),
    /// or --at. The 2022 DID_RENEW has none: its leaf expired in 2023, so it fails now and passes
    /// at a time inside the leaf's validity.
    @Test func notificationWithoutSignedDate() throws {
        let h = CLIHarness()
        let file = CLIHarness.fixture("real/jws/gopay-notification-did-renew-sandbox-2022-no-signed-date.jws")
        let root = CLIHarness.fixture("real/certs/apple-root-ca-g3.der")
        let now = h.run(["jws", "decode", file, "--root", root, "--json"], useStore: false)
        #expect(now.code == 1)
        #expect(now.json?["verification"]?["time"]?["source"] == .string("now"))
        let chain = now.json?["verification"]?["checks"]?.arrayValue?.first { $0["name"] == .string("chain") }
        #expect(
            chain?["detail"]?.stringValue?.hasPrefix(
                "certificate 'CN=Prod ECC Mac App Store and iTunes Store Receipt Signing,OU=Apple Worldwide Developer Relations,O=Apple Inc.,C=US': expired at 2023-09-24T02:50:33Z (checked at "
            ) == true, "\(now)")
        #expect(chain?["detail"]?.stringValue?.hasSuffix(") (now: the payload has no signedDate)") == true)
        let at = h.run(["jws", "decode", file, "--root", root, "--at", "2022-03-04T09:43:28Z"], useStore: false)
        #expect(at.code == 0, "\(at)")
        #expect(
            at.stdout.contains(
                "chain         pass  'Prod ECC Mac App Store and iTunes Store Receipt Signing' -> 'Apple Worldwide Developer Relations Certification Authority' -> 'Apple Root CA - G3', valid at 2022-03-04T09:43:28Z (the time given: the payload has no signedDate)\n"
            ))
        #expect(at.stdout.hasSuffix("signature     pass  ES256 over header.payload, with the leaf's key\nvalid\n"))
        // A signedDate wins over --at, with a warning saying so.
        let signed = h.run(
            [
                "jws", "decode", CLIHarness.fixture("real/jws/gopay-subscription-transaction-sandbox-2022.jws"), "--root", root,
                "--at", "2030-01-01",
            ], useStore: false)
        #expect(signed.code == 0)
        #expect(
            signed.stderr
                == "warning: --at 2030-01-01T00:00:00Z is not used: the payload's signedDate (2022-11-04T11:23:59.251Z) is the time Apple's verifier checks the certificates at\n"
        )
        #expect(signed.stdout.contains("valid at 2022-11-04T11:23:59.251Z (the payload's signedDate)\n"))
    }

    /// The fields each file holds, against the manifest: ids, product, environment, signing date,
    /// notification type and UUID, and every x5c certificate's subject and validity.
    @Test(arguments: cases)
    func fieldsMatchTheManifest(_ c: Case) throws {
        let (result, json) = Self.ours(c)
        let payload = try #require(json?["payload"] as? [String: Any], "\(result)")
        let entry = c.entry
        if let expected = entry["payload"] as? [String: Any] {
            for (key, value) in expected {
                if let nested = value as? [String: Any] {
                    for (k, v) in nested {
                        #expect(((payload[key] as? [String: Any])?[k] as? NSObject) == (v as? NSObject), "\(c.file): \(key).\(k)")
                    }
                } else {
                    #expect((payload[key] as? NSObject) == (value as? NSObject), "\(c.file): \(key)")
                }
            }
        }
        let top: [(String, String)] =
            c.kind == "notification"
            ? [("notificationType", "notificationType"), ("notificationUUID", "notificationUUID"), ("subtype", "subtype")]
            : [
                ("transactionId", "transactionId"), ("originalTransactionId", "originalTransactionId"),
                ("productId", "productId"),
            ]
        for (ours, theirs) in top where entry[theirs] != nil {
            let expected = entry[theirs] as? NSObject
            #expect((payload[ours] as? NSObject) == (expected is NSNull ? nil : expected), "\(c.file): \(ours)")
        }
        if let signed = entry["signedDate"] {
            #expect((payload["signedDate"] as? NSNumber) == (signed as? NSNumber), "\(c.file): signedDate")
        }
        if let x5c = entry["x5c"] as? [[String: Any]] {
            let certificates = try #require(json?["certificates"] as? [[String: Any]])
            #expect(certificates.count == x5c.count)
            for (ours, theirs) in zip(certificates, x5c) {
                #expect(ours["subject"] as? String == Self.rfc4514(theirs["subject"] as! String))
                #expect(ours["notBefore"] as? String == Self.rfc3339(theirs["notBefore"] as! String))
                #expect(ours["notAfter"] as? String == Self.rfc3339(theirs["notAfter"] as! String))
            }
            // Apple's chain: a P-256 leaf and two P-384 CAs, every link ecdsa-with-SHA384.
            #expect(certificates.map { ($0["publicKey"] as? [String: Any])?["curve"] as? String } == ["P-256", "P-384", "P-384"])
            #expect(certificates.map { $0["signatureAlgorithm"] as? String } == Array(repeating: "ecdsa-with-SHA384", count: 3))
            #expect(
                certificates.map { (($0["appleMarkers"] as? [[String: Any]]) ?? []).map { $0["oid"] as? String } } == [
                    ["1.2.840.113635.100.6.11.1"], ["1.2.840.113635.100.6.2.1"], [],
                ])
        }
        if let algorithms = entry["certificateSignatures"] as? [String] {
            let certificates = (json?["certificates"] as? [[String: Any]]) ?? []
            #expect(certificates.map { $0["signatureAlgorithm"] as? String } == algorithms)
        }
    }

    /// openssl's `CN = A, OU = B` as iapctl writes names: `CN=A,OU=B`.
    static func rfc4514(_ openssl: String) -> String {
        openssl.replacingOccurrences(of: " = ", with: "=").replacingOccurrences(of: ", ", with: ",")
    }

    /// openssl's `Sep 24 02:50:33 2023 GMT` as RFC 3339.
    static func rfc3339(_ openssl: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "MMM d HH:mm:ss yyyy zzz"
        let squeezed = openssl.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard let date = f.date(from: squeezed) else { return "unparsed: \(openssl)" }
        let out = ISO8601DateFormatter()
        return out.string(from: date)
    }
}
