import Foundation
import Testing

@testable import IAPCrypto

/// P-384 verification against published vectors (NIST CAVP SigVer, Wycheproof), the edge cases
/// those name (r or s zero or out of range, a key off the curve or at infinity), and openssl.
@Suite("Crypto: P-384 ECDSA verification")
struct CryptoP384Tests {
    struct CAVPVector: CustomTestStringConvertible, Sendable {
        let hash: DigestAlgorithm
        let message: [UInt8]
        let x: [UInt8]
        let y: [UInt8]
        let r: [UInt8]
        let s: [UInt8]
        let valid: Bool
        let reason: String
        var testDescription: String { "\(hash) \(valid ? "P" : "F (\(reason))") \(Hex.encode(message.prefix(4)))" }
    }

    static func hash(_ name: String) -> DigestAlgorithm {
        switch name {
        case "SHA-256": return .sha256
        case "SHA-384": return .sha384
        default: return .sha512
        }
    }

    /// Fixtures/vectors/p384/cavp-sigver-p384.json (NIST CAVP SigVer, see its source).
    static let cavp: [CAVPVector] = {
        let data = try! CryptoTestSupport.fixture("vectors/p384/cavp-sigver-p384.json")
        let root = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["vectors"] as! [[String: Any]]).map { v in
            func hex(_ key: String) -> [UInt8] { Hex.decode(v[key] as! String)! }
            return CAVPVector(
                hash: hash(v["hash"] as! String), message: hex("msg"), x: hex("qx"), y: hex("qy"), r: hex("r"), s: hex("s"),
                valid: v["result"] as! Bool, reason: v["reason"] as! String)
        }
    }()

    @Test(arguments: cavp)
    func nistSigVer(_ v: CAVPVector) {
        // A "Q changed" record may hold a point off the curve: then the key is refused outright.
        guard let key = try? P384.PublicKey(x963Representation: [4] + v.x + v.y) else {
            #expect(!v.valid && v.reason == "Q changed")
            return
        }
        let signature = P384.Signature(r: U384(bigEndian: v.r)!, s: U384(bigEndian: v.s)!)
        #expect(key.isValidSignature(signature, forDigest: v.hash.hash(v.message)) == v.valid)
        #expect(key.isValidSignature(der: signature.derRepresentation, for: v.message, digest: v.hash) == v.valid)
    }

    struct WycheproofCase: CustomTestStringConvertible, Sendable {
        let id: Int
        let comment: String
        let key: [UInt8]
        let message: [UInt8]
        let signature: [UInt8]
        let valid: Bool
        var testDescription: String { "tcId \(id) \(comment)" }
    }

    /// Fixtures/vectors/p384/wycheproof-ecdsa-secp384r1-sha384-subset.json.
    static let wycheproof: [WycheproofCase] = {
        let data = try! CryptoTestSupport.fixture("vectors/p384/wycheproof-ecdsa-secp384r1-sha384-subset.json")
        let root = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["testGroups"] as! [[String: Any]]).flatMap { group -> [WycheproofCase] in
            let key = Hex.decode((group["key"] as! [String: Any])["uncompressed"] as! String)!
            return (group["tests"] as! [[String: Any]]).map { t in
                WycheproofCase(
                    id: t["tcId"] as! Int, comment: t["comment"] as! String, key: key,
                    message: Hex.decode(t["msg"] as! String)!, signature: Hex.decode(t["sig"] as! String)!,
                    valid: t["result"] as! String == "valid")
            }
        }
    }()

    @Test(arguments: wycheproof)
    func wycheproofVectors(_ c: WycheproofCase) throws {
        let key = try P384.PublicKey(x963Representation: c.key)
        #expect(key.isValidSignature(der: c.signature, for: c.message) == c.valid)
    }

    /// The first CAVP key, the one most edge cases below are built on.
    static let key: P384.PublicKey = {
        let v = cavp.first { $0.valid && $0.hash == .sha384 }!
        return try! P384.PublicKey(x963Representation: [4] + v.x + v.y)
    }()

    static let n = P384Scalar.n

    @Test("r or s zero, n, above n, or 2^384 - 1: refused before any arithmetic")
    func scalarRanges() {
        let v = Self.cavp.first { $0.valid && $0.hash == .sha384 }!
        let digest = SHA384.hash(v.message)
        let r = U384(bigEndian: v.r)!
        let s = U384(bigEndian: v.s)!
        let key = Self.key
        #expect(key.isValidSignature(P384.Signature(r: r, s: s), forDigest: digest))
        let ones = U384(~0, ~0, ~0, ~0, ~0, ~0)
        let nPlusR = Self.n.adding(r).0
        for (badR, badS) in [
            (U384.zero, s), (r, U384.zero), (U384.zero, U384.zero), (Self.n, s), (r, Self.n), (ones, s), (r, ones),
            (nPlusR, s),
        ] {
            #expect(!key.isValidSignature(P384.Signature(r: badR, s: badS), forDigest: digest))
        }
        // s and n - s are both valid (ECDSA is malleable); r + n is not r.
        let negatedS = Self.n.subtracting(s).0
        #expect(key.isValidSignature(P384.Signature(r: r, s: negatedS), forDigest: digest))
    }

    @Test("keys: off the curve, at infinity, coordinates of p or more, wrong lengths are refused")
    func badKeys() {
        let good = Self.key.x963Representation
        var offCurve = good
        offCurve[96] ^= 1
        #expect(throws: ASN1Error(offset: 1, expected: "a point on the P-384 curve")) {
            try P384.PublicKey(x963Representation: offCurve)
        }
        #expect(throws: ASN1Error(offset: 0, expected: "a point other than the point at infinity (00)")) {
            try P384.PublicKey(x963Representation: [0])
        }
        let p = P384FieldElement.p.bigEndianBytes
        #expect(throws: ASN1Error(offset: 1, expected: "an x coordinate below p")) {
            try P384.PublicKey(x963Representation: [4] + p + Array(good[49...]))
        }
        #expect(throws: ASN1Error(offset: 49, expected: "a y coordinate below p")) {
            try P384.PublicKey(x963Representation: Array(good[..<49]) + p)
        }
        #expect(throws: ASN1Error(offset: 96, expected: "97 bytes of an uncompressed P-384 point")) {
            try P384.PublicKey(x963Representation: Array(good.dropLast()))
        }
        // x = 0 with another point's y: off the curve (an invalid-curve attack would send such points).
        #expect(throws: ASN1Error(offset: 1, expected: "a point on the P-384 curve")) {
            try P384.PublicKey(x963Representation: [4] + [UInt8](repeating: 0, count: 48) + Array(good[49...]))
        }
    }

    @Test("compressed and uncompressed forms name the same key; SubjectPublicKeyInfo round-trips")
    func encodings() throws {
        let key = Self.key
        let x = Array(key.x963Representation[1..<49])
        let parity = key.x963Representation[96] & 1
        #expect(try P384.PublicKey(x963Representation: [2 | parity] + x) == key)
        #expect(try P384.PublicKey(x963Representation: [3 - parity] + x) != key)
        guard case .p384(let decoded) = try SubjectPublicKeyInfo(der: key.subjectPublicKeyInfoDER) else {
            Issue.record("not read back as P-384")
            return
        }
        #expect(decoded == key)
        #expect(try SubjectPublicKeyInfo(pemRepresentation: key.pemRepresentation) == .p384(key))
        #expect(SubjectPublicKeyInfo.p384(key).summary == "EC P-384")
        // The generator is on the curve and n * G is the point at infinity.
        #expect(P384Point.generator.isOnCurve)
        let nMinus1 = Self.n.subtracting(U384.one).0
        let almost = P384Point.verificationCombination(u1: nMinus1, u2: .zero, q: P384Point.generator)
        #expect(almost.adding(P384Point.generator).isInfinity)
    }

    /// openssl makes a P-384 key and signs random messages (from a printed seed) with SHA-384,
    /// SHA-256 and SHA-512; each verifies here, and each message or signature with one bit changed
    /// is refused here and by openssl.
    @Test func openSSLSignaturesVerify() throws {
        var random = CryptoSeededRandom.fromEnvironment(default: 0x0384_0001, test: "openSSLSignaturesVerify")
        try CryptoTestSupport.withTemporaryDirectory { dir in
            try CryptoTestSupport.openssl(
                ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "key.pem"], in: dir)
            try CryptoTestSupport.openssl(["pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem"], in: dir)
            let pem = try String(contentsOf: dir.appendingPathComponent("pub.pem"), encoding: .utf8)
            guard case .p384(let key) = try SubjectPublicKeyInfo(pemRepresentation: pem) else {
                Issue.record("openssl's P-384 key was not read as P-384")
                return
            }
            for (round, digest) in [DigestAlgorithm.sha384, .sha256, .sha512, .sha384, .sha384, .sha1].enumerated() {
                let message = (0..<Int(random.next() % 3000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                try Data(message).write(to: dir.appendingPathComponent("msg"))
                try CryptoTestSupport.openssl(["dgst", "-\(digest)", "-sign", "key.pem", "-out", "sig", "msg"], in: dir)
                let signature = Array(try Data(contentsOf: dir.appendingPathComponent("sig")))
                #expect(key.isValidSignature(der: signature, for: message, digest: digest), "round \(round), seed \(random.seed)")
                // One bit of the message changed.
                var altered = message + [0]
                altered[Int(random.next() % UInt64(altered.count))] ^= 1 << (random.next() % 8)
                #expect(!key.isValidSignature(der: signature, for: altered, digest: digest))
                try Data(altered).write(to: dir.appendingPathComponent("altered"))
                let theirs = try CryptoTestSupport.openssl(
                    ["dgst", "-\(digest)", "-verify", "pub.pem", "-signature", "sig", "altered"], in: dir, expectSuccess: false)
                #expect(theirs.status != 0)
                // One bit of r or s changed.
                let parsed = try P384.Signature(derRepresentation: signature)
                var raw = parsed.rawRepresentation
                raw[Int(random.next() % 96)] ^= 1 << (random.next() % 8)
                let flipped = try P384.Signature(rawRepresentation: raw)
                #expect(!key.isValidSignature(flipped, forDigest: digest.hash(message)))
                try Data(flipped.derRepresentation).write(to: dir.appendingPathComponent("flipped"))
                let theirsFlipped = try CryptoTestSupport.openssl(
                    ["dgst", "-\(digest)", "-verify", "pub.pem", "-signature", "flipped", "msg"], in: dir, expectSuccess: false)
                #expect(theirsFlipped.status != 0)
            }
        }
    }

    /// Apple's chain: Apple Root CA - G3 (P-384) signs WWDR G6 (P-384), which signs the App Store
    /// leaf (P-256), both with ecdsa-with-SHA384; the root is self-signed the same way.
    @Test func appleChainSignatures() throws {
        let root = try Certificate(der: Array(try CryptoTestSupport.fixture("real/certs/apple-root-ca-g3.der")))
        let wwdr = try Certificate(der: Array(try CryptoTestSupport.fixture("real/certs/apple-wwdr-g6.der")))
        let leaf = try Certificate(
            der: Array(try CryptoTestSupport.fixture("real/certs/apple-jws-leaf-2021-prod-ecc-receipt-signing.der")))
        #expect(root.publicKey.summary == "EC P-384" && wwdr.publicKey.summary == "EC P-384")
        #expect(leaf.publicKey.summary == "EC P-256")
        #expect([root, wwdr, leaf].map(\.signatureScheme) == [.ecdsa(.sha384), .ecdsa(.sha384), .ecdsa(.sha384)])
        #expect(root.isSigned(by: root))
        #expect(wwdr.isSigned(by: root))
        #expect(leaf.isSigned(by: wwdr))
        #expect(!leaf.isSigned(by: root))
        #expect(!wwdr.isSigned(by: wwdr))
        #expect(leaf.appleMarkers == [.appleReceiptSigner])
        #expect(wwdr.appleMarkers == [.appleWWDRIntermediate])
    }
}

extension CryptoP384Tests {
    /// The binary-GCD inverse modulo n agrees with Fermat's, and x * 1/x = 1, on random scalars.
    @Test func scalarInverse() {
        var random = CryptoSeededRandom.fromEnvironment(default: 0x0384_0002, test: "scalarInverse")
        let nMinus1 = Self.n.subtracting(U384.one).0
        var values = [U384.one, U384(2, 0, 0, 0, 0, 0), nMinus1]
        for _ in 0..<200 {
            let v = U384(random.next(), random.next(), random.next(), random.next(), random.next(), random.next() >> 1)
            values.append(v)
        }
        for v in values {
            let x = P384Scalar(reducing: v)
            if x.isZero { continue }
            #expect(x.inverse == x.inverseByFermat, "seed \(random.seed)")
            #expect((x * x.inverse).value == U384.one)
        }
        #expect(P384Scalar(reducing: .zero).inverse.isZero)
    }
}
