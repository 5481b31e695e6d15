import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit

/// Real artifacts from Xcode's StoreKit testing, decoded with this layer alone.
@Suite("Crypto: interop vectors")
struct CryptoInteropTests {
    /// Xcode's StoreKit 2 JWS: base64url parts, an x5c certificate with a P-256 key, and a raw
    /// 64-byte r || s ES256 signature over `header.payload`.
    @Test func xcodeSignedTransactionVerifies() throws {
        let jws = try CryptoTestSupport.fixtureText("vectors/xcode-signed-transaction").trimmingCharacters(
            in: .whitespacesAndNewlines)
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let header = try #require(Base64URL.decode(parts[0]))
        let payload = try #require(Base64URL.decode(parts[1]))
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64)
        let headerJSON = try #require(try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any])
        #expect(headerJSON["alg"] as? String == "ES256")
        let x5c = try #require(headerJSON["x5c"] as? [String])
        let certificate = try Certificate(der: try #require(Base64.decode(x5c[0])))
        #expect(certificate.subject.commonName == "StoreKit Testing in Xcode")
        #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
        #expect(certificate.isSigned(by: certificate))
        guard case .p256(let key) = certificate.publicKey else {
            Issue.record("expected a P-256 key")
            return
        }
        let signingInput = Array((parts[0] + "." + parts[1]).utf8)
        #expect(key.isValidSignature(raw: signature, for: signingInput))
        #expect(!key.isValidSignature(raw: signature, for: signingInput + [0x20]))
        let payloadJSON = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(payloadJSON["productId"] as? String == "pass.premium")
        // Re-encoding the decoded parts gives back the same text.
        #expect(Base64URL.encode(header) == parts[0])
        #expect(Base64URL.encode(signature) == parts[2])
    }

    /// Rebuilding every element of real certificates with the DER writer reproduces their bytes.
    @Test(arguments: ["signing/root.pem", "signing/intermediate.pem", "signing/leaf.pem", "vectors/StoreKitTestCertificate.pem"])
    func derTreeRoundTrip(_ path: String) throws {
        let certificate = try Certificate(pemRepresentation: CryptoTestSupport.fixtureText(path))
        func rebuild(_ element: ASN1Element) -> [UInt8] {
            element.tag.isConstructed
                ? DER.element(element.tag, content: element.children.flatMap(rebuild))
                : DER.element(element.tag, content: element.content)
        }
        #expect(rebuild(try ASN1Element(der: certificate.der)) == certificate.der)
    }

    /// The empty Xcode receipt has the same shape, and its payload lacks attribute 17.
    @Test func emptyXcodeReceipt() throws {
        let bytes = try #require(Base64.decode(CryptoTestSupport.fixtureText("vectors/xcode-app-receipt-empty")))
        let signedData = try ASN1Element(ber: bytes).child(1, "[0]").child(0, "SignedData")
        let payload = try ASN1Element(der: signedData.child(2, "encap").child(1, "[0]").child(0, "eContent").octetStringValue())
        let types = try payload.children.map { try $0.child(0, "type").intValue() }
        #expect(!types.contains(17))
        #expect(types.contains(2) && types.contains(12))
    }
}
