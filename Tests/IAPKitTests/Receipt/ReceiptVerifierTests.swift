import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit

/// RMStore's local verifier, check by check.
@Suite("Receipts: local verification")
struct ReceiptVerifierTests {
    static func expectations(_ h: MachineHarness, product: String? = nil, transaction: String? = nil) -> ReceiptExpectations {
        ReceiptExpectations(
            root: SigningIdentity.builtin.root, bundleID: h.state.bundleID, appVersion: h.state.appVersion,
            deviceID: h.state.deviceIdentifier, transactionID: transaction, productID: product)
    }

    @Test("the store's receipt passes every check, markers included")
    func valid() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.noads")
        let d = try DecodedReceipt.decode(ReceiptPayloadTests.signed(h).der)
        let report = ReceiptVerifier.verify(
            d, expecting: Self.expectations(h, product: "com.x.noads", transaction: t.id.description))
        #expect(
            report.checks.map(\.name) == [
                "signature", "chain", "appleMarkers", "bundleId", "appVersion", "hash", "transaction", "product",
            ])
        #expect(report.checks.allSatisfy { $0.verdict == .pass })
        #expect(report.isValid)
    }

    @Test("each expectation that differs fails its own check only")
    func mismatches() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.noads")
        let d = try DecodedReceipt.decode(ReceiptPayloadTests.signed(h).der)
        var e = Self.expectations(h, product: "com.x.guide", transaction: "42")
        e.bundleID = "com.other.app"
        e.appVersion = "2.0"
        e.deviceID = [UInt8](repeating: 7, count: 16)
        let report = ReceiptVerifier.verify(d, expecting: e)
        let failed = report.checks.filter { $0.verdict == .fail }.map(\.name)
        #expect(failed == ["bundleId", "appVersion", "hash", "transaction", "product"])
        #expect(report.check("bundleId")?.detail == "the receipt's bundle id is 'com.x.demo', the app's is 'com.other.app'")
        #expect(report.check("product")?.detail == "the receipt does not contain the given product com.x.guide")
    }

    @Test("another root: the chain fails, the signature still verifies with the embedded leaf")
    func wrongRoot() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.noads")
        let d = try DecodedReceipt.decode(ReceiptPayloadTests.signed(h).der)
        var e = Self.expectations(h)
        e.root = try Certificate(pemRepresentation: CryptoTestSupport.fixtureText("vectors/StoreKitTestCertificate.pem"))
        let report = ReceiptVerifier.verify(d, expecting: e)
        #expect(report.check("signature")?.verdict == .pass)
        #expect(report.check("chain")?.verdict == .fail)
        #expect(!report.isValid)
    }

    @Test("changing any single byte of the signed content (the payload) makes verification fail")
    func everyPayloadByte() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.coin42")
        let der = ReceiptPayloadTests.signed(h).der
        let envelope = try PKCS7SignedData.parse(der)
        let start = envelope.contentOffsets.file(0)
        let e = Self.expectations(h)
        #expect(ReceiptVerifier.verify(try DecodedReceipt.decode(der), expecting: e).isValid)
        var checked = 0
        for i in start..<(start + envelope.content.count) {
            var damaged = der
            damaged[i] ^= 0x01
            guard let d = try? DecodedReceipt.decode(damaged) else {
                checked += 1  // no longer a receipt: rejected before any check
                continue
            }
            let report = ReceiptVerifier.verify(d, expecting: e)
            #expect(!report.isValid, "byte \(i) changed and the receipt still verifies")
            #expect(report.check("signature")?.verdict == .fail)
            checked += 1
        }
        #expect(checked == envelope.content.count)
        #expect(checked > 200)
    }

    @Test("a changed signature byte fails the signature check")
    func signatureBytes() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.coin42")
        let der = ReceiptPayloadTests.signed(h).der
        let e = Self.expectations(h)
        // The signature OCTET STRING is the receipt's last element.
        for back in 1...8 {
            var damaged = der
            damaged[der.count - back] ^= 0x80
            guard let d = try? DecodedReceipt.decode(damaged) else { continue }
            #expect(ReceiptVerifier.verify(d, expecting: e).check("signature")?.verdict == .fail)
        }
    }

    @Test("Xcode's receipt: RSA signature and chain verify against StoreKitTestCertificate.pem; markers are skipped")
    func xcodeRSA() throws {
        let d = try DecodedReceipt.decode([UInt8](try CryptoTestSupport.fixture("vectors/xcode-app-receipt-with-transaction")))
        let root = try Certificate(pemRepresentation: CryptoTestSupport.fixtureText("vectors/StoreKitTestCertificate.pem"))
        let e = ReceiptExpectations(
            root: root, bundleID: "com.example.naturelab.backyardbirds.example", appVersion: "1",
            deviceID: [UInt8](repeating: 0, count: 16), transactionID: "0", productID: "pass.premium")
        let report = ReceiptVerifier.verify(d, expecting: e)
        #expect(report.check("signature")?.detail == "sha256WithRSAEncryption by 'StoreKit'")
        #expect(report.check("signature")?.verdict == .pass)
        #expect(report.check("chain")?.verdict == .pass)
        #expect(report.check("appleMarkers")?.verdict == .skip)
        #expect(report.check("bundleId")?.verdict == .pass)
        #expect(report.check("transaction")?.verdict == .pass)
        #expect(report.check("product")?.verdict == .pass)
        // The device is unknown: the hash cannot match.
        #expect(report.check("hash")?.verdict == .fail)
    }
}
