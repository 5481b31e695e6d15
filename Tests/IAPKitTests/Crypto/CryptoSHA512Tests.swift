import Foundation
import Testing

@testable import IAPCrypto

@Suite("Crypto: SHA-384 and SHA-512")
struct CryptoSHA512Tests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let message: [UInt8]
        let sha384: String
        let sha512: String
        var testDescription: String {
            message.count > 64 ? "\(message.count) bytes" : "'\(String(decoding: message, as: UTF8.self))'"
        }
    }

    /// Fixtures/vectors/sha2/fips180-4-sha384-sha512.json: NIST's example values (see its source).
    static let vectors: [Vector] = {
        let data = try! CryptoTestSupport.fixture("vectors/sha2/fips180-4-sha384-sha512.json")
        let root = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["vectors"] as! [[String: Any]]).map { v in
            let unit = Array((v["message"] as! String).utf8)
            let repeated = (0..<(v["repeat"] as! Int)).flatMap { _ in unit }
            return Vector(message: repeated, sha384: v["sha384"] as! String, sha512: v["sha512"] as! String)
        }
    }()

    @Test(arguments: vectors)
    func nistExamples(_ vector: Vector) {
        #expect(SHA384.hexDigest(vector.message) == vector.sha384)
        #expect(SHA512.hexDigest(vector.message) == vector.sha512)
        #expect(DigestAlgorithm.sha384.hash(vector.message) == SHA384.hash(vector.message))
    }

    /// Feeding the message in uneven pieces, across the 128-byte block and the 112-byte padding
    /// boundary, gives the one-shot digest.
    @Test(arguments: [1, 7, 111, 112, 113, 127, 128, 129, 255, 1000])
    func incrementalMatchesOneShot(chunk: Int) {
        let message = (0..<3001).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        var a = SHA384()
        var b = SHA512()
        var start = 0
        while start < message.count {
            let end = min(start + chunk, message.count)
            a.update(message[start..<end])
            b.update(message[start..<end].reversed().reversed())
            start = end
        }
        #expect(a.finalize() == SHA384.hash(message))
        #expect(b.finalize() == SHA512.hash(message))
    }

    /// Random messages of random lengths (every length near the padding boundary included), from
    /// a printed seed: `openssl dgst -sha384` and `-sha512` give the same digests.
    @Test func randomMessagesMatchOpenSSL() throws {
        var random = CryptoSeededRandom.fromEnvironment(default: 0x05A2_0384, test: "randomMessagesMatchOpenSSL")
        let lengths = [0, 1, 111, 112, 113, 127, 128, 129, 239, 240, 256] + (0..<12).map { _ in Int(random.next() % 5000) }
        try CryptoTestSupport.withTemporaryDirectory { dir in
            for (index, length) in lengths.enumerated() {
                let data = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                let file = dir.appendingPathComponent("m\(index)")
                try Data(data).write(to: file)
                for (flag, ours) in [("-sha384", SHA384.hexDigest(data)), ("-sha512", SHA512.hexDigest(data))] {
                    let out = try CryptoTestSupport.openssl(["dgst", flag, "-r", file.path])
                    let theirs = String(String(decoding: out.stdout, as: UTF8.self).prefix { $0 != " " })
                    #expect(ours == theirs, "length \(length), seed \(random.seed), \(flag)")
                }
            }
        }
    }

    /// RFC 4231 test case 2 for HMAC-SHA384 and HMAC-SHA512, through the generic HMAC.
    @Test func hmacRFC4231() {
        let key = Array("Jefe".utf8)
        let message = Array("what do ya want for nothing?".utf8)
        #expect(
            Hex.encode(HMAC.authenticate(SHA384.self, key: key, message: message))
                == "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649")
        #expect(
            Hex.encode(HMAC.authenticate(SHA512.self, key: key, message: message))
                == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        )
    }

    /// The DigestInfo prefixes RSA PKCS#1 v1.5 signatures end with (RFC 8017 section 9.2, note 1).
    @Test func digestInfoPrefixes() {
        #expect(Hex.encode(DigestAlgorithm.sha1.digestInfoPrefix) == "3021300906052b0e03021a05000414")
        #expect(Hex.encode(DigestAlgorithm.sha256.digestInfoPrefix) == "3031300d060960864801650304020105000420")
        #expect(Hex.encode(DigestAlgorithm.sha384.digestInfoPrefix) == "3041300d060960864801650304020205000430")
        #expect(Hex.encode(DigestAlgorithm.sha512.digestInfoPrefix) == "3051300d060960864801650304020305000440")
    }
}

/// SplitMix64, seeded from `IAPCTL_TEST_SEED` or a fixed default and printed, so a failing random
/// point can be replayed (`IAPCTL_TEST_SEED=<seed> swift test --filter ...`).
struct CryptoSeededRandom: RandomNumberGenerator {
    private var state: UInt64
    let seed: UInt64

    init(_ seed: UInt64) {
        self.seed = seed
        state = seed
    }

    static func fromEnvironment(default value: UInt64, test: String) -> CryptoSeededRandom {
        let seed = ProcessInfo.processInfo.environment["IAPCTL_TEST_SEED"].flatMap(UInt64.init) ?? value
        print("\(test): IAPCTL_TEST_SEED=\(seed)")
        return CryptoSeededRandom(seed)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
