/// The 64-byte block buffer shared by the Merkle-Damgård hashes (SHA-1 and SHA-256): it collects
/// partial input, hands whole blocks to the compression function, and applies the FIPS 180-4
/// padding (0x80, zeros, then the 64-bit big-endian bit length).
struct HashBlock: Sendable {
    private var bytes: [UInt8] = [UInt8](repeating: 0, count: 64)
    private var count = 0

    /// Feeds `input`; whole blocks go to `compress` directly from `input` when none is pending.
    mutating func absorb(_ input: UnsafeRawBufferPointer, _ compress: (UnsafeRawBufferPointer) -> Void) {
        var offset = 0
        let total = input.count
        if count > 0 {
            let take = min(64 - count, total)
            for i in 0..<take { bytes[count + i] = input[i] }
            count += take
            offset = take
            if count < 64 { return }
            bytes.withUnsafeBytes { compress($0) }
            count = 0
        }
        while total - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: input[offset..<offset + 64]))
            offset += 64
        }
        for i in offset..<total { bytes[i - offset] = input[i] }
        count = total - offset
    }

    /// Appends the padding and the length, compressing the final one or two blocks.
    mutating func pad(bitLength: UInt64, _ compress: (UnsafeRawBufferPointer) -> Void) {
        bytes[count] = 0x80
        for i in (count + 1)..<64 { bytes[i] = 0 }
        if count >= 56 {
            bytes.withUnsafeBytes { compress($0) }
            for i in 0..<64 { bytes[i] = 0 }
        }
        for i in 0..<8 { bytes[56 + i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * i)) }
        bytes.withUnsafeBytes { compress($0) }
        count = 0
    }
}
