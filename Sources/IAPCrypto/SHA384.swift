/// SHA-384 (FIPS 180-4 sections 5.3.4 and 6.5): SHA-512 from other initial values, cut to 48
/// bytes. Apple's App Store chain signs with it: Apple Root CA - G3 signs the WWDR G6
/// intermediate, and G6 signs each leaf, with ecdsa-with-SHA384.
public struct SHA384: HashFunction {
    public static let byteCount = 48
    public static let blockByteCount = 128

    private var state = SHA512State(
        (
            0xcbbb_9d5d_c105_9ed8, 0x629a_292a_367c_d507, 0x9159_015a_3070_dd17, 0x152f_ecd8_f70e_5939,
            0x6733_2667_ffc0_0b31, 0x8eb4_4a87_6858_1511, 0xdb0c_2e0d_64f9_8fa7, 0x47b5_481d_befa_4fa4
        ))

    public init() {}

    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 { state.update(bytes) }

    public mutating func finalize() -> [UInt8] { state.finalize(count: 48) }
}
