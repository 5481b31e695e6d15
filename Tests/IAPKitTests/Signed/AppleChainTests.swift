import IAPCrypto
import IAPJSON
import IAPTime
import Testing

@testable import IAPKit

/// Apple's own chain tests (app-store-server-library-python `tests/test_x509_verifiction.py`, MIT,
/// commit 3ebaecf46d601b4390a33cdab6640ccb1c241f3d; the Swift library's SignedDataVerifierTests
/// hold the same certificates), replayed through `JWSVerifier`'s chain and marker checks at
/// Apple's EFFECTIVE_DATE (April 2023). The test chain is P-256 throughout, every certificate
/// signed with ecdsa-with-SHA384; the real one is Apple's (P-256 leaf, P-384 WWDR G6 and Root G3).
@Suite("Apple's chain tests: test chain and real chain, markers, expiry, wrong root")
struct AppleChainTests {
    static let root =
        "MIIBgjCCASmgAwIBAgIJALUc5ALiH5pbMAoGCCqGSM49BAMDMDYxCzAJBgNVBAYTAlVTMRMwEQYDVQQIDApDYWxpZm9ybmlhMRIwEAYDVQQHDAlDdXBlcnRpbm8wHhcNMjMwMTA1MjEzMDIyWhcNMzMwMTAyMjEzMDIyWjA2MQswCQYDVQQGEwJVUzETMBEGA1UECAwKQ2FsaWZvcm5pYTESMBAGA1UEBwwJQ3VwZXJ0aW5vMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEc+/Bl+gospo6tf9Z7io5tdKdrlN1YdVnqEhEDXDShzdAJPQijamXIMHf8xWWTa1zgoYTxOKpbuJtDplz1XriTaMgMB4wDAYDVR0TBAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwMDRwAwRAIgemWQXnMAdTad2JDJWng9U4uBBL5mA7WI05H7oH7c6iQCIHiRqMjNfzUAyiu9h6rOU/K+iTR0I/3Y/NSWsXHX+acc"
    static let intermediate =
        "MIIBnzCCAUWgAwIBAgIBCzAKBggqhkjOPQQDAzA2MQswCQYDVQQGEwJVUzETMBEGA1UECAwKQ2FsaWZvcm5pYTESMBAGA1UEBwwJQ3VwZXJ0aW5vMB4XDTIzMDEwNTIxMzEwNVoXDTMzMDEwMTIxMzEwNVowRTELMAkGA1UEBhMCVVMxCzAJBgNVBAgMAkNBMRIwEAYDVQQHDAlDdXBlcnRpbm8xFTATBgNVBAoMDEludGVybWVkaWF0ZTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABBUN5V9rKjfRiMAIojEA0Av5Mp0oF+O0cL4gzrTF178inUHugj7Et46NrkQ7hKgMVnjogq45Q1rMs+cMHVNILWqjNTAzMA8GA1UdEwQIMAYBAf8CAQAwDgYDVR0PAQH/BAQDAgEGMBAGCiqGSIb3Y2QGAgEEAgUAMAoGCCqGSM49BAMDA0gAMEUCIQCmsIKYs41ullssHX4rVveUT0Z7Is5/hLK1lFPTtun3hAIgc2+2RG5+gNcFVcs+XJeEl4GZ+ojl3ROOmll+ye7dynQ="
    static let leaf =
        "MIIBoDCCAUagAwIBAgIBDDAKBggqhkjOPQQDAzBFMQswCQYDVQQGEwJVUzELMAkGA1UECAwCQ0ExEjAQBgNVBAcMCUN1cGVydGlubzEVMBMGA1UECgwMSW50ZXJtZWRpYXRlMB4XDTIzMDEwNTIxMzEzNFoXDTMzMDEwMTIxMzEzNFowPTELMAkGA1UEBhMCVVMxCzAJBgNVBAgMAkNBMRIwEAYDVQQHDAlDdXBlcnRpbm8xDTALBgNVBAoMBExlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATitYHEaYVuc8g9AjTOwErMvGyPykPa+puvTI8hJTHZZDLGas2qX1+ErxgQTJgVXv76nmLhhRJH+j25AiAI8iGsoy8wLTAJBgNVHRMEAjAAMA4GA1UdDwEB/wQEAwIHgDAQBgoqhkiG92NkBgsBBAIFADAKBggqhkjOPQQDAwNIADBFAiBX4c+T0Fp5nJ5QRClRfu5PSByRvNPtuaTsk0vPB3WAIAIhANgaauAj/YP9s0AkEhyJhxQO/6Q2zouZ+H1CIOehnMzQ"
    static let intermediateInvalidOID =
        "MIIBnjCCAUWgAwIBAgIBDTAKBggqhkjOPQQDAzA2MQswCQYDVQQGEwJVUzETMBEGA1UECAwKQ2FsaWZvcm5pYTESMBAGA1UEBwwJQ3VwZXJ0aW5vMB4XDTIzMDEwNTIxMzYxNFoXDTMzMDEwMTIxMzYxNFowRTELMAkGA1UEBhMCVVMxCzAJBgNVBAgMAkNBMRIwEAYDVQQHDAlDdXBlcnRpbm8xFTATBgNVBAoMDEludGVybWVkaWF0ZTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABBUN5V9rKjfRiMAIojEA0Av5Mp0oF+O0cL4gzrTF178inUHugj7Et46NrkQ7hKgMVnjogq45Q1rMs+cMHVNILWqjNTAzMA8GA1UdEwQIMAYBAf8CAQAwDgYDVR0PAQH/BAQDAgEGMBAGCiqGSIb3Y2QGAgIEAgUAMAoGCCqGSM49BAMDA0cAMEQCIFROtTE+RQpKxNXETFsf7Mc0h+5IAsxxo/X6oCC/c33qAiAmC5rn5yCOOEjTY4R1H1QcQVh+eUwCl13NbQxWCuwxxA=="
    static let leafForIntermediateInvalidOID =
        "MIIBnzCCAUagAwIBAgIBDjAKBggqhkjOPQQDAzBFMQswCQYDVQQGEwJVUzELMAkGA1UECAwCQ0ExEjAQBgNVBAcMCUN1cGVydGlubzEVMBMGA1UECgwMSW50ZXJtZWRpYXRlMB4XDTIzMDEwNTIxMzY1OFoXDTMzMDEwMTIxMzY1OFowPTELMAkGA1UEBhMCVVMxCzAJBgNVBAgMAkNBMRIwEAYDVQQHDAlDdXBlcnRpbm8xDTALBgNVBAoMBExlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATitYHEaYVuc8g9AjTOwErMvGyPykPa+puvTI8hJTHZZDLGas2qX1+ErxgQTJgVXv76nmLhhRJH+j25AiAI8iGsoy8wLTAJBgNVHRMEAjAAMA4GA1UdDwEB/wQEAwIHgDAQBgoqhkiG92NkBgsBBAIFADAKBggqhkjOPQQDAwNHADBEAiAUAs+gzYOsEXDwQquvHYbcVymyNqDtGw9BnUFp2YLuuAIgXxQ3Ie9YU0cMqkeaFd+lyo0asv9eyzk6stwjeIeOtTU="
    static let leafInvalidOID =
        "MIIBoDCCAUagAwIBAgIBDzAKBggqhkjOPQQDAzBFMQswCQYDVQQGEwJVUzELMAkGA1UECAwCQ0ExEjAQBgNVBAcMCUN1cGVydGlubzEVMBMGA1UECgwMSW50ZXJtZWRpYXRlMB4XDTIzMDEwNTIxMzczMVoXDTMzMDEwMTIxMzczMVowPTELMAkGA1UEBhMCVVMxCzAJBgNVBAgMAkNBMRIwEAYDVQQHDAlDdXBlcnRpbm8xDTALBgNVBAoMBExlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATitYHEaYVuc8g9AjTOwErMvGyPykPa+puvTI8hJTHZZDLGas2qX1+ErxgQTJgVXv76nmLhhRJH+j25AiAI8iGsoy8wLTAJBgNVHRMEAjAAMA4GA1UdDwEB/wQEAwIHgDAQBgoqhkiG92NkBgsCBAIFADAKBggqhkjOPQQDAwNIADBFAiAb+7S3i//bSGy7skJY9+D4VgcQLKFeYfIMSrUCmdrFqwIhAIMVwzD1RrxPRtJyiOCXLyibIvwcY+VS73HYfk0O9lgz"

