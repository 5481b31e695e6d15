import Testing

@testable import IAPKit

/// `ChecksummedFile.header` reads the header line from bytes; it must accept and refuse exactly
/// what the string-splitting reader it replaced did, with the same messages.
@Suite("The checksummed header reader")
struct ChecksummedHeaderTests {
    /// The reader as it was: split into words, then `Int(_:)` and `UInt32(_:radix:)`.
    static func reference(_ bytes: [UInt8], kind: String, maximumVersion: Int) -> String {
        guard let newline = bytes.prefix(200).firstIndex(of: 0x0A) else {
            return bytes.isEmpty ? "empty file" : "not an iapctl \(kind) file (no header line)"
        }
        let header = String(decoding: bytes[0..<newline], as: UTF8.self)
        let parts = header.split(separator: " ")
        guard parts.count == 4, parts[0] == "iapctl-\(kind)", parts[1].hasPrefix("v"), let version = Int(parts[1].dropFirst()),
            parts[2].hasPrefix("crc32c="), let crc = UInt32(parts[2].dropFirst(7), radix: 16),
            parts[3].hasPrefix("length="), let length = Int(parts[3].dropFirst(7))
        else {
            return "not an iapctl \(kind) file (bad header line)"
        }
        guard version <= maximumVersion else { return "newer v\(version)" }
        return "v\(version) \(crc) \(length) \(newline)"
    }

    static func actual(_ bytes: [UInt8], kind: String, maximumVersion: Int) -> String {
        do {
            let h = try ChecksummedFile.header(bytes, kind: kind, maximumVersion: maximumVersion, path: "p")
            return "v\(h.version) \(h.crc) \(h.length) \(h.newline)"
        } catch {
            guard case .damaged(_, let problem) = error else { return "\(error)" }
            return problem.hasPrefix("written by a newer") ? "newer " + problem.split(separator: " ")[7].dropLast() : problem
        }
    }

    @Test("every byte of a header replaced by each of a set of telling bytes reads as before")
    func everyByte() {
        let header = Array("iapctl-state v3 crc32c=0a1b2c3d length=260\nbody".utf8)
        let replacements: [UInt8] = [
            0x20, 0x2B, 0x2D, 0x30, 0x39, 0x41, 0x46, 0x47, 0x61, 0x66, 0x67, 0x76, 0x0A, 0x00, 0xC3, 0xFF,
        ]
        var cases = [header, [], Array("iapctl-state  v3 crc32c=+0 length=-0\n".utf8)]
        cases.append(Array(" iapctl-state v9223372036854775807 crc32c=FFFFFFFF length=+1 \n".utf8))
        cases.append(Array("iapctl-state v-9223372036854775808 crc32c=-0 length=99999999999999999999\n".utf8))
        cases.append(Array("iapctl-state v3 crc32c=100000000 length=1\n".utf8))
        for i in header.indices {
            for r in replacements {
                var damaged = header
                damaged[i] = r
                cases.append(damaged)
            }
            cases.append(Array(header[..<i]) + Array(header[(i + 1)...]))
        }
        for bytes in cases {
            for maximum in [2, 3] {
                #expect(
                    Self.actual(bytes, kind: "state", maximumVersion: maximum)
                        == Self.reference(bytes, kind: "state", maximumVersion: maximum),
                    "\(bytes)")
            }
        }
    }
}
