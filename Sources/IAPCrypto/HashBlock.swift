/// The block buffer shared by the Merkle-Damgård hashes: it collects partial input, hands whole
/// blocks to the compression function, and applies the FIPS 180-4 padding (0x80, zeros, then the
/// big-endian bit length). SHA-1 and SHA-256 use 64-byte blocks and an 8-byte length; SHA-384 and
/// SHA-512 128-byte blocks and a 16-byte length (section 5.1.2), whose high half is zero here
/// because a message held in memory is shorter than 2^64 bits.
struct HashBlock: Sendable {
    private var bytes: [UInt8]
    private var count = 0
    private let size: Int
    private let lengthSize: Int

    /// A buffer for `size`-byte blocks ending in a `lengthSize`-byte length when padded.
    init(size: Int = 64, lengthSize: Int = 8) {
        self.size = size
        self.lengthSize = lengthSize
        bytes = [UInt8](repeating: 0, count: size)
    }

    /// Feeds `input`; whole blocks go to `compress` directly from `input` when none is pending.
    mutating func absorb(_ input: UnsafeRawBufferPointer, _ compress: (UnsafeRawBufferPointer) -> Void) {
        var offset = 0
        let total = input.count
        if count > 0 {
            let take = min(size - count, total)
            for i in 0..<take { bytes[count + i] = input[i] }
            count += take
            offset = take
            if count < size { return }
            bytes.withUnsafeBytes { compress($0) }
            count = 0
        }
        while total - offset >= size {
            compress(UnsafeRawBufferPointer(rebasing: input[offset..<offset + size]))
            offset += size
        }
        for i in offset..<total { bytes[i - offset] = input[i] }
        count = total - offset
    }

    /// Appends the padding and the length, compressing the final one or two blocks.
    mutating func pad(bitLength: UInt64, _ compress: (UnsafeRawBufferPointer) -> Void) {
        bytes[count] = 0x80
        for i in (count + 1)..<size { bytes[i] = 0 }
        if count >= size - lengthSize {
            bytes.withUnsafeBytes { compress($0) }
            for i in 0..<size { bytes[i] = 0 }
        }
        for i in 0..<8 { bytes[size - 8 + i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * i)) }
        bytes.withUnsafeBytes { compress($0) }
        count = 0
    }
}
