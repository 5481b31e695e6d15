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

    /// Reads the header line from its bytes, with exactly the rules of splitting it into words
    /// (`split(separator: " ")`, empty words dropped) and `Int(_:)` / `UInt32(_:radix:)` on
    /// them, but without making strings: every command reads three headers (`state`, `catalog`,
    /// `catalog.bin`), and the string-splitting version cost some 40 thousand instructions each.
    static func header(_ bytes: [UInt8], kind: String, maximumVersion: Int, path: String) throws(StoreError) -> (
        version: Int, crc: UInt32, length: Int, newline: Int
    ) {
        guard let newline = bytes.prefix(200).firstIndex(of: 0x0A) else {
            throw .damaged(path: path, problem: bytes.isEmpty ? "empty file" : "not an iapctl \(kind) file (no header line)")
        }
        var words: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0)
        var count = 0
        var i = 0
        while i < newline {
            if bytes[i] == 0x20 {
                i += 1
                continue
            }
            var j = i
            while j < newline && bytes[j] != 0x20 { j += 1 }
            switch count {
            case 0: words.0 = i..<j
            case 1: words.1 = i..<j
            case 2: words.2 = i..<j
            case 3: words.3 = i..<j
            default: break
            }
            count += 1
            i = j
        }
        // Compared byte by byte on the text's UTF-8, with no string built ("iapctl-\(kind)" was
        // one allocation and a generic comparison for every file a command opens, issue 12).
        func word(_ range: Range<Int>, after prefix: String) -> Range<Int>? {
            var prefix = prefix
            let matches = prefix.withUTF8 { p -> Bool in
                guard range.count >= p.count else { return false }
                for k in 0..<p.count where bytes[range.lowerBound + k] != p[k] { return false }
                return true
            }
            return matches ? range.lowerBound + prefix.utf8.count..<range.upperBound : nil
        }
        func word(_ range: Range<Int>, is text: String) -> Bool { word(range, after: text)?.isEmpty == true }
        guard count == 4, let kindWord = word(words.0, after: "iapctl-"), word(kindWord, is: kind),
            let versionDigits = word(words.1, after: "v"), let version = integer(bytes[versionDigits]),
            let crcDigits = word(words.2, after: "crc32c="), let crc = hex32(bytes[crcDigits]),
            let lengthDigits = word(words.3, after: "length="), let length = integer(bytes[lengthDigits])
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

    /// An optional sign and at least one digit in `radix`, the magnitude at most `limit`
    /// (`Int(_:)` and `UInt32(_:radix:)`: "+5" and "-5" read, "5x" and "" do not).
    private static func magnitude(_ text: ArraySlice<UInt8>, radix: UInt64, limit: UInt64) -> (negative: Bool, value: UInt64)? {
        var digits = text[...]
        var negative = false
        if let sign = digits.first, sign == 0x2B || sign == 0x2D {
            negative = sign == 0x2D
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for b in digits {
            let d: UInt64
            switch b {
            case 0x30...0x39: d = UInt64(b - 0x30)
            case 0x61...0x66: d = UInt64(b - 0x61 + 10)
            case 0x41...0x46: d = UInt64(b - 0x41 + 10)
            default: return nil
            }
            guard d < radix else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: radix)
            let (next, o2) = times.addingReportingOverflow(d)
            guard !o1, !o2, next <= limit else { return nil }
            value = next
        }
        return (negative, value)
    }

    private static func integer(_ text: ArraySlice<UInt8>) -> Int? {
        guard let (negative, value) = magnitude(text, radix: 10, limit: UInt64(Int.max) + 1) else { return nil }
        if negative { return value == UInt64(Int.max) + 1 ? Int.min : -Int(value) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    private static func hex32(_ text: ArraySlice<UInt8>) -> UInt32? {
        guard let (negative, value) = magnitude(text, radix: 16, limit: UInt64(UInt32.max)) else { return nil }
        if negative && value != 0 { return nil }
        return UInt32(value)
    }

    static func decode(_ bytes: [UInt8], kind: String, maximumVersion: Int, path: String) throws(StoreError) -> [UInt8] {
        Array(bytes[try body(of: bytes, kind: kind, maximumVersion: maximumVersion, path: path)])
    }

    /// Where the body is in `bytes`, once its header, length and checksum are checked: what a
    /// caller that only needs to know the file is sound reads, without copying the body out.
    static func body(of bytes: [UInt8], kind: String, maximumVersion: Int, path: String) throws(StoreError) -> Range<Int> {
        let (_, crc, length, newline) = try header(bytes, kind: kind, maximumVersion: maximumVersion, path: path)
        let body = (newline + 1)..<bytes.count
        guard body.count == length else {
            throw .damaged(
                path: path,
                problem: "\(body.count < length ? "truncated" : "extended"): header says \(length) bytes, file has \(body.count)")
        }
        guard CRC32C.checksum(bytes[body]) == crc else {
            throw .damaged(path: path, problem: "checksum mismatch: the file was damaged")
        }
        return body
    }
}
