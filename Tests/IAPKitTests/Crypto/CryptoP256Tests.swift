import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit

private func hex(_ text: String) -> [UInt8] { CryptoTestSupport.hex(text) }

@Suite("Crypto: P-256 ECDSA")
struct CryptoP256Tests {
    /// RFC 6979 appendix A.2.5 key.
    static let rfcKey = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"
    static let rfcPublicX = "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
    static let rfcPublicY = "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"

    /// RFC 6979 A.2.5, SHA-256: message, k, r, s.
    static let rfcVectors: [(String, String, String, String)] = [
        (
            "sample", "A6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60",
            "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
            "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"
        ),
        (
            "test", "D16B6AE827F17175E040871A1C7EC3500192C4C92677336EC2537ACAEE0008E0",
            "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
            "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"
        ),
    ]

    @Test(arguments: rfcVectors)
    func rfc6979(_ message: String, _ k: String, _ r: String, _ s: String) throws {
        let key = try P256.PrivateKey(rawRepresentation: hex(Self.rfcKey))
        let digest = SHA256.hash(Array(message.utf8))
        var nonces = RFC6979(privateKey: key.d, digest: digest)
        #expect(Hex.encode(nonces.next().bigEndianBytes) == k.lowercased())
        let signature = key.signature(for: Array(message.utf8))
        #expect(Hex.encode(signature.rawRepresentation) == (r + s).lowercased())
        #expect(key.publicKey.isValidSignature(signature, for: Array(message.utf8)))
        #expect(key.publicKey.isValidSignature(raw: signature.rawRepresentation, for: Array(message.utf8)))
        #expect(key.publicKey.isValidSignature(der: signature.derRepresentation, for: Array(message.utf8)))
        #expect(!key.publicKey.isValidSignature(signature, for: Array((message + "!").utf8)))
    }

    @Test func publicKeyDerivation() throws {
        let key = try P256.PrivateKey(rawRepresentation: hex(Self.rfcKey))
        #expect(Hex.encode(key.publicKey.rawRepresentation) == (Self.rfcPublicX + Self.rfcPublicY).lowercased())
        let x963 = key.publicKey.x963Representation
        #expect(x963.count == 65 && x963[0] == 4)
        #expect(try P256.PublicKey(x963Representation: x963) == key.publicKey)
        let compressed = key.publicKey.compressedRepresentation
        #expect(compressed.count == 33)
        #expect(try P256.PublicKey(compressedRepresentation: compressed) == key.publicKey)
        #expect(try P256.PublicKey(x963Representation: compressed) == key.publicKey)
        #expect(try P256.PublicKey(rawRepresentation: key.publicKey.rawRepresentation) == key.publicKey)
        #expect(key.rawRepresentation == hex(Self.rfcKey))
    }

    /// Small multiples of G checked against the generator table and plain additions.
    @Test func scalarMultiplicationAgrees() throws {
        var running = P256Point.infinity
        for k in 1...40 {
            running = running.adding(P256Point.generator)
            let viaComb = try #require(P256Point.generatorMultiple(U256(UInt64(k), 0, 0, 0)).affine)
            let viaPublic = try #require(P256Point.generatorMultiplePublic(U256(UInt64(k), 0, 0, 0)).affine)
            let expected = try #require(running.affine)
            #expect(viaComb == expected, "k = \(k)")
            #expect(viaPublic == expected)
            #expect(expected.isOnCurve)
        }
        // (n - 1) * G = -G, and n * G would be infinity (u1 + u2 combinations hit it).
        let nMinus1 = P256Scalar.n.subtracting(U256(1, 0, 0, 0)).0
        let minusG = try #require(P256Point.generatorMultiple(nMinus1).affine)
        #expect(minusG.x == P256Point.generator.x)
        #expect(minusG.y == P256FieldElement.zero - P256Point.generator.y)
        let sum = P256Point.verificationCombination(u1: nMinus1, u2: U256(1, 0, 0, 0), q: P256Point.generator)
        #expect(sum.isInfinity)
        let three = P256Point.verificationCombination(u1: U256(1, 0, 0, 0), u2: U256(2, 0, 0, 0), q: P256Point.generator)
        #expect(three.affine == P256Point.generatorMultiple(U256(3, 0, 0, 0)).affine)
    }

