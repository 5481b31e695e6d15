import Foundation
import Testing

@testable import IAPJSON

/// Every receipt in Fixtures/real/receipts (Apple-signed: RSA with SHA-1 and SHA-256, the 2013
/// WWDR and the G5 chains; Xcode-signed: BER, StoreKit's self-signed certificate) decodes to the
/// attribute values `openssl asn1parse` shows, and verifies as it should.
@Suite("Real receipts: what openssl asn1parse shows, and verification against Apple's roots")
struct RealReceiptTests {
    static let files: [String] = {
        let root = CLIHarness.fixture("real/receipts")
        return ((try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []).filter { $0.hasSuffix(".b64") }.sorted()
    }()

    @Test func corpus() {
        #expect(Self.files.filter { $0.hasPrefix("apple/") }.count >= 4)
        #expect(Self.files.filter { $0.hasPrefix("xcode/") }.count >= 3)
    }

    /// One attribute as openssl shows it: type, version, and the value's bytes (its hex dump).
    struct Attribute {
        let type: Int
        let version: Int
        let value: [UInt8]
    }

    /// `openssl asn1parse -i` lines: (offset, depth, header length, length, tag, value text).
    static func asn1parse(_ der: [UInt8], in h: CLIHarness, name: String) throws -> [(Int, Int, Int, Int, String, String)] {
        if der.isEmpty { return [] }
        _ = FileManager.default.createFile(atPath: h.path(name), contents: Data(der))
        let r = try ExternalTool.run("openssl", ["asn1parse", "-inform", "DER", "-i", "-in", name], in: h.directory)
        #expect(r.code == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").compactMap { line in
            // "   12:d=2  hl=2 l=   2 prim:   OCTET STRING      [HEX DUMP]:1600"
            guard let colon = line.firstIndex(of: ":"), let offset = Int(line[..<colon].trimmingCharacters(in: .whitespaces))
            else { return nil }
            let rest = line[line.index(after: colon)...]
            func number(after key: String) -> Int? {
                guard let r = rest.range(of: key) else { return nil }
                return Int(rest[r.upperBound...].drop { $0 == " " }.prefix { $0.isNumber })
            }
            guard let depth = number(after: "d="), let hl = number(after: "hl="), let length = number(after: " l=") else {
                return nil
            }
            let body = rest.components(separatedBy: rest.contains("prim:") ? "prim:" : "cons:").last ?? ""
            let parts = body.split(separator: ":", maxSplits: 1)
            let tag = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            let value = parts.count > 1 ? String(parts[1]) : ""
            return (offset, depth, hl, length, tag, value)
        }
    }

    /// The SET OF SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING } at depth
    /// `depth`, read from openssl's lines: the value bytes are the OCTET STRING's content.
    static func attributes(_ rows: [(Int, Int, Int, Int, String, String)], bytes: [UInt8], depth: Int) -> [[Attribute]] {
        var sets: [[Attribute]] = []
        var i = 0
        while i < rows.count {
            let row = rows[i]
            if row.1 == depth - 1 && row.4 == "SET" { sets.append([]) }
            if row.1 == depth && row.4 == "SEQUENCE", i + 3 < rows.count {
                let type = Int(rows[i + 1].5, radix: 16) ?? -1
                let version = Int(rows[i + 2].5, radix: 16) ?? -1
                let octets = rows[i + 3]
                let start = octets.0 + octets.2
                sets[sets.count - 1].append(
                    Attribute(type: type, version: version, value: Array(bytes[start..<start + octets.3])))
                i += 4
                continue
            }
            i += 1
        }
        return sets
    }

    /// The text or number openssl shows for each value (the DER of a string or INTEGER), all
    /// values parsed in one openssl run (asn1parse walks concatenated elements one by one).
    static func shown(_ values: [[UInt8]], in h: CLIHarness) throws -> [String] {
        let rows = try asn1parse(values.flatMap { $0 }, in: h, name: "values.der").filter { $0.1 == 0 }
        #expect(rows.count == values.count)
        return rows.map { row in
            switch row.4 {
            case "INTEGER": return String(Int64(row.5, radix: 16) ?? -1)
            default: return row.5
            }
        }
    }

