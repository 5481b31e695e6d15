import Foundation
import IAPCrypto
import IAPKit

/// The ECDSA figures, each against `openssl speed` in the same run: P-256 signatures and
/// verifications per second against `openssl speed ecdsap256` (issue 5, goal at least 0.2 each),
/// P-384 verifications per second against `openssl speed -seconds 1 ecdsap384` (issue 11, goal
/// at least 0.2), and a real App Store JWS verified end to end per second: parsing, the chain
/// (leaf -> WWDR G6 -> Apple Root CA - G3: two P-384 and one P-256 certificate signature, SHA-384
/// digests), Apple's markers and the ES256 signature.
///
/// Rates are per second of this thread's CPU time, which is what `openssl speed` counts (it
/// prints "N verify in 0.78s" of user time), so a loaded machine slows both sides alike.
enum CryptoBenchmarks {
    static func run(quick: Bool) throws -> [Figure] {
        let openssl = try ReceiptBenchmarks.tool("openssl")
        let seconds = quick ? 0.5 : 2
        let (sign, verify) = try ReceiptBenchmarks.opensslSpeed(openssl, seconds: quick ? 1 : 2, curve: "p256")
        let (ourSign, ourVerify) = p256Rates(seconds: seconds)
        let ourP384 = try p384Rate(seconds: seconds)
        let (_, theirP384) = try ReceiptBenchmarks.opensslSpeed(openssl, seconds: 1, curve: "p384")
        return [
            Figure("P-256 ECDSA signatures (CPU time)", ourSign, "per s"),
            Figure("P-256 ECDSA verifications (CPU time)", ourVerify, "per s"),
            Figure("P-256 signatures / openssl speed ecdsap256", ourSign / sign, "ratio", atLeast: 0.2),
            Figure("P-256 verifications / openssl speed ecdsap256", ourVerify / verify, "ratio", atLeast: 0.2),
            Figure("P-384 ECDSA verifications (CPU time)", ourP384, "per s"),
            Figure("openssl speed -seconds 1 ecdsap384: verifications", theirP384, "per s"),
            Figure("P-384 verifications / openssl speed ecdsap384", ourP384 / theirP384, "ratio", atLeast: 0.2),
            Figure(
                "real App Store JWS verified end to end, chain to Root CA - G3 (CPU time)", try jwsRate(seconds: seconds),
                "per s"),
        ]
    }

    /// P-256 signatures and verifications per second, over the same 32-byte digests.
    static func p256Rates(seconds: Double) -> (sign: Double, verify: Double) {
        let key = SigningIdentity.builtin.privateKey
        let digests = (0..<64).map { SHA256.hash(Array("message \($0)".utf8)) }
        var signatures: [P256.Signature] = []
        var count = 0
        let signTime = cpuTime {
            let start = cpuNow()
            while cpuNow() - start < seconds {
                let s = key.signature(forDigest: digests[count % digests.count])
                if signatures.count < digests.count { signatures.append(s) }
                count += 1
            }
        }
        var verified = 0
        var valid = true
        let verifyTime = cpuTime {
            let start = cpuNow()
            while cpuNow() - start < seconds {
                let i = verified % signatures.count
                valid = key.publicKey.isValidSignature(signatures[i], forDigest: digests[i]) && valid
                verified += 1
            }
        }
        precondition(valid, "a signature did not verify")
        return (Double(count) / signTime, Double(verified) / verifyTime)
    }

    /// P-384 verifications per second of a real signature: the one Apple Root CA - G3 made over the
    /// WWDR G6 certificate.
    static func p384Rate(seconds: Double) throws -> Double {
        let root = try certificate("Fixtures/real/certs/apple-root-ca-g3.der")
        let wwdr = try certificate("Fixtures/real/certs/apple-wwdr-g6.der")
        guard case .p384(let key) = root.publicKey else {
            throw ReceiptBenchmarks.MissingTool(description: "Apple Root CA - G3 is not read as a P-384 key")
        }
        let signature = try P384.Signature(derRepresentation: wwdr.signature)
        let digest = SHA384.hash(wwdr.tbsBytes)
        var count = 0
        var valid = true
        let time = cpuTime {
            let start = cpuNow()
            while cpuNow() - start < seconds {
                valid = key.isValidSignature(signature, forDigest: digest) && valid
                count += 1
            }
        }
        precondition(valid, "Apple Root CA - G3's signature over WWDR G6 did not verify")
        return Double(count) / time
    }

    /// A real App Store notification (Production, 2023) parsed and verified against Apple Root CA
    /// - G3, per second.
    static func jwsRate(seconds: Double) throws -> Double {
        let root = try certificate("Fixtures/real/certs/apple-root-ca-g3.der")
        let file = "Fixtures/real/jws/gopay-notification-consumption-request-production-2023.jws"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var tokens = 0
        var valid = true
        let time = cpuTime {
            let start = cpuNow()
            while cpuNow() - start < seconds {
                let report = (try? CompactJWS(parsing: text)).map { JWSVerifier.verify($0, root: root) }
                valid = (report?.isValid ?? false) && valid
                tokens += 1
            }
        }
        precondition(valid, "\(file) did not verify against Apple Root CA - G3")
        return Double(tokens) / time
    }

    /// This thread's CPU time in seconds.
    static func cpuNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func cpuTime(_ body: () -> Void) -> Double {
        let start = cpuNow()
        body()
        return cpuNow() - start
    }

    static func certificate(_ path: String) throws -> Certificate {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReceiptBenchmarks.MissingTool(description: "\(path) is missing; run iapbench from the repository root")
        }
        return try Certificate(der: [UInt8](data))
    }
}
