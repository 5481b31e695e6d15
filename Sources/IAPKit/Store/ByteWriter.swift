/// Appends little-endian integers, LEB128 varints and length-prefixed strings to a byte buffer:
/// the building block of the store's binary records.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 128) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func u32(_ v: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }

    mutating func u64(_ v: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
    }

    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Zig-zag encodes so small negative numbers stay short.
    mutating func svarint(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func raw(_ b: [UInt8]) { bytes.append(contentsOf: b) }
}

/// Reads what `ByteWriter` wrote, never trapping: every read checks bounds and reports failure
/// as nil, so damaged records are detected rather than crashing the process.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var index: Int

    init(_ bytes: UnsafeRawBufferPointer, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func u8() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u32() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[index + i]) << UInt32(8 * i) }
        index += 4
        return v
    }

    mutating func u64() -> UInt64? {
        guard index + 8 <= bytes.count else { return nil }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[index + i]) << UInt64(8 * i) }
        index += 8
        return v
    }

    mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count, shift < 64 {
            let b = bytes[index]
            index += 1
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    mutating func svarint() -> Int64? {
        guard let u = varint() else { return nil }
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    mutating func string() -> String? {
        guard let n = varint(), n <= UInt64(bytes.count - index) else { return nil }
        let count = Int(n)
        let slice = UnsafeRawBufferPointer(rebasing: bytes[index..<index + count])
        index += count
        return Self.utf8(slice)
    }

    /// `slice` as a string, nil when it is not UTF-8. Records' strings are nearly all ASCII:
    /// those need no validation and take the standard library's contiguous fast path, where
    /// `String(validating:as:)` goes through its generic, unspecialized validator (about a
    /// thousand instructions a string, a tenth of a `buy`'s store load, and the first one some
    /// 18 thousand, looking up the types it is generic over). Other strings are checked by
    /// `isWellFormedUTF8`, then decoded by the same fast path.
    static func utf8(_ slice: UnsafeRawBufferPointer) -> String? {
        let units = slice.assumingMemoryBound(to: UInt8.self)
        var high: UInt8 = 0
        for unit in units { high |= unit }
        if high >= 0x80, !isWellFormedUTF8(units) { return nil }
        return String(decoding: units, as: UTF8.self)
    }

    /// Whether `units` is well-formed UTF-8: the byte sequences of the Unicode Standard's table
    /// 3-7 (no overlong forms, no surrogates, nothing past U+10FFFF), as
    /// `String(validating:as:)` accepts them (`RecordCodecTests` holds the two to each other).
    static func isWellFormedUTF8(_ units: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = units.count
        while i < n {
            let lead = units[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The number of continuation bytes, and the range the first of them must be in.
            let count: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0: (count, low) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED: (count, high) = (2, 0x9F)
            case 0xF0: (count, low) = (3, 0x90)
            case 0xF1...0xF3: count = 3
            case 0xF4: (count, high) = (3, 0x8F)
            default: return false
            }
            guard n - i > count, units[i + 1] >= low, units[i + 1] <= high else { return false }
            var k = 2
            while k <= count {
                guard units[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += count + 1
        }
        return true
    }

    mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, index + n <= bytes.count else { return false }
        index += n
        return true
    }
}
