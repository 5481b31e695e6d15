/// A 256-bit unsigned integer as four 64-bit limbs, least significant first: the representation
/// behind P-256 field and scalar arithmetic. Fixed limbs (no arrays) keep every operation in
/// registers, which is what makes ECDSA fast enough without assembly.
package struct U256: Equatable, Sendable {
    var l0: UInt64
    var l1: UInt64
    var l2: UInt64
    var l3: UInt64

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64) {
        (self.l0, self.l1, self.l2, self.l3) = (l0, l1, l2, l3)
    }

    static let zero = U256(0, 0, 0, 0)

    /// Reads 32 big-endian bytes (shorter input is left-padded with zeros); nil if longer.
    init?<C: Collection>(bigEndian bytes: C) where C.Element == UInt8 {
        guard bytes.count <= 32 else { return nil }
        var limbs: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var index = bytes.count - 1
        for byte in bytes {
            let limb = index / 8
            let shift = UInt64(index % 8) * 8
            switch limb {
            case 0: limbs.0 |= UInt64(byte) << shift
            case 1: limbs.1 |= UInt64(byte) << shift
            case 2: limbs.2 |= UInt64(byte) << shift
            default: limbs.3 |= UInt64(byte) << shift
            }
            index -= 1
        }
        self.init(limbs.0, limbs.1, limbs.2, limbs.3)
    }

    /// 32 big-endian bytes.
    var bigEndianBytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        for (i, limb) in [l3, l2, l1, l0].enumerated() {
            for j in 0..<8 { out[i * 8 + j] = UInt8(truncatingIfNeeded: limb >> UInt64(56 - 8 * j)) }
        }
        return out
    }

    var isZero: Bool { (l0 | l1 | l2 | l3) == 0 }

    /// Bit `i` (0 = least significant).
    @inline(__always)
    func bit(_ i: Int) -> UInt64 {
        let limb: UInt64
        switch i >> 6 {
        case 0: limb = l0
        case 1: limb = l1
        case 2: limb = l2
        default: limb = l3
        }
        return (limb >> UInt64(i & 63)) & 1
    }

    /// The 4-bit digit `i` (0 = least significant nibble).
    @inline(__always)
    func nibble(_ i: Int) -> Int { Int(truncatingIfNeeded: (limb(i >> 4) >> UInt64((i & 15) * 4)) & 0xF) }

    @inline(__always)
    func limb(_ i: Int) -> UInt64 {
        switch i {
        case 0: return l0
        case 1: return l1
        case 2: return l2
        default: return l3
        }
    }

    /// `self < other`, as plain integers.
    func lessThan(_ other: U256) -> Bool {
        var borrow: UInt64 = 0
        _ = sbb(l0, other.l0, &borrow)
        _ = sbb(l1, other.l1, &borrow)
        _ = sbb(l2, other.l2, &borrow)
        _ = sbb(l3, other.l3, &borrow)
        return borrow != 0
    }

    /// `self + other` and the carry out.
    @inline(__always)
    func adding(_ other: U256) -> (U256, UInt64) {
        var carry: UInt64 = 0
        let r0 = adc(l0, other.l0, &carry)
        let r1 = adc(l1, other.l1, &carry)
        let r2 = adc(l2, other.l2, &carry)
        let r3 = adc(l3, other.l3, &carry)
        return (U256(r0, r1, r2, r3), carry)
    }

    /// `self - other` and the borrow out.
    @inline(__always)
    func subtracting(_ other: U256) -> (U256, UInt64) {
        var borrow: UInt64 = 0
        let r0 = sbb(l0, other.l0, &borrow)
        let r1 = sbb(l1, other.l1, &borrow)
        let r2 = sbb(l2, other.l2, &borrow)
        let r3 = sbb(l3, other.l3, &borrow)
        return (U256(r0, r1, r2, r3), borrow)
    }

    /// `mask` all ones picks `a`, all zeros picks `b`, without a branch.
    @inline(__always)
    static func select(_ mask: UInt64, _ a: U256, _ b: U256) -> U256 {
        U256(
            (a.l0 & mask) | (b.l0 & ~mask), (a.l1 & mask) | (b.l1 & ~mask), (a.l2 & mask) | (b.l2 & ~mask),
            (a.l3 & mask) | (b.l3 & ~mask))
    }
}

/// `a + b + carry`, updating `carry` (0 or 1). The carry is computed with bit operations (the
/// majority of the operands' top bits and the sum's complement) rather than from overflow flags,
/// which the optimizer was turning into branches: slower, and timing that depends on the data.
@inline(__always)
func adc(_ a: UInt64, _ b: UInt64, _ carry: inout UInt64) -> UInt64 {
    let sum = a &+ b &+ carry
    carry = ((a & b) | ((a | b) & ~sum)) >> 63
    return sum
}

