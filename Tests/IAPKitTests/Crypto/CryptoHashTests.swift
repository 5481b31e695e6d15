import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit

@Suite("Crypto: SHA-1, SHA-256, HMAC")
struct CryptoHashTests {
    /// FIPS 180 examples (NIST CSRC "example values") plus the empty message.
    static let vectors: [(message: String, sha1: String, sha256: String)] = [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "a49b2446a02c645bf419f995b67091253a04a259",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ]

    @Test(arguments: vectors)
    func fipsVectors(_ vector: (message: String, sha1: String, sha256: String)) {
        #expect(SHA1.hexDigest(Array(vector.message.utf8)) == vector.sha1)
        #expect(SHA256.hexDigest(Array(vector.message.utf8)) == vector.sha256)
    }

    @Test func millionA() {
        let bytes = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(SHA1.hexDigest(bytes) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        #expect(SHA256.hexDigest(bytes) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Feeding the message in uneven pieces (across block boundaries) gives the one-shot digest.
    @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 127, 1000])
    func incrementalMatchesOneShot(chunk: Int) {
        let message = (0..<3001).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var a = SHA256()
        var b = SHA1()
        var start = 0
        while start < message.count {
            let end = min(start + chunk, message.count)
            a.update(message[start..<end])
            b.update(message[start..<end].reversed().reversed())
            start = end
        }
        #expect(a.finalize() == SHA256.hash(message))
        #expect(b.finalize() == SHA1.hash(message))
    }

    /// The 448-bit and 896-bit messages straddle the padding boundary: every length near it.
    @Test func paddingBoundaryLengthsMatchOpenSSL() throws {
        try CryptoTestSupport.withTemporaryDirectory { dir in
            for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 4099] {
                let data = (0..<length).map { UInt8(truncatingIfNeeded: ($0 * 2_654_435_761) >> 7) }
                let file = dir.appendingPathComponent("m\(length)")
                try Data(data).write(to: file)
                let out = try CryptoTestSupport.openssl(["dgst", "-sha256", "-r", file.path]).stdout
                let expected = String(decoding: out, as: UTF8.self).prefix(64)
                #expect(SHA256.hexDigest(data) == String(expected), "length \(length)")
                let out1 = try CryptoTestSupport.openssl(["dgst", "-sha1", "-r", file.path]).stdout
                #expect(SHA1.hexDigest(data) == String(String(decoding: out1, as: UTF8.self).prefix(40)))
            }
        }
    }

    /// RFC 4231 test cases 1-4, 6 and 7 (case 5 truncates the output).
    static let hmacVectors: [(key: String, data: String, mac: String)] = [
        (
            String(repeating: "0b", count: 20), Hex.encode(Array("Hi There".utf8)),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Hex.encode(Array("Jefe".utf8)), Hex.encode(Array("what do ya want for nothing?".utf8)),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            String(repeating: "aa", count: 20), String(repeating: "dd", count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            "0102030405060708090a0b0c0d0e0f10111213141516171819", String(repeating: "cd", count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            String(repeating: "aa", count: 131),
            Hex.encode(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            String(repeating: "aa", count: 131),
            Hex.encode(
                Array(
                    "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                        .utf8)),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    @Test(arguments: hmacVectors)
    func rfc4231(_ vector: (key: String, data: String, mac: String)) {
        let mac = HMAC.sha256(key: CryptoTestSupport.hex(vector.key), message: CryptoTestSupport.hex(vector.data))
        #expect(Hex.encode(mac) == vector.mac)
    }

    /// RFC 2202 test case 2 for HMAC-SHA1.
    @Test func hmacSHA1() {
        let mac = HMAC.sha1(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Hex.encode(mac) == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }
}
