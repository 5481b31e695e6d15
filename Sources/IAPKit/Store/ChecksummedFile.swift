import IAPCrypto

/// A small whole-file format for the store's state and catalog copy: one header line with the
/// kind, format version, CRC-32C and body length, then the body.
///
///     iapctl-state v1 crc32c=1a2b3c4d length=1234
///     {...}
///
/// A torn, truncated, extended or bit-flipped file fails the check, a foreign file fails the
/// header, and a file from a newer iapctl is refused by version, each with a message that says so.
enum ChecksummedFile {
    static func encode(kind: String, version: Int, body: [UInt8]) -> [UInt8] {
        let crc = CRC32C.checksum(body)
        let hex = String(crc, radix: 16)
        let header =
            "iapctl-\(kind) v\(version) crc32c=\(String(repeating: "0", count: 8 - hex.count))\(hex) length=\(body.count)\n"
        return Array(header.utf8) + body
    }

    /// The version a file's header line names, checked as `decode` checks it (kind, newer).
    static func version(of bytes: [UInt8], kind: String, maximumVersion: Int, path: String) throws(StoreError) -> Int {
        try header(bytes, kind: kind, maximumVersion: maximumVersion, path: path).version
    }

    private static func header(_ bytes: [UInt8], kind: String, maximumVersion: Int, path: String) throws(StoreError) -> (
        version: Int, crc: UInt32, length: Int, newline: Int
    ) {
        guard let newline = bytes.prefix(200).firstIndex(of: 0x0A) else {
            throw .damaged(path: path, problem: bytes.isEmpty ? "empty file" : "not an iapctl \(kind) file (no header line)")
        }
        let header = String(decoding: bytes[0..<newline], as: UTF8.self)
        let parts = header.split(separator: " ")
        guard parts.count == 4, parts[0] == "iapctl-\(kind)", parts[1].hasPrefix("v"), let version = Int(parts[1].dropFirst()),
            parts[2].hasPrefix("crc32c="), let crc = UInt32(parts[2].dropFirst(7), radix: 16),
            parts[3].hasPrefix("length="), let length = Int(parts[3].dropFirst(7))
        else {
            throw .damaged(path: path, problem: "not an iapctl \(kind) file (bad header line)")
        }
        guard version <= maximumVersion else {
            throw .damaged(
                path: path,
                problem:
                    "written by a newer iapctl (\(kind) format v\(version); this iapctl reads up to v\(maximumVersion)); upgrade iapctl to use this store"
            )
        }
        return (version, crc, length, newline)
    }

    static func decode(_ bytes: [UInt8], kind: String, maximumVersion: Int, path: String) throws(StoreError) -> [UInt8] {
        let (_, crc, length, newline) = try header(bytes, kind: kind, maximumVersion: maximumVersion, path: path)
        let body = Array(bytes[(newline + 1)...])
        guard body.count == length else {
            throw .damaged(
                path: path,
                problem: "\(body.count < length ? "truncated" : "extended"): header says \(length) bytes, file has \(body.count)")
        }
        guard CRC32C.checksum(body) == crc else {
            throw .damaged(path: path, problem: "checksum mismatch: the file was damaged")
        }
        return body
    }
}