    /// An IA5String date as a millisecond timestamp, read with Foundation (`Z`, `+0100`, `+01:00`).
    static func millis(_ text: String) -> Int64? {
        if text.isEmpty { return nil }
        for format in ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ssXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX"] {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.dateFormat = format
            if let d = f.date(from: text) { return Int64((d.timeIntervalSince1970 * 1000).rounded()) }
        }
        Issue.record("a date Foundation cannot read: \(text)")
        return nil
    }

    static let stringFields = [0: "environment", 2: "bundleId", 3: "appVersion", 19: "originalAppVersion"]
    static let dateFields = [12: "creationTimestamp", 21: "expirationTimestamp"]
    static let bytesFields = [4: "opaqueValue", 5: "sha1Hash"]
    static let inAppStrings = [1702: "productIdentifier", 1703: "transactionIdentifier", 1705: "originalTransactionIdentifier"]
    static let inAppDates = [
        1704: "purchaseTimestamp", 1706: "originalPurchaseTimestamp", 1708: "expiresTimestamp", 1712: "cancellationTimestamp",
    ]

    @Test(arguments: files)
    func sameValuesAsOpenSSL(_ file: String) throws {
        let h = CLIHarness()
        let text = try String(contentsOfFile: CLIHarness.fixture("real/receipts/" + file), encoding: .utf8)
        let der = [UInt8](try #require(Data(base64Encoded: text, options: .ignoreUnknownCharacters)))
        _ = FileManager.default.createFile(atPath: h.path("receipt.der"), contents: Data(der))
        let cms = try ExternalTool.run(
            "openssl", ["cms", "-verify", "-noverify", "-inform", "DER", "-in", "receipt.der", "-out", "payload.der"],
            in: h.directory)
        #expect(cms.code == 0, "\(cms.stderr)")
        let payload = h.bytes("payload.der")
        let top = try #require(Self.attributes(try Self.asn1parse(payload, in: h, name: "p.der"), bytes: payload, depth: 1).first)
        let inAppValues = top.filter { $0.type == 17 }.map(\.value)
        let inAppSets = Self.attributes(
            try Self.asn1parse(inAppValues.flatMap { $0 }, in: h, name: "inapp.der"), bytes: inAppValues.flatMap { $0 }, depth: 1)
        #expect(inAppSets.count == inAppValues.count)

        let ours = h.run(["receipt", "decode", CLIHarness.fixture("real/receipts/" + file), "--json"], useStore: false)
        #expect(ours.code == 0, "\(ours)")
        let json = try #require(ours.json)

        // Top level: strings, dates (normalized to UTC), raw bytes, the rest kept as they are.
        let textual = top.filter { Self.stringFields[$0.type] != nil || Self.dateFields[$0.type] != nil }
        let texts = try Self.shown(textual.map(\.value), in: h)
        for (a, shown) in zip(textual, texts) {
            if let key = Self.stringFields[a.type] {
                #expect(json[key]?.stringValue == shown, "\(file): attribute \(a.type)")
            } else if let key = Self.dateFields[a.type] {
                #expect(json[key]?.int64Value == Self.millis(shown), "\(file): attribute \(a.type) '\(shown)'")
            }
        }
        for a in top {
            if let key = Self.bytesFields[a.type] { #expect(json[key]?.stringValue == Self.hex(a.value), "\(file): \(a.type)") }
        }
        let known = Set(Self.stringFields.keys).union(Self.dateFields.keys).union(Self.bytesFields.keys).union([17])
        let others = top.filter { !known.contains($0.type) }.map { "\($0.type)/\($0.version)/\(Self.hex($0.value))" }
        let oursOthers = (json["otherAttributes"]?.arrayValue ?? []).map {
            "\($0["type"]!.int64Value!)/\($0["version"]!.int64Value!)/\($0["value"]!.stringValue!)"
        }
        #expect(oursOthers.sorted() == others.sorted(), "\(file)")

        // In-app purchases: each entry's values, compared as a multiset (ours are sorted by date);
        // a date openssl shows as an empty string, or one the entry lacks, is null on both sides.
        let keys = Array(Set(Self.inAppStrings.values).union(Self.inAppDates.values).union(["quantity"])).sorted()
        func canonical(_ fields: [String: String]) -> String {
            keys.map { "\($0)=\(fields[$0] ?? "null")" }.joined(separator: " ")
        }
        var theirs: [String] = []
        for set in inAppSets {
            let textual = set.filter { Self.inAppStrings[$0.type] != nil || Self.inAppDates[$0.type] != nil || $0.type == 1701 }
            let texts = try Self.shown(textual.map(\.value), in: h)
            var fields: [String: String] = [:]
            for (a, shown) in zip(textual, texts) {
                if let key = Self.inAppStrings[a.type] { fields[key] = shown }
                if let key = Self.inAppDates[a.type], let ms = Self.millis(shown) { fields[key] = String(ms) }
                if a.type == 1701 { fields["quantity"] = shown }
            }
            theirs.append(canonical(fields))
        }
        let oursInApp = (json["inApp"]?.arrayValue ?? []).map { entry -> String in
            var fields: [String: String] = [:]
            for key in keys {
                switch entry[key] {
                case .string(let s)?: fields[key] = s
                case .number(let n)?: fields[key] = n
                default: break
                }
            }
            return canonical(fields)
        }
        #expect(oursInApp.sorted() == theirs.sorted(), "\(file)")
        #expect(oursInApp.count == json["inApp"]?.arrayValue?.count)
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    struct ManifestReceipt: CustomTestStringConvertible, @unchecked Sendable {
        let entry: [String: Any]
        var file: String { entry["file"] as! String }
        var testDescription: String { (file as NSString).lastPathComponent }
    }

    /// The receipts of Fixtures/real/manifest.json (read there with openssl, independently).
    static let manifest: [ManifestReceipt] = {
        let data = FileManager.default.contents(atPath: CLIHarness.fixture("real/manifest.json"))!
        let root = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["receipts"] as! [[String: Any]]).map(ManifestReceipt.init)
    }()

    /// The known device of TPInAppReceipt's HashVerifierTests (`knownDeviceUUID`).
    static let knownDevice = "956328D9-CC6A-47F4-BE40-6953FB0AB6C7"

    /// `verify --root` with Apple Inc. Root (or Xcode's StoreKit certificate) and the receipt's own
    /// bundle id and version: signature, chain, markers, bundle id and version pass; the hash needs
    /// the device, which only the known-device receipt has.
    @Test(arguments: manifest)
    func verifiesAgainstAppleRoot(_ m: ManifestReceipt) throws {
        let h = CLIHarness()
        let anchor = (m.entry["opensslCmsVerify"] as! [String: Any])["anchor"] as! String
        var arguments = [
            "verify", "--receipt", CLIHarness.fixture("real/" + m.file), "--root", CLIHarness.fixture("real/" + anchor),
            "--bundle-id", m.entry["bundleId"] as! String, "--app-version", m.entry["appVersion"] as! String, "--json",
        ]
        let knownDevice = m.file.contains("known-device")
        if knownDevice { arguments += ["--device-id", Self.knownDevice] }
        let r = h.run(arguments)
        let checks = Dictionary(
            uniqueKeysWithValues: (r.json?["checks"]?.arrayValue ?? []).map {
                ($0["name"]!.stringValue!, ($0["verdict"]!.stringValue!, $0["detail"]!.stringValue!))
            })
        let xcode = m.file.hasPrefix("receipts/xcode/")
        #expect(checks["signature"]?.0 == "pass", "\(r)")
        #expect(checks["chain"]?.0 == "pass", "\(r)")
        #expect(checks["appleMarkers"]?.0 == (xcode ? "skip" : "pass"))
        #expect(checks["bundleId"]?.0 == "pass" && checks["appVersion"]?.0 == "pass")
        if knownDevice {
            #expect(checks["hash"]?.0 == "pass")
            #expect(r.code == 0 && r.json?["valid"] == .bool(true), "\(r)")
        } else {
            #expect(checks["hash"]?.0 == "fail")
            #expect(checks["hash"]?.1.hasSuffix("; give that device's identifierForVendor with --device-id UUID") == true)
            #expect(r.code == 1)
        }
        // The signing algorithm as the manifest read it: rsaEncryption with SHA-1 or SHA-256.
        let digest = m.entry["signerDigestAlgorithm"] as! String
        #expect(checks["signature"]?.1.contains(digest) == true, "\(checks["signature"] ?? ("", ""))")
        // The chain as openssl read it, subject by subject, from the leaf to Apple's root.
        let names = (m.entry["chain"] as! [[String: Any]]).map { $0["subject"] as! String }
        let decoded = h.run(["receipt", "decode", CLIHarness.fixture("real/" + m.file), "--json"], useStore: false)
        let certificates = decoded.json?["signature"]?["certificates"]?.arrayValue ?? []
        #expect(Set(certificates.compactMap { $0["subject"]?.stringValue }) == Set(names.map(RealJWSTests.rfc4514)))
        #expect(decoded.json?["inApp"]?.arrayValue?.count == m.entry["inAppCount"] as? Int)
        #expect(decoded.json?["environment"]?.stringValue == m.entry["environment"] as? String)
        #expect(decoded.json?["signature"]?["encoding"]?.stringValue == (xcode ? "BER" : "DER"))
    }

    /// Xcode 12 wrote local time with a colon-less offset: 2020-07-22T18:33:15+0100 is 17:33:15Z.
    @Test func xcode12DatesAreUTC() throws {
        let r = CLIHarness().run(
            ["receipt", "decode", CLIHarness.fixture("real/receipts/xcode/tpinappreceipt-receipt-new-xcode12.b64"), "--json"],
            useStore: false)
        let json = try #require(r.json, "\(r)")
        #expect(json["creationDate"] == .string("2020-07-22T17:33:15Z"))
        #expect(json["expirationDate"] == .string("4001-01-01T00:00:00Z"))
        #expect(json["inApp"]?.arrayValue?.first?["purchaseDate"] == .string("2020-07-22T17:33:14Z"))
        #expect(json["inApp"]?.arrayValue?.first?["expiresDate"] == .string("2021-07-22T17:33:14Z"))
        let other = CLIHarness().run(
            [
                "receipt", "decode", CLIHarness.fixture("real/receipts/xcode/tpinappreceipt-receipt-no-orig-purchase-date.b64"),
                "--json",
            ],
            useStore: false)
        #expect(other.json?["creationDate"] == .string("2021-04-03T19:38:45Z"))
        #expect(other.json?["expirationDate"] == .string("4001-01-01T00:00:00Z"))
    }
}