    @Test func fieldAndScalarArithmetic() throws {
        let n = P256Scalar.n
        #expect(n.l0 &* P256Scalar.n0 == UInt64.max)  // n0 = -n^-1 mod 2^64
        for seed in 1...20 {
            let bytes = SHA256.hash([UInt8(seed)])
            let a = try #require(P256FieldElement(U256(bigEndian: bytes)!) ?? P256FieldElement(U256(1, 2, 3, 4)))
            #expect(a * a.inverse == .one)
            let square = a.squared
            let root = try #require(square.squareRoot)
            #expect(root == a || root == P256FieldElement.zero - a)
            let s = P256Scalar(reducing: U256(bigEndian: bytes)!)
            #expect(s * s.inverse == .one)
        }
        #expect(P256FieldElement.zero.inverse == .zero)
        #expect(P256Point.generator.isOnCurve)
    }

    @Test func wNAFReconstructsScalar() {
        for seed in 0..<30 {
            let k = U256(bigEndian: SHA256.hash([UInt8(seed), 7]))!
            let digits = P256Point.wNAF(k)
            // Reconstruct with doubling and adding in P-256's scalar field via points: compare k*G.
            var acc = P256Point.infinity
            for d in digits.reversed() {
                acc = acc.doubled()
                if d != 0 {
                    var m = P256Point.generatorMultiplePublic(U256(UInt64(abs(Int(d))), 0, 0, 0))
                    if d < 0 { m = m.negated() }
                    acc = acc.adding(m)
                }
            }
            #expect(acc.affine == P256Point.generatorMultiple(P256Scalar(reducing: k).value).affine)
            var lastNonZero = -10
            for (i, d) in digits.enumerated() where d != 0 {
                #expect(d % 2 != 0 && abs(Int(d)) < 16)
                #expect(i - lastNonZero >= 5)
                lastNonZero = i
            }
        }
    }

    @Test func manyKeysSignAndVerify() throws {
        for seed in 1...12 {
            let key = try P256.PrivateKey(rawRepresentation: SHA256.hash(Array("key \(seed)".utf8)))
            let message = Array("message \(seed)".utf8)
            let signature = key.signature(for: message)
            #expect(key.publicKey.isValidSignature(signature, for: message))
            #expect(key.signature(for: message) == signature, "deterministic")
            var flipped = signature.rawRepresentation
            flipped[seed] ^= 0x01
            #expect(!key.publicKey.isValidSignature(raw: flipped, for: message))
            let other = try P256.PrivateKey(rawRepresentation: SHA256.hash(Array("other \(seed)".utf8)))
            #expect(!other.publicKey.isValidSignature(signature, for: message))
            #expect(try P256.Signature(derRepresentation: signature.derRepresentation) == signature)
        }
    }

    @Test func outOfRangeSignaturesAreRejected() throws {
        let key = try P256.PrivateKey(rawRepresentation: hex(Self.rfcKey))
        let message = Array("sample".utf8)
        let good = key.signature(for: message).rawRepresentation
        let zero = [UInt8](repeating: 0, count: 32)
        let n = P256Scalar.n.bigEndianBytes
        for bad in [zero + good[32...], Array(good[..<32]) + zero, n + good[32...], Array(good[..<32]) + n] {
            #expect(!key.publicKey.isValidSignature(raw: Array(bad), for: message))
        }
        // s and n - s both verify (ECDSA malleability); the signer emits what RFC 6979 gives.
        let s = U256(bigEndian: good[32...])!
        let negated = P256Scalar.n.subtracting(s).0
        #expect(key.publicKey.isValidSignature(raw: Array(good[..<32]) + negated.bigEndianBytes, for: message))
    }

    static let badPrivateKeys: [[UInt8]] = [
        [], [UInt8](repeating: 0, count: 32), P256Scalar.n.bigEndianBytes, [UInt8](repeating: 0xff, count: 32),
        [UInt8](repeating: 1, count: 31),
    ]

