import Foundation
import IAPKit
import Testing

@testable import IAPCrypto

/// `receipt`, `receipt decode`, `verify`, `refresh-receipt` and `init --signing-dir`, run as the
/// built binary, cross-checked with openssl and Apple's Python library.
@Suite("Receipts end to end")
struct ReceiptCommandTests {
    static let root = CLIHarness.fixture("signing/root.pem")
    static let xcodeReceipt = CLIHarness.fixture("vectors/xcode-app-receipt-with-transaction")
    static let storeKitCertificate = CLIHarness.fixture("vectors/StoreKitTestCertificate.pem")

    /// A store with a consumable, a non-consumable and a subscription renewed twice.
    static func populated() -> CLIHarness {
        let h = CLIHarness("iapctl-receipt")
        for product in ["com.x.coin42", "com.x.noads", "com.x.vip2"] { h.ok(["buy", product]) }
        h.ok(["clock", "advance", "190d"])
        return h
    }

    @Test("openssl smime verifies the DER receipt against the test root, and its content is the payload")
    func opensslVerifies() throws {
        let h = Self.populated()
        #expect(h.ok(["receipt", "--der", "r.der"]).hasPrefix("wrote the app receipt ("))
        let r = try ExternalTool.run(
            "openssl",
            [
                "smime", "-verify", "-inform", "DER", "-in", "r.der", "-CAfile", Self.root, "-purpose", "any", "-out",
                "content.bin",
            ],
            in: h.directory)
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Verification successful"))
        let content = h.bytes("content.bin")
        let json = try #require(h.run(["receipt", "--json"]).json)
        #expect(SHA1.hash(content).count == 20 && content.first == 0x31)
        #expect(json["inApp"]?.arrayValue?.count == 5)
        // The same store gives the same bytes, as base64 or DER.
        #expect(h.ok(["receipt"]) == Base64.encode(h.bytes("r.der")) + "\n")
        #expect(h.ok(["receipt"]) == h.ok(["receipt"]))
        // Another root does not verify it.
        let other = try ExternalTool.run(
            "openssl",
            [
                "smime", "-verify", "-inform", "DER", "-in", "r.der", "-CAfile", Self.storeKitCertificate, "-purpose", "any",
                "-out", "/dev/null",
            ],
            in: h.directory)
        #expect(other.code != 0)
    }

