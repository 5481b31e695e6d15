import IAPCrypto
import IAPTime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes receipt attributes (`SEQUENCE { type, version, OCTET STRING value }`) one after
/// another into a single buffer, then emits them as a DER `SET`, sorted as X.690 section 11.6
/// requires. No intermediate array per TLV: a 10,000-purchase receipt is built in a few passes.
struct AttributeWriter {
    private(set) var bytes: [UInt8] = []
    /// Where each attribute starts and ends in `bytes`.
    private var ranges: [Range<Int>] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        ranges.reserveCapacity(16)
    }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        ranges.removeAll(keepingCapacity: true)
    }

    /// An attribute whose value is already DER (or raw bytes: the opaque value, the hash).
    mutating func raw(_ type: Int, _ value: [UInt8], version: Int = 1) {
        attribute(type, version: version, valueLength: value.count) { $0.append(contentsOf: value) }
    }

    /// A UTF8String or IA5String value.
    mutating func text(_ type: Int, _ tag: ASN1Tag, _ value: String?) {
        guard var text = value else { return }
        text.withUTF8 { utf8 in
            let inner = 1 + AttributeWriter.lengthCount(utf8.count) + utf8.count
            attribute(type, version: 1, valueLength: inner) { b in
                b.append(tag.encoded[0])
                AttributeWriter.appendLength(utf8.count, to: &b)
                b.append(contentsOf: utf8)
            }
        }
    }

    /// An INTEGER value.
    mutating func integer(_ type: Int, _ value: Int64) {
        let count = AttributeWriter.integerCount(value)
        attribute(type, version: 1, valueLength: 2 + count) { b in
            b.append(0x02)
            b.append(UInt8(count))
            AttributeWriter.appendInteger(value, count: count, to: &b)
        }
    }

    /// An IA5String date, RFC 3339 with whole seconds.
    mutating func date(_ type: Int, _ value: Timestamp?) {
        guard let value else { return }
        let text = AttributeWriter.dateText(value)
        attribute(type, version: 1, valueLength: 22) { b in
            b.append(0x16)
            b.append(20)
            b.append(contentsOf: text)
        }
    }

    /// `2026-01-01T00:00:00Z` (fractions dropped, as Apple writes receipt dates).
    static func dateText(_ t: Timestamp) -> [UInt8] {
        let c = CivilTime(Timestamp(milliseconds: t.milliseconds - ((t.milliseconds % 1000) + 1000) % 1000))
        var out = [UInt8](repeating: 0, count: 20)
        func put(_ v: Int64, _ at: Int, _ width: Int) {
            var v = v
            for i in stride(from: at + width - 1, through: at, by: -1) {
                out[i] = 0x30 + UInt8(v % 10)
                v /= 10
            }
        }
        put(c.year, 0, 4)
        out[4] = 0x2D
        put(c.month, 5, 2)
        out[7] = 0x2D
        put(c.day, 8, 2)
        out[10] = 0x54
        put(c.hour, 11, 2)
        out[13] = 0x3A
        put(c.minute, 14, 2)
        out[16] = 0x3A
        put(c.second, 17, 2)
        out[19] = 0x5A
        return out
    }

    private mutating func attribute(_ type: Int, version: Int, valueLength: Int, _ value: (inout [UInt8]) -> Void) {
        let typeCount = AttributeWriter.integerCount(Int64(type))
        let versionCount = AttributeWriter.integerCount(Int64(version))
        let octets = 1 + AttributeWriter.lengthCount(valueLength) + valueLength
        let content = 2 + typeCount + 2 + versionCount + octets
        let start = bytes.count
        bytes.append(0x30)
        AttributeWriter.appendLength(content, to: &bytes)
        bytes.append(0x02)
        bytes.append(UInt8(typeCount))
        AttributeWriter.appendInteger(Int64(type), count: typeCount, to: &bytes)
        bytes.append(0x02)
        bytes.append(UInt8(versionCount))
        AttributeWriter.appendInteger(Int64(version), count: versionCount, to: &bytes)
        bytes.append(0x04)
        AttributeWriter.appendLength(valueLength, to: &bytes)
        value(&bytes)
        ranges.append(start..<bytes.count)
    }

    /// The attributes as a DER SET OF: sorted by their encodings (shorter first on a tie).
    func set() -> [UInt8] {
        let sorted = bytes.withUnsafeBufferPointer { buffer in
            ranges.sorted { a, b in
                let n = min(a.count, b.count)
                let c = memcmp(buffer.baseAddress! + a.lowerBound, buffer.baseAddress! + b.lowerBound, n)
                return c != 0 ? c < 0 : a.count < b.count
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 6)
        out.append(0x31)
        AttributeWriter.appendLength(bytes.count, to: &out)
        bytes.withUnsafeBufferPointer { buffer in
            for r in sorted { out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[r])) }
        }
        return out
    }

    // MARK: - DER pieces

    static func lengthCount(_ n: Int) -> Int {
        if n < 0x80 { return 1 }
        var count = 1
        var v = n
        while v > 0 {
            count += 1
            v >>= 8
        }
        return count
    }

    static func appendLength(_ n: Int, to b: inout [UInt8]) {
        if n < 0x80 {
            b.append(UInt8(n))
            return
        }
        let count = lengthCount(n) - 1
        b.append(0x80 | UInt8(count))
        for i in stride(from: count - 1, through: 0, by: -1) { b.append(UInt8(truncatingIfNeeded: n >> (8 * i))) }
    }

    /// Bytes of the minimal two's-complement encoding of `v`.
    static func integerCount(_ v: Int64) -> Int {
        var count = 1
        while count < 8 {
            let shifted = v >> (8 * count - 1)
            if shifted == 0 || shifted == -1 { break }
            count += 1
        }
        return count
    }

    static func appendInteger(_ v: Int64, count: Int, to b: inout [UInt8]) {
        for i in stride(from: count - 1, through: 0, by: -1) { b.append(UInt8(truncatingIfNeeded: v >> (8 * i))) }
    }
}
