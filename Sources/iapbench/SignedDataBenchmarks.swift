import Foundation
import IAPCrypto
import IAPKit

/// Issue 11's figures: P-384 ECDSA verifications per second against `openssl speed -seconds 1
/// ecdsap384` in the same run (goal at least 0.2), and a real App Store JWS verified end to end
/// per second: parsing, the chain (leaf -> WWDR G6 -> Apple Root CA - G3, two P-384 and one
/// P-256 certificate signature), Apple's markers and the ES256 signature.
///
/// Rates are per second of this thread's CPU time, which is what `openssl speed` counts (it
/// prints "N verify in 0.78s" of user time), so a loaded machine slows both sides alike.
enum SignedDataBenchmarks {
    static func run(quick: Bool) throws -> [Figure] {
        let root = try certificate("Fixtures/real/certs/apple-root-ca-g3.der")
        let wwdr = try certificate("Fixtures/real/certs/apple-wwdr-g6.der")
        guard case .p384(let key) = root.publicKey else {
            throw ReceiptBenchmarks.MissingTool(description: "Apple Root CA - G3 is not read as a P-384 key")
        }
        // The signature Root CA - G3 made over the WWDR G6 certificate: a real P-384 one.
        let signature = try P384.Signature(derRepresentation: wwdr.signature)
        let digest = SHA384.hash(wwdr.tbsBytes)
        let seconds = quick ? 0.5 : 2
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
        let ours = Double(count) / time
        let (_, theirs) = try ReceiptBenchmarks.opensslSpeed(try ReceiptBenchmarks.tool("openssl"), seconds: 1, curve: "p384")

        let file = "Fixtures/real/jws/gopay-notification-consumption-request-production-2023.jws"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var tokens = 0
        var allValid = true
        let jwsTime = cpuTime {
            let start = cpuNow()
            while cpuNow() - start < seconds {
                let report = (try? CompactJWS(parsing: text)).map { JWSVerifier.verify($0, root: root) }
                allValid = (report?.isValid ?? false) && allValid
                tokens += 1
            }
        }
        precondition(allValid, "\(file) did not verify against Apple Root CA - G3")
        return [
            Figure("P-384 ECDSA verifications (CPU time)", ours, "per s"),
            Figure("openssl speed -seconds 1 ecdsap384: verifications", theirs, "per s"),
            Figure("P-384 verifications / openssl speed ecdsap384", ours / theirs, "ratio", atLeast: 0.2),
            Figure("real App Store JWS verified end to end, chain to Root CA - G3 (CPU time)", Double(tokens) / jwsTime, "per s"),
        ]
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