    /// Apple's EFFECTIVE_DATE, 1681312846 (2023-04-12).
    static let effectiveDate = Timestamp(seconds: 1_681_312_846)

    static func certificate(_ base64: String) -> Certificate { try! Certificate(der: Base64.decode(base64)!) }

    /// An unsigned token whose header carries `chain`: only the chain and marker checks matter.
    static func report(_ chain: [String], root: Certificate, at seconds: Int64) -> ReceiptVerificationReport {
        var header = JSONWriter()
        header.beginObject()
        header.key("alg")
        header.string("ES256")
        header.key("x5c")
        header.beginArray()
        for c in chain { header.string(c) }
        header.endArray()
        header.endObject()
        let payload = Array(#"{"signedDate":\#(seconds * 1000)}"#.utf8)
        let token =
            Base64URL.encode(Array(header.string.utf8)) + "." + Base64URL.encode(payload) + "."
            + Base64URL.encode([UInt8](repeating: 1, count: 64))
        return JWSVerifier.verify(try! CompactJWS(parsing: token), root: root)
    }

    @Test("test_valid_chain_without_ocsp: the chain and both markers pass")
    func validChain() {
        let r = Self.report([Self.leaf, Self.intermediate, Self.root], root: Self.certificate(Self.root), at: 1_681_312_846)
        #expect(r.check("chain")?.verdict == .pass, "\(r)")
        #expect(r.check("appleMarkers")?.verdict == .pass)
        #expect(Self.certificate(Self.leaf).signatureScheme == .ecdsa(.sha384))
        #expect(Self.certificate(Self.leaf).isSigned(by: Self.certificate(Self.intermediate)))
    }

    @Test("test_valid_chain_invalid_intermediate_OID_without_OCSP: the markers fail")
    func invalidIntermediateOID() {
        let r = Self.report(
            [Self.leafForIntermediateInvalidOID, Self.intermediateInvalidOID, Self.root], root: Self.certificate(Self.root),
            at: 1_681_312_846)
        #expect(r.check("chain")?.verdict == .pass)
        #expect(r.check("appleMarkers") == ReceiptCheck("appleMarkers", .fail, "intermediate lacks 1.2.840.113635.100.6.2.1"))
    }

    @Test("test_valid_chain_invalid_leaf_OID_without_OCSP: the markers fail")
    func invalidLeafOID() {
        let r = Self.report(
            [Self.leafInvalidOID, Self.intermediate, Self.root], root: Self.certificate(Self.root), at: 1_681_312_846)
        #expect(r.check("chain")?.verdict == .pass)
        #expect(r.check("appleMarkers") == ReceiptCheck("appleMarkers", .fail, "leaf lacks 1.2.840.113635.100.6.11.1"))
    }

    @Test("test_valid_expired_chain: at 2042 the chain is expired")
    func expired() {
        let r = Self.report([Self.leaf, Self.intermediate, Self.root], root: Self.certificate(Self.root), at: 2_280_946_846)
        #expect(
            r.check("chain")?.detail
                == "certificate 'C=US,ST=CA,L=Cupertino,O=Leaf': expired at 2033-01-01T21:31:34Z (checked at 2042-04-12T20:20:46Z) (the payload's signedDate)"
        )
    }

