/// An element of GF(p) for the P-384 prime p = 2^384 - 2^128 - 2^96 + 2^32 - 1 (FIPS 186-4
/// section D.1.2.4), kept in Montgomery form (x * 2^384 mod p). p's low word is 2^32 - 1, so the
/// Montgomery constant -p^-1 mod 2^64 is 2^32 + 1.
package struct P384FieldElement: Equatable, Sendable {
    var m: U384

    @inline(__always)
    init(montgomery: U384) { m = montgomery }

    static let p = U384(
        0x0000_0000_FFFF_FFFF, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFE, 0xFFFF_FFFF_FFFF_FFFF,
        0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF)
    static let n0: UInt64 = 0x0000_0001_0000_0001
    static let r2 = Montgomery384.r2Modulo(p)
    static let zero = P384FieldElement(montgomery: .zero)
    static let one = P384FieldElement(montgomery: Montgomery384.rModulo(p))
    static let b = P384FieldElement(
        U384(
            0x2A85_C8ED_D3EC_2AEF, 0xC656_398D_8A2E_D19D, 0x0314_088F_5013_875A, 0x181D_9C6E_FE81_4112,
            0x988E_056B_E3F8_2D19, 0xB331_2FA7_E23E_E7E4))!

    /// From a plain integer; nil unless it is below p.
    init?(_ value: U384) {
        guard value.lessThan(Self.p) else { return nil }
        m = Montgomery384.multiply(value, Self.r2, Self.p, Self.n0)
    }

    /// From 48 big-endian bytes; nil unless below p.
    init?(bigEndian bytes: some Collection<UInt8>) {
        guard bytes.count == 48, let value = U384(bigEndian: bytes) else { return nil }
        self.init(value)
    }

    /// The plain integer.
    var value: U384 { Montgomery384.multiply(m, .one, Self.p, Self.n0) }

    var bigEndianBytes: [UInt8] { value.bigEndianBytes }

    var isZero: Bool { m.isZero }

    @inline(__always)
    static func * (a: P384FieldElement, b: P384FieldElement) -> P384FieldElement {
        P384FieldElement(montgomery: Montgomery384.multiply(a.m, b.m, p, n0))
    }

    @inline(__always)
    static func + (a: P384FieldElement, b: P384FieldElement) -> P384FieldElement {
        P384FieldElement(montgomery: Montgomery384.add(a.m, b.m, p))
    }

    @inline(__always)
    static func - (a: P384FieldElement, b: P384FieldElement) -> P384FieldElement {
        P384FieldElement(montgomery: Montgomery384.subtract(a.m, b.m, p))
    }

    @inline(__always)
    var squared: P384FieldElement { self * self }

    @inline(__always)
    var doubled: P384FieldElement { self + self }

    /// x^(p-2) = 1/x (0 for 0), by Fermat's little theorem.
    var inverse: P384FieldElement {
        P384FieldElement(
            montgomery: Montgomery384.power(m, Self.p.subtracting(U384(2, 0, 0, 0, 0, 0)).0, one: Self.one.m, Self.p, Self.n0))
    }

    /// A square root (x^((p+1)/4), as p = 3 mod 4), or nil when x is not a square.
    var squareRoot: P384FieldElement? {
        let (pPlus1, _) = Self.p.adding(.one)
        let e = U384(
            pPlus1.l0 >> 2 | pPlus1.l1 << 62, pPlus1.l1 >> 2 | pPlus1.l2 << 62, pPlus1.l2 >> 2 | pPlus1.l3 << 62,
            pPlus1.l3 >> 2 | pPlus1.l4 << 62, pPlus1.l4 >> 2 | pPlus1.l5 << 62, pPlus1.l5 >> 2)
        let root = P384FieldElement(montgomery: Montgomery384.power(m, e, one: Self.one.m, Self.p, Self.n0))
        return root.squared == self ? root : nil
    }
}
