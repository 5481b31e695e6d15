/// SHA-1 (FIPS 180-4). Broken for collision resistance, but app receipts still use it: attribute 5
/// is SHA-1(device id || opaque value || bundle id), and old Apple certificates are signed with
/// sha1WithRSAEncryption, so a faithful simulator has to compute it.
public struct SHA1: HashFunction {
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The digest length in bytes.
    public static let byteCount = 20
    /// The block length in bytes.
    public static let blockByteCount = 64

    private var state: State = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    private var block = HashBlock()
    private var length: UInt64 = 0

    public init() {}

    /// Feeds more message bytes; may be called any number of times before `finalize()`.
    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        length &+= UInt64(bytes.count)
        var s = state
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            block.absorb(UnsafeRawBufferPointer(buffer)) { Self.compress(&s, $0) }
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { raw in block.absorb(raw) { Self.compress(&s, $0) } }
        }
        state = s
    }

    /// Pads the message and returns the digest. The hasher must not be used afterwards.
    public mutating func finalize() -> [UInt8] {
        var s = state
        block.pad(bitLength: length &* 8) { Self.compress(&s, $0) }
        state = s
        var digest = [UInt8](repeating: 0, count: 20)
        for (i, word) in [s.0, s.1, s.2, s.3, s.4].enumerated() {
            digest[i * 4] = UInt8(truncatingIfNeeded: word >> 24)
            digest[i * 4 + 1] = UInt8(truncatingIfNeeded: word >> 16)
            digest[i * 4 + 2] = UInt8(truncatingIfNeeded: word >> 8)
            digest[i * 4 + 3] = UInt8(truncatingIfNeeded: word)
        }
        return digest
    }

    @inline(__always)
    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }

    private static func compress(_ state: inout State, _ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for i in 0..<16 {
                w[i] =
                    UInt32(block[i &* 4]) << 24 | UInt32(block[i &* 4 &+ 1]) << 16
                    | UInt32(block[i &* 4 &+ 2]) << 8 | UInt32(block[i &* 4 &+ 3])
            }
            for i in 16..<80 {
                w[i] = rotl(w[i &- 3] ^ w[i &- 8] ^ w[i &- 14] ^ w[i &- 16], 1)
            }
            var (a, b, c, d, e) = state
            for i in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch i {
                case 0..<20:
                    f = (b & c) | (~b & d)
                    k = 0x5A82_7999
                case 20..<40:
                    f = b ^ c ^ d
                    k = 0x6ED9_EBA1
                case 40..<60:
                    f = (b & c) | (b & d) | (c & d)
                    k = 0x8F1B_BCDC
                default:
                    f = b ^ c ^ d
                    k = 0xCA62_C1D6
                }
                let t = rotl(a, 5) &+ f &+ e &+ k &+ w[i]
                e = d
                d = c
                c = rotl(b, 30)
                b = a
                a = t
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }
}
