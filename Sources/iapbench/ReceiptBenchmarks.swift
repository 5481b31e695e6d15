import Foundation
import IAPCrypto
import IAPKit

/// Issue 5's figures: building and decoding a receipt with 10,000 in-app purchases against
/// `openssl asn1parse` and Apple's Python `ReceiptUtility` on the same file (the ECDSA figures
/// are `CryptoBenchmarks`).
///
/// Each receipt figure is "their time / ours" for one process run on the same receipt (median of
/// several runs, process start included on both sides): above 1 means iapctl is faster.
/// - build: `iapctl receipt --der FILE` (read the store's 10,000 transactions, encode, sign,
///   write) against `openssl asn1parse -inform DER -in FILE -strparse OFFSET` (openssl parsing
///   the payload's 10,000 entries, printing one line per element) and against
///   `ReceiptUtility().extract_transaction_id_from_app_receipt` (decoding the payload SET);
/// - decode: `iapctl receipt decode FILE --json` (every attribute of every entry) against the
///   same two.
enum ReceiptBenchmarks {
    struct MissingTool: Error, CustomStringConvertible {
        let description: String
    }

    static func run(binary: String, scratch: String, quick: Bool) throws -> [Figure] {
        let entries = 10_000
        let store = scratch + "/receipt-store"
        try populate(store, entries: entries)
        let der = scratch + "/receipt.der"
        let base64 = scratch + "/receipt.b64"
        let runs = quick ? 3 : 7
        guard Benchmark.spawn(binary, ["--store", store, "receipt", "--der", der]).status == 0 else {
            throw MissingTool(description: "iapctl receipt --der failed on the benchmark store")
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: der)))
        try Data(Base64.encode(bytes).utf8).write(to: URL(fileURLWithPath: base64))
        let payloadOffset = try PKCS7SignedData.parse(bytes).contentElementOffset

        let build = Benchmark.median(runs) {
            Benchmark.spawn(binary, ["--store", store, "receipt", "--der", scratch + "/again.der"]).seconds
        }
        let decode = Benchmark.median(runs) { Benchmark.spawn(binary, ["receipt", "decode", der, "--json"]).seconds }
        let openssl = try tool("openssl")
        let asn1parse = Benchmark.median(runs) {
            Benchmark.spawn(openssl, ["asn1parse", "-inform", "DER", "-in", der, "-strparse", String(payloadOffset)]).seconds
        }
        let python = try tool("python3")
        let script = """
            import sys
            from appstoreserverlibrary.receipt_utility import ReceiptUtility
            ReceiptUtility().extract_transaction_id_from_app_receipt(open(sys.argv[1]).read())
            """
        guard Benchmark.spawn(python, ["-c", script, base64]).status == 0 else {
            throw MissingTool(description: "python3 cannot run Apple's ReceiptUtility: pip install -r requirements-test.txt")
        }
        let apple = Benchmark.median(runs) { Benchmark.spawn(python, ["-c", script, base64]).seconds }

        var figures: [Figure] = []
        figures.append(Figure("receipt build, \(entries) in-app purchases", build * 1000, "ms"))
        figures.append(Figure("receipt decode --json, \(entries) in-app purchases", decode * 1000, "ms"))
        figures.append(Figure("openssl asn1parse -strparse of that payload", asn1parse * 1000, "ms"))
        figures.append(Figure("Apple ReceiptUtility on that receipt", apple * 1000, "ms"))
        figures.append(Figure("openssl asn1parse / iapctl receipt build", asn1parse / build, "ratio", atLeast: 1))
        figures.append(Figure("ReceiptUtility / iapctl receipt build", apple / build, "ratio", atLeast: 1))
        figures.append(Figure("openssl asn1parse / iapctl receipt decode", asn1parse / decode, "ratio", atLeast: 1))
        figures.append(Figure("ReceiptUtility / iapctl receipt decode", apple / decode, "ratio", atLeast: 1))
        return figures
    }

    /// A store whose receipt lists `entries` in-app purchases: finished non-renewing subscription
    /// purchases (each stays in the receipt), committed in batches.
    static func populate(_ path: String, entries: Int) throws {
        let store = Store(path: path)
        try store.create(StoreCreation(), force: true)
        try store.write { s throws(StoreError) in
            var left = entries
            while left > 0 {
                let n = min(left, 2000)
                try s.apply(
                    batch: Array(repeating: .buy(ProductID("com.x.vip1"), user: nil, quantity: 1), count: n) + [.finishAll])
                left -= n
            }
        }
    }

    /// `openssl speed -seconds N ecdsapXXX`: the sign/s and verify/s of its nistpXXX line.
    static func opensslSpeed(_ openssl: String, seconds: Int, curve: String) throws -> (sign: Double, verify: Double) {
        let out = NSTemporaryDirectory() + "/iapbench-speed-\(getpid()).txt"
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = Benchmark.spawn(openssl, ["speed", "-seconds", String(seconds), "ecdsa\(curve)"], stdout: out)
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").last(where: { $0.contains("nist\(curve)") }) else {
            throw MissingTool(description: "openssl speed ecdsa\(curve) printed no nist\(curve) line")
        }
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        guard numbers.count >= 3, let sign = numbers.dropLast().last, let verify = numbers.last, sign > 0, verify > 0 else {
            throw MissingTool(description: "cannot read openssl speed's line: \(line)")
        }
        return (sign, verify)
    }

    static func tool(_ name: String) throws -> String {
        let dirs =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + [
                "/usr/bin", "/usr/local/bin",
            ]
        guard let path = dirs.map({ $0 + "/" + name }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw MissingTool(description: "\(name) is not installed; the receipt benchmarks compare against it")
        }
        return path
    }
}