    @Test("test_invalid_chain_length: two certificates are refused")
    func chainLength() {
        let r = Self.report([Self.intermediate, Self.root], root: Self.certificate(Self.root), at: 1_681_312_846)
        #expect(r.check("chain")?.verdict == .fail)
    }

    @Test("test_chain_different_than_root_certificate: Apple Root CA - G3 does not anchor the test chain")
    func differentRoot() throws {
        let g3 = try Certificate(der: Array(try CryptoTestSupport.fixture("real/certs/apple-root-ca-g3.der")))
        let r = Self.report([Self.leaf, Self.intermediate, Self.root], root: g3, at: 1_681_312_846)
        #expect(
            r.check("chain")?.detail
                == "certificate 'C=US,ST=CA,L=Cupertino,O=Intermediate': no issuer 'C=US,ST=California,L=Cupertino' among the intermediates or the root (the payload's signedDate)"
        )
    }

    @Test("the real chain (Apple's REAL_APPLE_* certificates, also in Fixtures/real/certs) at EFFECTIVE_DATE")
    func realChain() throws {
        func der(_ name: String) throws -> String { Base64.encode(Array(try CryptoTestSupport.fixture("real/certs/\(name)"))) }
        let g3 = try Certificate(der: Array(try CryptoTestSupport.fixture("real/certs/apple-root-ca-g3.der")))
        let r = Self.report(
            [
                try der("apple-jws-leaf-2021-prod-ecc-receipt-signing.der"), try der("apple-wwdr-g6.der"),
                try der("apple-root-ca-g3.der"),
            ],
            root: g3, at: 1_681_312_846)
        #expect(r.check("chain")?.verdict == .pass)
        #expect(r.check("appleMarkers")?.verdict == .pass)
    }
}