    @Test("Apple's app-store-server-library ReceiptUtility extracts one of the receipt's transaction ids")
    func appleLibraryExtracts() throws {
        let h = Self.populated()
        let base64 = h.ok(["receipt"])
        let id = try ExternalTool.appleExtractTransactionID(base64)
        let ids = try #require(h.run(["receipt", "--json"]).json?["inApp"]?.arrayValue).compactMap { entry in
            [entry["transactionIdentifier"]?.stringValue, entry["originalTransactionIdentifier"]?.stringValue]
        }.flatMap { $0 }.compactMap { $0 }
        #expect(ids.contains(id), "\(id) not in \(ids)")
        // And on Xcode's own receipt, as Apple's tests do.
        #expect(
            try ExternalTool.appleExtractTransactionID(String(decoding: h.fileBytes(Self.xcodeReceipt) ?? [], as: UTF8.self))
                == "0")
    }

    @Test("receipt decode reads Xcode's BER receipt, from a file or stdin, into the JSON receipt --json prints")
    func decodeXcode() throws {
        let h = CLIHarness()
        let json = try #require(h.run(["receipt", "decode", Self.xcodeReceipt, "--json"]).json)
        #expect(json["environment"]?.stringValue == "Xcode")
        #expect(json["bundleId"]?.stringValue == "com.example.naturelab.backyardbirds.example")
        #expect(json["appVersion"]?.stringValue == "1")
        #expect(json["creationDate"]?.stringValue == "2023-10-19T01:45:40Z")
        #expect(json["expirationDate"]?.stringValue == "4001-01-01T00:00:00Z")
        let entry = try #require(json["inApp"]?.arrayValue?.first)
        #expect(entry["productIdentifier"]?.stringValue == "pass.premium")
        #expect(entry["transactionIdentifier"]?.stringValue == "0")
        #expect(entry["quantity"]?.int64Value == 1)
        #expect(entry["expiresDate"]?.stringValue == "2023-11-19T01:45:36Z")
        #expect(entry["isInIntroOfferPeriod"] == .bool(true))
        #expect(json["signature"]?["encoding"]?.stringValue == "BER")
        #expect(json["signature"]?["signatureAlgorithm"]?.stringValue == "sha256WithRSAEncryption")
        let viaStdin = h.run(
            ["receipt", "decode", "-", "--json"], stdin: String(decoding: h.fileBytes(Self.xcodeReceipt) ?? [], as: UTF8.self))
        #expect(viaStdin.stdout == h.run(["receipt", "decode", Self.xcodeReceipt, "--json"]).stdout)
        // Decoding needs no store.
        #expect(!FileManager.default.fileExists(atPath: h.store))
        let text = h.ok(["receipt", "decode", Self.xcodeReceipt])
        #expect(text.contains("environment           Xcode\n"))
        #expect(text.contains("  0  pass.premium  x1  2023-10-19T01:45:36Z  expires 2023-11-19T01:45:36Z\n"))
        // The store's own receipt decodes to what receipt --json prints.
        let s = Self.populated()
        s.write("mine.b64", s.ok(["receipt"]))
        #expect(s.run(["receipt", "decode", "mine.b64", "--json"]).stdout == s.run(["receipt", "--json"]).stdout)
    }

    @Test(
        "malformed receipts exit 65 naming the byte offset; a missing file exits 66",
        arguments: [
            ("MIIB", "cannot decode receipt 'bad': at byte 3: expected 2 length bytes"),
            (
                "hello world!",
                "cannot decode receipt 'bad': at byte 11: expected base64 text or DER bytes starting with 0x30 (found '!')"
            ),
            ("", "cannot decode receipt 'bad': at byte 0: expected a receipt (the input is empty)"),
            (
                "AAAA",
                "cannot decode receipt 'bad': at byte 0: expected base64 of a PKCS#7 receipt, which starts with 'MI' (found 'A...')"
            ),
        ])
    func malformed(_ content: String, _ message: String) {
        let h = CLIHarness()
        h.write("bad", content)
        let r = h.run(["receipt", "decode", "bad"])
        #expect(r.code == 65)
        #expect(r.stderr == "error: \(message) (give an App Store receipt as base64 text or DER bytes)\n")
        #expect(r.stdout == "")
        let missing = h.run(["receipt", "decode", "nope.b64"])
        #expect(missing.code == 66)
        #expect(
            missing.stderr == "error: cannot read 'nope.b64': no such file (give a receipt file, base64 or DER, or - for stdin)\n"
        )
    }

    @Test("a receipt cut anywhere exits 65 naming where it ends; never a crash")
    func truncationsNeverCrash() throws {
        let h = Self.populated()
        h.ok(["receipt", "--der", "r.der"])
        let der = h.bytes("r.der")
        for length in stride(from: 0, to: der.count, by: max(1, der.count / 40)) {
            _ = FileManager.default.createFile(atPath: h.path("cut.der"), contents: Data(der.prefix(length)))
            let r = h.run(["receipt", "decode", "cut.der"])
            #expect(r.code == 65, "length \(length): \(r)")
            #expect(r.stderr.hasPrefix("error: cannot decode receipt 'cut.der': at byte "))
        }
    }

    @Test("verify: every check passes on the store's receipt; Xcode's passes signature and chain against its certificate")
    func verify() throws {
        let h = Self.populated()
        let text = h.ok(["verify", "--product", "com.x.noads", "--transaction", "2000000000000001"])
        #expect(text.hasSuffix("valid\n"))
        #expect(
            text.contains("appleMarkers  pass  leaf has 1.2.840.113635.100.6.11.1, intermediate has 1.2.840.113635.100.6.2.1\n"))
        let xcode = h.run([
            "verify", "--receipt", Self.xcodeReceipt, "--root", Self.storeKitCertificate, "--bundle-id",
            "com.example.naturelab.backyardbirds.example", "--app-version", "1", "--product", "pass.premium", "--json",
        ])
        #expect(xcode.code == 1)
        let checks = try #require(xcode.json?["checks"]?.arrayValue)
        let verdicts = Dictionary(uniqueKeysWithValues: checks.map { ($0["name"]!.stringValue!, $0["verdict"]!.stringValue!) })
        #expect(
            verdicts == [
                "signature": "pass", "chain": "pass", "appleMarkers": "skip", "bundleId": "pass", "appVersion": "pass",
                "hash": "fail", "product": "pass",
            ])
        // The device that made it is unknown; given the right device id the hash would pass, so a wrong one fails.
        let wrongDevice = h.run(["verify", "--device-id", "00000000-0000-0000-0000-000000000000"])
        #expect(wrongDevice.code == 1)
        #expect(wrongDevice.stdout.hasSuffix("invalid: hash failed\n"))
        // A verification fault fails it, and the events say so.
        h.ok(["fault", "add", "verification", "200"])
        let faulted = h.run(["verify"])
        #expect(faulted.code == 1)
        #expect(faulted.stdout.contains("invalid: an injected verification fault failed it: net.robotmedia.store 200"))
        #expect(
            Array(h.eventNames().suffix(4)) == [
                "receiptVerificationFailed", "faultAdded", "faultFired", "receiptVerificationFailed",
            ])
        h.expectRefused(
            ["verify", "--device-id", "xyz"], code: 64,
            "bad --device-id 'xyz'; give 32 hex digits or a UUID such as 8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E90 (see 'iapctl help verify')"
        )
        h.expectRefused(
            ["verify", "--root", "missing.pem"], code: 66,
            "cannot read 'missing.pem': no such file (give the trusted root certificate for --root, PEM or DER, such as AppleRootCA-G3.cer)"
        )
        h.write("bad.pem", "not a certificate")
        h.expectRefused(
            ["verify", "--root", "bad.pem"], code: 65,
            "--root bad.pem: not a certificate (at byte 0: expected a '-----BEGIN ...-----' line); give a PEM or DER X.509 certificate"
        )
    }

    @Test("refresh-receipt: finished, then failed by an injected refresh-receipt fault")
    func refresh() {
        let h = Self.populated()
        #expect(h.ok(["refresh-receipt"]).hasPrefix("receipt refreshed: 5 in-app purchases, created "))
        h.ok(["fault", "add", "refresh-receipt", "cloudServiceNetworkConnectionFailed"])
        let r = h.run(["refresh-receipt"])
        #expect(r.code == 1)
        #expect(r.stderr.hasPrefix("error: receipt refresh failed: SKErrorDomain 7 (cloudServiceNetworkConnectionFailed)"))
        #expect(
            Array(h.eventNames().suffix(4)) == ["refreshReceiptFinished", "faultAdded", "faultFired", "refreshReceiptFailed"])
    }

    @Test("init --signing-dir: the user's own chain signs receipts, openssl verifies them against that root only")
    func ownSigningChain() throws {
        let h = CLIHarness("iapctl-signing")
        let dir = h.path("chain")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLIHarness.fixture("signing/make-chain.sh"), toPath: dir + "/make-chain.sh")
        let made = try ExternalTool.run("sh", [dir + "/make-chain.sh"], in: dir)
        #expect(made.code == 0, "\(made.stderr)")
        #expect(h.ok(["init", "--signing-dir", dir]).hasPrefix("created store "))
        h.ok(["buy", "com.x.noads"])
        h.ok(["receipt", "--der", "r.der"])
        let mine = try ExternalTool.run(
            "openssl",
            [
                "smime", "-verify", "-inform", "DER", "-in", "r.der", "-CAfile", dir + "/root.pem", "-purpose", "any", "-out",
                "/dev/null",
            ],
            in: h.directory)
        #expect(mine.code == 0, "\(mine.stderr)")
        let test = try ExternalTool.run(
            "openssl",
            ["smime", "-verify", "-inform", "DER", "-in", "r.der", "-CAfile", Self.root, "-purpose", "any", "-out", "/dev/null"],
            in: h.directory)
        #expect(test.code != 0)
        #expect(h.ok(["verify"]).hasSuffix("valid\n"))
        // Its receipts do not verify at a store with the test chain (verifyReceipt: 21003).
        let other = CLIHarness()
        other.write("r.der", "")
        _ = FileManager.default.createFile(atPath: other.path("r.der"), contents: Data(h.bytes("r.der")))
        let status = other.run(["verify-receipt", "r.der"])
        #expect(status.stdout == "{\"status\":21003}\n")
        // The copy is checked: a swapped signing file is refused.
        _ = FileManager.default.createFile(
            atPath: h.store + "/signing", contents: Data("iapctl-signing v1 crc32c=00000000 length=0\n".utf8))
        let damaged = h.run(["receipt"])
        #expect(damaged.code == 65)
        #expect(
            damaged.stderr.contains("/signing: checksum mismatch")
                || damaged.stderr.contains("/signing: is not the signing chain"))
    }

    @Test("init --signing-dir refuses a bad chain with 65 or 66 and leaves an existing store as it was")
    func badSigningDirectory() throws {
        let h = CLIHarness("iapctl-signing")
        h.ok(["buy", "com.x.coin42"])
        let dir = h.path("chain")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        h.expectRefused(
            ["init", "--force", "--signing-dir", h.path("nowhere")], code: 66,
            "cannot read '\(h.path("nowhere"))': no such directory (give a folder holding leaf.pem, intermediate.pem, root.pem, leaf-key.pem)"
        )
        h.expectRefused(
            ["init", "--force", "--signing-dir", dir], code: 66,
            "cannot read '\(dir)/leaf.pem': no such file (a signing directory holds leaf.pem, intermediate.pem, root.pem, leaf-key.pem)"
        )
        for name in ["leaf.pem", "intermediate.pem", "root.pem", "leaf-key.pem"] {
            try FileManager.default.copyItem(atPath: CLIHarness.fixture("signing/" + name), toPath: dir + "/" + name)
        }
        // The leaf's key does not match: use the root as the leaf.
        try FileManager.default.removeItem(atPath: dir + "/leaf.pem")
        try FileManager.default.copyItem(atPath: CLIHarness.fixture("signing/root.pem"), toPath: dir + "/leaf.pem")
        h.expectRefused(
            ["init", "--force", "--signing-dir", dir], code: 65,
            "\(dir)/leaf-key.pem does not match \(dir)/leaf.pem: the private key's public half differs from the leaf's key")
        h.write("chain/leaf.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        let r = h.run(["init", "--force", "--signing-dir", dir])
        #expect(r.code == 65)
        #expect(r.stderr.hasPrefix("error: \(dir)/leaf.pem: not a PEM certificate ("))
        #expect(h.run(["queue", "--json"]).json?.arrayValue?.count == 1)
    }
}
