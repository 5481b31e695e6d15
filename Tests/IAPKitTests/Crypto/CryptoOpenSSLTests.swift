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

    @Test(arguments: [
        ("sha256", RSAPublicKey.HashAlgorithm.sha256), ("sha1", .sha1), ("sha384", .sha384), ("sha512", .sha512),
    ])
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

extension CryptoOpenSSLTests {
    /// openssl builds Apple's shape of chain (a P-384 root, a P-384 intermediate, a P-256 leaf,
    /// every link ecdsa-with-SHA384) and an RSA chain signed with sha384WithRSAEncryption; both
    /// verify here, and openssl and iapctl agree that a leaf signed by another key does not.
    @Test(arguments: [
        ("EC", "ec_paramgen_curve:P-384", "EC", "ec_paramgen_curve:P-256", "sha384"),
        ("RSA", "rsa_keygen_bits:2048", "RSA", "rsa_keygen_bits:2048", "sha384"),
        ("RSA", "rsa_keygen_bits:2048", "EC", "ec_paramgen_curve:P-384", "sha512"),
    ])
    func opensslChains(_ caType: String, _ caParameter: String, _ leafType: String, _ leafParameter: String, _ digest: String)
        throws
    {
        try CryptoTestSupport.withTemporaryDirectory { dir in
            func openssl(_ arguments: [String]) throws { try CryptoTestSupport.openssl(arguments, in: dir) }
            try openssl(["genpkey", "-algorithm", caType, "-pkeyopt", caParameter, "-out", "root.key"])
            try openssl(["genpkey", "-algorithm", caType, "-pkeyopt", caParameter, "-out", "ca.key"])
            try openssl(["genpkey", "-algorithm", leafType, "-pkeyopt", leafParameter, "-out", "leaf.key"])
            try openssl(["genpkey", "-algorithm", caType, "-pkeyopt", caParameter, "-out", "other.key"])
            let ca = "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n"
            try ca.write(to: dir.appendingPathComponent("ca.ext"), atomically: true, encoding: .utf8)
            try "basicConstraints=CA:FALSE\n".write(to: dir.appendingPathComponent("leaf.ext"), atomically: true, encoding: .utf8)
            try openssl([
                "req", "-new", "-x509", "-key", "root.key", "-subj", "/CN=Root", "-days", "30", "-\(digest)", "-out", "root.pem",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
            ])
            try openssl(["req", "-new", "-key", "ca.key", "-subj", "/CN=Intermediate", "-out", "ca.csr"])
            try openssl([
                "x509", "-req", "-in", "ca.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "2", "-days", "30",
                "-\(digest)", "-extfile", "ca.ext", "-out", "ca.pem",
            ])
            // A forger's CA of the same name but another key signs the second leaf.
            try openssl([
                "req", "-new", "-x509", "-key", "other.key", "-subj", "/CN=Intermediate", "-days", "30", "-\(digest)", "-out",
                "forger.pem",
            ])
            for (name, ca, signer) in [("leaf", "ca.pem", "ca.key"), ("forged", "forger.pem", "other.key")] {
                try openssl(["req", "-new", "-key", "leaf.key", "-subj", "/CN=Leaf", "-out", "\(name).csr"])
                try openssl([
                    "x509", "-req", "-in", "\(name).csr", "-CA", ca, "-CAkey", signer, "-set_serial", "3", "-days", "30",
                    "-\(digest)", "-extfile", "leaf.ext", "-out", "\(name).pem",
                ])
            }
            func load(_ name: String) throws -> Certificate {
                try Certificate(pemRepresentation: try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8))
            }
            let (root, intermediate, leaf, forged) = (
                try load("root.pem"), try load("ca.pem"), try load("leaf.pem"), try load("forged.pem")
            )
            #expect(leaf.signatureScheme?.digest.description == digest)
            let now = leaf.notBefore.adding(milliseconds: 60_000)
            let good = CertificateChain.verify(leaf: leaf, intermediates: [intermediate], root: root, at: now)
            #expect((try? good.get())?.count == 3, "\(good)")
            let bad = CertificateChain.verify(leaf: forged, intermediates: [intermediate], root: root, at: now)
            #expect(bad == .failure(.signature(subject: "CN=Leaf", issuer: "CN=Intermediate")))
            let theirs = try CryptoTestSupport.openssl(
                ["verify", "-CAfile", "root.pem", "-untrusted", "ca.pem", "forged.pem"], in: dir, expectSuccess: false)
            #expect(theirs.status != 0)
            let theirsGood = try CryptoTestSupport.openssl(
                ["verify", "-CAfile", "root.pem", "-untrusted", "ca.pem", "leaf.pem"], in: dir)
            #expect(String(decoding: theirsGood.stdout, as: UTF8.self) == "leaf.pem: OK\n")
        }
    }
}
