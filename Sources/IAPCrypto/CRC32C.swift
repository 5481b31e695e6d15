/// CRC-32C (Castagnoli), the checksum on every store record and file header: it catches torn
/// writes and flipped bits, which is all the store needs (it is not a defence against forgery).
public enum CRC32C {
    /// Slicing-by-8 tables (Kounavis and Berry, "A Systematic Approach to Building High
    /// Performance Software-Based CRC Generators", 2005): `tables[0]` is the byte-at-a-time
    /// table of the reflected polynomial 0x82F63B78; `tables[k][i]` is `tables[k-1][i]` carried
    /// one more zero byte, so eight table reads consume eight bytes at once (a store load checks
    /// about 14 KB, and this is about four times fewer instructions than a byte at a time).
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            t[i] = c
        }
        for k in 1..<8 {
            for i in 0..<256 {
                let previous = t[(k - 1) * 256 + i]
                t[k * 256 + i] = (previous >> 8) ^ t[Int(previous & 0xFF)]
            }
        }
        return t
    }()

    /// The checksum of `bytes`, continuing from `crc` (pass the previous result to chain).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        tables.withUnsafeBufferPointer { t in
            var p = 0
            let n = bytes.count
            while n - p >= 8 {
                let low = c ^ UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: p, as: UInt32.self))
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: p + 4, as: UInt32.self))
                c =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                p += 8
            }
            while p < n {
                c = t[Int((c ^ UInt32(bytes[p])) & 0xFF)] ^ (c >> 8)
                p += 1
            }
        }
        return ~c
    }

    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }

    public static func checksum(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}