/// `a - b - borrow`, updating `borrow` (0 or 1), branch-free like `adc`.
@inline(__always)
func sbb(_ a: UInt64, _ b: UInt64, _ borrow: inout UInt64) -> UInt64 {
    let difference = a &- b &- borrow
    borrow = ((~a & b) | (~(a ^ b) & difference)) >> 63
    return difference
}

/// `acc + x * y + carry`, returning the low word and leaving the high word in `carry`.
@inline(__always)
func mac(_ acc: UInt64, _ x: UInt64, _ y: UInt64, _ carry: inout UInt64) -> UInt64 {
    let (hi, lo) = x.multipliedFullWidth(by: y)
    var c: UInt64 = 0
    let s1 = adc(lo, acc, &c)
    var c2: UInt64 = 0
    let s2 = adc(s1, carry, &c2)
    carry = hi &+ c &+ c2
    return s2
}

/// Montgomery arithmetic modulo an odd 256-bit `m` with `n0 = -m^-1 mod 2^64`: CIOS
/// multiplication (a * b / 2^256 mod m) and branch-free modular add and subtract. Inputs must be
/// below `m`; outputs are.
enum Montgomery {
    /// a * b / 2^256 mod m: the full product, then four word-by-word reduction steps.
    @inline(__always)
    static func multiply(_ a: U256, _ b: U256, _ m: U256, _ n0: UInt64) -> U256 {
        let (low, high) = P256Reduction.multiplyWide(a, b)
        return reduce(low, high, m, n0)
    }

    /// (low + 2^256 * high) / 2^256 mod m, for a value below m * 2^256.
    @inline(__always)
    static func reduce(_ low: U256, _ high: U256, _ m: U256, _ n0: UInt64) -> U256 {
        var t = low
        var extra: UInt64 = 0
        step(&t, &extra, m, n0)
        step(&t, &extra, m, n0)
        step(&t, &extra, m, n0)
        step(&t, &extra, m, n0)
        // After four steps the value is below m + 1, so `extra` is 0 and t + high < 2m.
        let (sum, carry) = t.adding(high)
        return reduceOnce(sum, carry, m)
    }

    /// t = (t + q * m) / 2^64 with q chosen to clear the low limb; `extra` holds the bit that
    /// overflows 256 bits, carried into the next step's top limb.
    @inline(__always)
    private static func step(_ t: inout U256, _ extra: inout UInt64, _ m: U256, _ n0: UInt64) {
        let q = t.l0 &* n0
        var c: UInt64 = 0
        _ = mac(t.l0, q, m.l0, &c)
        let r0 = mac(t.l1, q, m.l1, &c)
        let r1 = mac(t.l2, q, m.l2, &c)
        let r2 = mac(t.l3, q, m.l3, &c)
        var carry: UInt64 = 0
        let r3 = adc(c, extra, &carry)
        t = U256(r0, r1, r2, r3)
        extra = carry
    }

    /// `value + 2^256 * high` (known below 2m) reduced below m.
    @inline(__always)
    static func reduceOnce(_ value: U256, _ high: UInt64, _ m: U256) -> U256 {
        let (d, borrow) = value.subtracting(m)
        // Keep `value` only when it was already below m: no high word and a borrow.
        let keep = 0 &- ((~high & borrow) & 1)
        return U256.select(keep, value, d)
    }

    @inline(__always)
    static func add(_ a: U256, _ b: U256, _ m: U256) -> U256 {
        let (s, carry) = a.adding(b)
        return reduceOnce(s, carry, m)
    }

    @inline(__always)
    static func subtract(_ a: U256, _ b: U256, _ m: U256) -> U256 {
        let (d, borrow) = a.subtracting(b)
        let mask = 0 &- borrow
        let (fixed, _) = d.adding(U256(m.l0 & mask, m.l1 & mask, m.l2 & mask, m.l3 & mask))
        return fixed
    }

    /// 2^256 mod m, the Montgomery form of 1.
    static func rModulo(_ m: U256) -> U256 { U256.zero.subtracting(m).0 }

    /// 2^512 mod m, used to move values into Montgomery form; computed by 256 doublings of 2^256 mod m.
    static func r2Modulo(_ m: U256) -> U256 {
        var x = rModulo(m)
        for _ in 0..<256 { x = add(x, x, m) }
        return x
    }
}