    @Test(arguments: badPrivateKeys)
    func badPrivateKeysThrow(_ bytes: [UInt8]) {
        #expect(throws: ASN1Error(offset: 0, expected: "a 32-byte P-256 private scalar between 1 and n - 1")) {
            try P256.PrivateKey(rawRepresentation: bytes)
        }
    }

    static let badPoints: [(String, ASN1Error)] = [
        ("", ASN1Error(offset: 0, expected: "a SEC1 point format byte")),
        (
            "05" + String(repeating: "00", count: 64),
            ASN1Error(offset: 0, expected: "a point format byte 04 (uncompressed) or 02/03 (compressed)")
        ),
        ("04" + String(repeating: "00", count: 63), ASN1Error(offset: 64, expected: "65 bytes of an uncompressed point")),
        ("04" + String(repeating: "ff", count: 64), ASN1Error(offset: 1, expected: "an x coordinate below p")),
        (
            "04" + String(repeating: "00", count: 32) + String(repeating: "ff", count: 32),
            ASN1Error(offset: 33, expected: "a y coordinate below p")
        ),
        ("04" + String(repeating: "00", count: 63) + "01", ASN1Error(offset: 1, expected: "a point on the P-256 curve")),
        (
            "02" + String(repeating: "00", count: 31),
            ASN1Error(offset: 0, expected: "33 bytes of a compressed point starting 02 or 03")
        ),
        ("03" + String(repeating: "ff", count: 32), ASN1Error(offset: 1, expected: "an x coordinate below p")),
    ]

    @Test(arguments: badPoints)
    func badPublicKeysThrow(_ encoding: String, _ error: ASN1Error) {
        #expect(throws: error) { try P256.PublicKey(x963Representation: hex(encoding)) }
    }

    @Test func compressedPointNotOnCurve() {
        // x = 5: x^3 - 3x + b is not a square mod p for some x; find one deterministically.
        var found = false
        for x in 1...50 {
            let bytes = [0x02] + U256(UInt64(x), 0, 0, 0).bigEndianBytes
            if (try? P256.PublicKey(compressedRepresentation: bytes)) == nil {
                #expect(throws: ASN1Error(offset: 1, expected: "an x coordinate on P-256")) {
                    try P256.PublicKey(compressedRepresentation: bytes)
                }
                found = true
                break
            }
        }
        #expect(found)
    }

    static let badSignatures: [(String, ASN1Error)] = [
        ("3006020101020101 00", ASN1Error(offset: 8, expected: "the end of the input after the outermost element")),
        ("3003020101", ASN1Error(offset: 2, expected: "exactly two INTEGERs, r and s")),
        ("3006020101040101", ASN1Error(offset: 5, expected: "an INTEGER")),
        ("30060201ff020101", ASN1Error(offset: 4, expected: "a non-negative INTEGER")),
        ("302602210100" + String(repeating: "00", count: 31) + "020101", ASN1Error(offset: 4, expected: "r of at most 32 bytes")),
        ("3106020101020101", ASN1Error(offset: 0, expected: "an ECDSA signature SEQUENCE")),
    ]

    @Test(arguments: badSignatures)
    func badDERSignaturesThrow(_ encoding: String, _ error: ASN1Error) {
        #expect(throws: error) { try P256.Signature(derRepresentation: hex(encoding)) }
    }
}

extension CryptoP256Tests {
    @Test func variableTimeInverseAgreesWithFermat() {
        for seed in 0..<50 {
            let s = P256Scalar(reducing: U256(bigEndian: SHA256.hash([UInt8(seed), 1]))!)
            #expect(s.inverseVariableTime == s.inverse)
        }
        let nMinus1 = P256Scalar(P256Scalar.n.subtracting(U256(1, 0, 0, 0)).0)!
        #expect(nMinus1.inverseVariableTime == nMinus1)
        #expect(P256Scalar.one.inverseVariableTime == .one)
    }
}
