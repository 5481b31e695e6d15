import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit

/// Cross-checks against the openssl command line: signatures made on one side verify on the other.
@Suite("Crypto: openssl cross-checks")
struct CryptoOpenSSLTests {
    static func message(_ n: Int) -> [UInt8] { (0..<(1000 + n * 37)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ n) } }

    @Test(arguments: 0..<3)
    func ourP256SignatureVerifiesWithOpenSSL(_ n: Int) throws {
        let key = TestCertificateFactory.key("openssl cross-check \(n)")
        let message = Self.message(n)
        let signature = key.signature(for: message)
        try CryptoTestSupport.withTemporaryDirectory { dir in
            try key.publicKey.pemRepresentation.write(
                to: dir.appendingPathComponent("pub.pem"), atomically: true, encoding: .utf8)
            try Data(message).write(to: dir.appendingPathComponent("msg"))
            try Data(signature.derRepresentation).write(to: dir.appendingPathComponent("sig"))
            let ok = try CryptoTestSupport.openssl(
                ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig", "msg"], in: dir)
            #expect(String(decoding: ok.stdout, as: UTF8.self) == "Verified OK\n")
            var flipped = signature.rawRepresentation
            flipped[40] ^= 0x80
            try Data(try P256.Signature(rawRepresentation: flipped).derRepresentation).write(
                to: dir.appendingPathComponent("bad"))
            let bad = try CryptoTestSupport.openssl(
                ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "bad", "msg"], in: dir, expectSuccess: false)
            #expect(bad.status != 0)
        }
    }

    @Test(arguments: 0..<3)
    func openSSLP256SignatureVerifiesWithOurs(_ n: Int) throws {
        let message = Self.message(n)
        try CryptoTestSupport.withTemporaryDirectory { dir in
            try CryptoTestSupport.openssl(
                ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "key.pem"], in: dir)
            try CryptoTestSupport.openssl(["pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem"], in: dir)
            try Data(message).write(to: dir.appendingPathComponent("msg"))
            try CryptoTestSupport.openssl(["dgst", "-sha256", "-sign", "key.pem", "-out", "sig", "msg"], in: dir)
            let publicKey = try P256.PublicKey(
                pemRepresentation: String(contentsOf: dir.appendingPathComponent("pub.pem"), encoding: .utf8))
            let der = Array(try Data(contentsOf: dir.appendingPathComponent("sig")))
            #expect(publicKey.isValidSignature(der: der, for: message))
            let signature = try P256.Signature(derRepresentation: der)
            #expect(publicKey.isValidSignature(raw: signature.rawRepresentation, for: message))
            var other = message
            other[0] ^= 1
            #expect(!publicKey.isValidSignature(der: der, for: other))
            // The private key openssl made signs messages openssl accepts.
            let privateKey = try P256.PrivateKey(
                pemRepresentation: String(contentsOf: dir.appendingPathComponent("key.pem"), encoding: .utf8))
            #expect(privateKey.publicKey == publicKey)
        }
    }

    @Test(arguments: [("sha256", RSAPublicKey.HashAlgorithm.sha256), ("sha1", .sha1)])
    func openSSLRSASignatureVerifiesWithOurs(_ digest: String, _ hash: RSAPublicKey.HashAlgorithm) throws {
        let message = Self.message(7)
        try CryptoTestSupport.withTemporaryDirectory { dir in
            try CryptoTestSupport.openssl(
                ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem"], in: dir)
            try CryptoTestSupport.openssl(["pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem"], in: dir)
            try Data(message).write(to: dir.appendingPathComponent("msg"))
            try CryptoTestSupport.openssl(["dgst", "-\(digest)", "-sign", "key.pem", "-out", "sig", "msg"], in: dir)
            let pem = try String(contentsOf: dir.appendingPathComponent("pub.pem"), encoding: .utf8)
            let key = try RSAPublicKey(pemRepresentation: pem)
            #expect(key.bitCount == 2048)
            #expect(key.pemRepresentation == pem)
            let signature = Array(try Data(contentsOf: dir.appendingPathComponent("sig")))
            #expect(key.isValidSignature(signature, for: message, hash: hash))
            #expect(!key.isValidSignature(signature, for: message, hash: hash == .sha1 ? .sha256 : .sha1))
            for position in [0, 100, 255] {
                var flipped = signature
                flipped[position] ^= 0x01
                #expect(!key.isValidSignature(flipped, for: message, hash: hash))
            }
            #expect(!key.isValidSignature(Array(signature.dropFirst()), for: message, hash: hash))
            var other = message
            other[3] ^= 1
            #expect(!key.isValidSignature(signature, for: other, hash: hash))
            // PKCS#1 form of the same key.
            try CryptoTestSupport.openssl(["rsa", "-in", "key.pem", "-RSAPublicKey_out", "-out", "pkcs1.pem"], in: dir)
            let pkcs1 = try RSAPublicKey(
                pemRepresentation: String(contentsOf: dir.appendingPathComponent("pkcs1.pem"), encoding: .utf8))
            #expect(pkcs1 == key)

        }
    }

    @Test func badRSAKeys() {
        #expect(throws: ASN1Error(offset: 0, expected: "an odd RSA modulus of 512 to 16384 bits")) {
            try RSAPublicKey(modulus: [UInt8](repeating: 0xff, count: 32), exponent: [1, 0, 1])
        }
        #expect(throws: ASN1Error(offset: 0, expected: "an odd RSA exponent of at least 3, below the modulus")) {
            try RSAPublicKey(modulus: [UInt8](repeating: 0xff, count: 128), exponent: [1])
        }
        #expect(throws: ASN1Error(offset: 0, expected: "an odd RSA exponent of at least 3, below the modulus")) {
            try RSAPublicKey(modulus: [UInt8](repeating: 0xff, count: 128), exponent: [2])
        }
        #expect(throws: ASN1Error(offset: 2, expected: "exactly two INTEGERs, modulus and exponent")) {
            try RSAPublicKey(pkcs1DER: DER.sequence([DER.integer(3)]))
        }
    }

    /// Modular exponentiation against small known values, including moduli that are not a whole
    /// number of limbs.
    @Test func modularExponentiation() {
        let m = BigUInt(bigEndian: [0x01] + [UInt8](repeating: 0, count: 8) + [0x01])  // 2^72 + 1
        let result = BigUInt(bigEndian: [3]).power(BigUInt(bigEndian: [100]), modulus: m)
        // 3^100 mod (2^72 + 1), from Python: pow(3, 100, 2**72 + 1)
        #expect(result == BigUInt(bigEndian: CryptoTestSupport.hex("220c2d45ed78dd2c20")))
        let small = BigUInt(bigEndian: [0x61]).power(BigUInt(bigEndian: [0x11]), modulus: BigUInt(bigEndian: [0x0d, 0x01]))
        // pow(97, 17, 3329) = 0x605
        #expect(small == BigUInt(bigEndian: [0x06, 0x05]))
    }
}
