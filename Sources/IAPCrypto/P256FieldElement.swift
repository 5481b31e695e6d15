/// An element of GF(p) for the P-256 prime p = 2^256 - 2^224 + 2^192 + 2^96 - 1, kept in
/// Montgomery form (x * 2^256 mod p) so that multiplication needs no division. p is -1 modulo
/// 2^64, which makes the Montgomery constant 1.
package struct P256FieldElement: Equatable, Sendable {
    /// The Montgomery representation.
    var m: U256

    @inline(__always)
    init(montgomery: U256) { m = montgomery }

    static var p: U256 {
        @inline(__always) get { U256(0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0, 0xFFFF_FFFF_0000_0001) }
    }
    static let r2 = Montgomery.r2Modulo(p)
    static let zero = P256FieldElement(montgomery: .zero)
    static let one = P256FieldElement(montgomery: Montgomery.rModulo(p))
    static let b = P256FieldElement(
        U256(0x3BCE_3C3E_27D2_604B, 0x651D_06B0_CC53_B0F6, 0xB3EB_BD55_7698_86BC, 0x5AC6_35D8_AA3A_93E7))!

    /// From a plain integer; nil unless it is below p.
    init?(_ value: U256) {
        guard value.lessThan(Self.p) else { return nil }
        m = Montgomery.multiply(value, Self.r2, Self.p, 1)
    }

    /// From 32 big-endian bytes; nil unless below p.
    init?(bigEndian bytes: some Collection<UInt8>) {
        guard bytes.count == 32, let value = U256(bigEndian: bytes) else { return nil }
        self.init(value)
    }

    /// The plain integer.
    var value: U256 { Montgomery.multiply(m, U256(1, 0, 0, 0), Self.p, 1) }

    var bigEndianBytes: [UInt8] { value.bigEndianBytes }

    var isZero: Bool { m.isZero }

    @inline(__always)
    static func * (a: P256FieldElement, b: P256FieldElement) -> P256FieldElement {
        P256FieldElement(montgomery: P256Reduction.multiply(a.m, b.m))
    }

    @inline(__always)
    static func + (a: P256FieldElement, b: P256FieldElement) -> P256FieldElement {
        P256FieldElement(montgomery: Montgomery.add(a.m, b.m, p))
    }

    @inline(__always)
    static func - (a: P256FieldElement, b: P256FieldElement) -> P256FieldElement {
        P256FieldElement(montgomery: Montgomery.subtract(a.m, b.m, p))
    }

    @inline(__always)
    var squared: P256FieldElement { P256FieldElement(montgomery: P256Reduction.square(m)) }

    @inline(__always)
    var doubled: P256FieldElement { self + self }

    @inline(__always)
    func squared(times n: Int) -> P256FieldElement {
        var x = self
        for _ in 0..<n { x = x.squared }
        return x
    }

    /// `mask` all ones picks `a`, all zeros `b`.
    @inline(__always)
    static func select(_ mask: UInt64, _ a: P256FieldElement, _ b: P256FieldElement) -> P256FieldElement {
        P256FieldElement(montgomery: U256.select(mask, a.m, b.m))
    }

    /// x^(p-2) = 1/x (0 for 0), by the 12-multiplication, 255-squaring addition chain that
    /// mmcloughlin/addchain finds for p - 2. Constant time.
    var inverse: P256FieldElement {
        let x = self
        let x2 = x.squared * x  // _11
        let x3 = x2.squared * x  // _111
        let x6 = x3.squared(times: 3) * x3  // _111111
        let x12 = x6.squared(times: 6) * x6
        let x15 = x12.squared(times: 3) * x3
        let x16 = x15.squared * x
        let x32 = x16.squared(times: 16) * x16
        let i53 = x32.squared(times: 15)
        let x47 = x15 * i53
        let i263 = ((i53.squared(times: 17) * x).squared(times: 143) * x47).squared(times: 47)
        return (x47 * i263).squared(times: 2) * x
    }

    /// A square root (x^((p+1)/4), as p = 3 mod 4), or nil when x is not a square.
    var squareRoot: P256FieldElement? {
        // (p + 1) / 4 = 2^254 - 2^222 + 2^190 + 2^94: square-and-multiply over its bits.
        var result = P256FieldElement.one
        let e = U256(0, 0x0000_0000_4000_0000, 0x4000_0000_0000_0000, 0x3FFF_FFFF_C000_0000)
        for i in stride(from: 255, through: 0, by: -1) {
            result = result.squared
            if e.bit(i) == 1 { result = result * self }
        }
        return result.squared == self ? result : nil
    }
}
