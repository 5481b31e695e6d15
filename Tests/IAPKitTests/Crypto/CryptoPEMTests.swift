import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit

@Suite("Crypto: PEM and key encodings")
struct CryptoPEMTests {
    @Test func roundTripSeveralBlocks() throws {
        let blocks = [
            PEMBlock(label: "CERTIFICATE", bytes: Array(0..<100)), PEMBlock(label: "EC PRIVATE KEY", bytes: [1, 2, 3]),
            PEMBlock(label: "X", bytes: []),
        ]
        let text = PEM.encode(blocks)
        #expect(
            text.hasPrefix("-----BEGIN CERTIFICATE-----\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4v\nMDEy"))
        #expect(try PEM.decode(text) == blocks)
        #expect(try PEM.decode("junk before\r\n" + text.replacingOccurrences(of: "\n", with: "\r\n") + "after") == blocks)
        #expect(try PEM.decode(text, labels: ["EC PRIVATE KEY", "PRIVATE KEY"]).bytes == [1, 2, 3])
    }

    static let bad: [(String, PEMError)] = [
        ("", PEMError(offset: 0, expected: "a '-----BEGIN ...-----' line")),
        ("hello\n", PEMError(offset: 0, expected: "a '-----BEGIN ...-----' line")),
        ("-----BEGIN A-----\nAAAA\n", PEMError(offset: 23, expected: "a '-----END A-----' line")),
        (
            "-----BEGIN A-----\nAAAA\n-----END B-----\n",
            PEMError(offset: 23, expected: "'-----END A-----' to match the BEGIN line")
        ),
        ("-----BEGIN A-----\nAA!A\n-----END A-----\n", PEMError(offset: 18, expected: "base64 text in the A block")),
        (
            "-----BEGIN A-----\nProc-Type: 4,ENCRYPTED\nAAAA\n-----END A-----\n",
            PEMError(offset: 18, expected: "an unencrypted block without headers")
        ),
        (
            "-----BEGIN A-----\nAAAA\n-----BEGIN B-----\n",
            PEMError(offset: 23, expected: "'-----END A-----' before the next BEGIN line")
        ),
    ]

    @Test(arguments: bad)
    func malformed(_ text: String, _ error: PEMError) {
        #expect(throws: error) { try PEM.decode(text) }
    }

    @Test func wrongLabel() {
        #expect(throws: PEMError(offset: 0, expected: "a 'CERTIFICATE' block (found 'PUBLIC KEY')")) {
            try PEM.decode(PEM.encode([1], label: "PUBLIC KEY"), labels: ["CERTIFICATE"])
        }
    }

    @Test func fixtureLeafKeyLoadsAndRoundTrips() throws {
        let key = try P256.PrivateKey(pemRepresentation: CryptoTestSupport.fixtureText("signing/leaf-key.pem"))
        let sec1 = try P256.PrivateKey(pemRepresentation: key.sec1PEMRepresentation)
        let pkcs8 = try P256.PrivateKey(pemRepresentation: key.pkcs8PEMRepresentation)
        #expect(sec1.rawRepresentation == key.rawRepresentation)
        #expect(pkcs8.rawRepresentation == key.rawRepresentation)
        #expect(try P256.PublicKey(pemRepresentation: key.publicKey.pemRepresentation) == key.publicKey)
        #expect(try SubjectPublicKeyInfo(pemRepresentation: key.publicKey.pemRepresentation) == .p256(key.publicKey))
    }

    /// Keys written here are read by openssl, keys written by openssl are read here, and both
    /// derive the same public key bytes.
    @Test(arguments: ["sec1", "pkcs8"])
    func keysInteroperateWithOpenSSL(_ format: String) throws {
        try CryptoTestSupport.withTemporaryDirectory { dir in
            // openssl-made key, in the format under test.
            try CryptoTestSupport.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-out", "ecparam.pem"], in: dir)
            if format == "sec1" {
                try CryptoTestSupport.openssl(["ec", "-in", "ecparam.pem", "-out", "key.pem"], in: dir)
            } else {
                try CryptoTestSupport.openssl(["pkcs8", "-topk8", "-nocrypt", "-in", "ecparam.pem", "-out", "key.pem"], in: dir)
            }
            try CryptoTestSupport.openssl(["pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem"], in: dir)
            let keyText = try String(contentsOf: dir.appendingPathComponent("key.pem"), encoding: .utf8)
            #expect(keyText.contains(format == "sec1" ? "BEGIN EC PRIVATE KEY" : "BEGIN PRIVATE KEY"))
            let key = try P256.PrivateKey(pemRepresentation: keyText)
            // ecparam -genkey writes an EC PARAMETERS block first; it is skipped.
            let withParameters = try P256.PrivateKey(
                pemRepresentation: String(contentsOf: dir.appendingPathComponent("ecparam.pem"), encoding: .utf8))
            #expect(withParameters.rawRepresentation == key.rawRepresentation)
            let opensslPublic = try String(contentsOf: dir.appendingPathComponent("pub.pem"), encoding: .utf8)
            #expect(key.publicKey.pemRepresentation == opensslPublic)

            // Our encodings, read back by openssl, give the same public key.
            let ours = format == "sec1" ? key.sec1PEMRepresentation : key.pkcs8PEMRepresentation
            try ours.write(to: dir.appendingPathComponent("ours.pem"), atomically: true, encoding: .utf8)
            let derived = try CryptoTestSupport.openssl(["pkey", "-in", "ours.pem", "-pubout"], in: dir).stdout
            #expect(String(decoding: derived, as: UTF8.self) == opensslPublic)
            // openssl's own re-encoding of our key is byte-identical to ours.
            let reencoded =
                format == "sec1"
                ? try CryptoTestSupport.openssl(["ec", "-in", "ours.pem"], in: dir).stdout
                : try CryptoTestSupport.openssl(["pkey", "-in", "ours.pem"], in: dir).stdout
            #expect(String(decoding: reencoded, as: UTF8.self) == ours)
        }
    }

    static let badKeys: [([UInt8], ASN1Error)] = [
        (
            DER.sequence([DER.integer(2), DER.octetString([UInt8](repeating: 1, count: 32))]),
            ASN1Error(offset: 2, expected: "ECPrivateKey version 1")
        ),
        (
            DER.sequence([DER.integer(1), DER.octetString([1, 2])]),
            ASN1Error(offset: 7, expected: "a 32-byte P-256 private scalar between 1 and n - 1")
        ),
        (DER.sequence([DER.integer(1)]), ASN1Error(offset: 5, expected: "the private key OCTET STRING")),
        (
            DER.sequence([
                DER.integer(1), DER.octetString([UInt8](repeating: 1, count: 32)), DER.explicit(0, DER.oid(.ecPublicKey)),
            ]),
            ASN1Error(offset: 41, expected: "the named curve prime256v1 (1.2.840.10045.3.1.7)")
        ),
        (
            DER.sequence([
                DER.integer(1), DER.octetString([UInt8](repeating: 1, count: 32)),
                DER.explicit(1, DER.bitString(TestCertificateFactory.key("x").publicKey.x963Representation)),
            ]),
            ASN1Error(offset: 39, expected: "a public key matching the private key")
        ),
    ]

    @Test(arguments: badKeys)
    func badSEC1Keys(_ der: [UInt8], _ error: ASN1Error) {
        #expect(throws: error) { try P256.PrivateKey(sec1DER: der) }
    }

    @Test func badPKCS8AndSPKI() throws {
        let rsaAlgorithm = DER.sequence([
            DER.integer(0), DER.sequence([DER.oid(.rsaEncryption), DER.null()]), DER.octetString([]),
        ])
        #expect(throws: ASN1Error(offset: 7, expected: "id-ecPublicKey (1.2.840.10045.2.1)")) {
            try P256.PrivateKey(pkcs8DER: rsaAlgorithm)
        }
        // A PKCS#8 wrapper around a bad inner key reports the offset in the outer bytes.
        let inner = DER.sequence([DER.integer(3)])
        let wrapped = DER.sequence([
            DER.integer(0), DER.sequence([DER.oid(.ecPublicKey), DER.oid(.prime256v1)]), DER.octetString(inner),
        ])
        #expect(throws: ASN1Error(offset: 30, expected: "ECPrivateKey version 1")) { try P256.PrivateKey(pkcs8DER: wrapped) }
        let offCurve = DER.sequence([
            DER.sequence([DER.oid(.ecPublicKey), DER.oid(.prime256v1)]),
            DER.bitString([0x04] + [UInt8](repeating: 0, count: 63) + [1]),
        ])
        #expect(throws: ASN1Error(offset: 27, expected: "a point on the P-256 curve")) { try SubjectPublicKeyInfo(der: offCurve) }
        let shortP384 = DER.sequence([
            DER.sequence([DER.oid(.ecPublicKey), DER.oid(try OID("1.3.132.0.34"))]), DER.bitString([4]),
        ])
        #expect(throws: ASN1Error(offset: 24, expected: "97 bytes of an uncompressed P-384 point")) {
            try SubjectPublicKeyInfo(der: shortP384)
        }
        // A curve iapctl has no arithmetic for (secp256k1) still parses, and fails only where used.
        let otherCurve = DER.sequence([
            DER.sequence([DER.oid(.ecPublicKey), DER.oid(try OID("1.3.132.0.10"))]), DER.bitString([4, 1, 2]),
        ])
        let unsupported = try SubjectPublicKeyInfo(der: otherCurve)
        #expect(unsupported.summary == "EC curve 1.3.132.0.10")
        #expect(!unsupported.isValidSignature([0x30, 0], for: [1], algorithm: .ecdsa(.sha256)))
        let noCurve = DER.sequence([DER.sequence([DER.oid(.ecPublicKey)]), DER.bitString([4])])
        #expect(
            throws: ASN1Error(
                offset: 13, expected: "a named curve OID, such as prime256v1 (1.2.840.10045.3.1.7) or secp384r1 (1.3.132.0.34)")
        ) {
            try SubjectPublicKeyInfo(der: noCurve)
        }
        let ed25519 = DER.sequence([
            DER.sequence([DER.oid(try OID("1.3.101.112"))]), DER.bitString([UInt8](repeating: 9, count: 32)),
        ])
        #expect(
            try SubjectPublicKeyInfo(der: ed25519)
                == .unsupported(algorithm: try OID("1.3.101.112"), parameters: [], key: [UInt8](repeating: 9, count: 32)))
        #expect(try SubjectPublicKeyInfo(der: ed25519).der == ed25519)
        #expect(throws: ASN1Error(offset: 0, expected: "a P-256 (id-ecPublicKey, prime256v1) public key")) {
            try P256.PublicKey(subjectPublicKeyInfoDER: ed25519)
        }
    }
}
