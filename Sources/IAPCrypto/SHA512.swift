/// SHA-512 (FIPS 180-4 section 6.4). Apple's chains do not use it, but sha512WithRSAEncryption
/// certificates and ES512-sized digests exist, and it is the core SHA-384 is built on.
public struct SHA512: HashFunction {
    public static let byteCount = 64
    public static let blockByteCount = 128

    private var state = SHA512State(
        (
            0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
            0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179
        ))

    public init() {}

    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 { state.update(bytes) }

    public mutating func finalize() -> [UInt8] { state.finalize(count: 64) }
}
