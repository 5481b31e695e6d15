/// A 384-bit unsigned integer as six 64-bit limbs, least significant first: the representation
/// behind P-384 field and scalar arithmetic, kept in stored properties (no arrays) so that every
/// operation stays in registers, as `U256` does for P-256.
package struct U384: Equatable, Sendable {
    var l0: UInt64
    var l1: UInt64
    var l2: UInt64
    var l3: UInt64
    var l4: UInt64
    var l5: UInt64

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64, _ l5: UInt64) {
        (self.l0, self.l1, self.l2, self.l3, self.l4, self.l5) = (l0, l1, l2, l3, l4, l5)
    }

    static let zero = U384(0, 0, 0, 0, 0, 0)
    static let one = U384(1, 0, 0, 0, 0, 0)

    /// Reads up to 48 big-endian bytes (shorter input is left-padded with zeros); nil if longer.
    init?<C: Collection>(bigEndian bytes: C) where C.Element == UInt8 {
        guard bytes.count <= 48 else { return nil }
        var limbs = [UInt64](repeating: 0, count: 6)
        var index = bytes.count - 1
        for byte in bytes {
            limbs[index / 8] |= UInt64(byte) << UInt64(index % 8 * 8)
            index -= 1
        }
        self.init(limbs[0], limbs[1], limbs[2], limbs[3], limbs[4], limbs[5])
    }

    /// 48 big-endian bytes.
    var bigEndianBytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: 48)
        for (i, limb) in [l5, l4, l3, l2, l1, l0].enumerated() {
            for j in 0..<8 { out[i * 8 + j] = UInt8(truncatingIfNeeded: limb >> UInt64(56 - 8 * j)) }
        }
        return out
    }

    var limbs: [UInt64] { [l0, l1, l2, l3, l4, l5] }

    var isZero: Bool { (l0 | l1 | l2 | l3 | l4 | l5) == 0 }

    @inline(__always)
    func limb(_ i: Int) -> UInt64 {
        switch i {
        case 0: return l0
        case 1: return l1
        case 2: return l2
        case 3: return l3
        case 4: return l4
        default: return l5
        }
    }

    /// Bit `i` (0 = least significant).
    @inline(__always)
    func bit(_ i: Int) -> UInt64 { (limb(i >> 6) >> UInt64(i & 63)) & 1 }

    /// The 4-bit digit `i` (0 = least significant nibble).
    @inline(__always)
    func nibble(_ i: Int) -> Int { Int(truncatingIfNeeded: (limb(i >> 4) >> UInt64((i & 15) * 4)) & 0xF) }

    /// `self < other`, as plain integers.
    func lessThan(_ other: U384) -> Bool { subtracting(other).1 != 0 }

    /// `self + other` and the carry out.
    @inline(__always)
    func adding(_ o: U384) -> (U384, UInt64) {
        var c: UInt64 = 0
        let r0 = addCarrying(l0, o.l0, &c)
        let r1 = addCarrying(l1, o.l1, &c)
        let r2 = addCarrying(l2, o.l2, &c)
        let r3 = addCarrying(l3, o.l3, &c)
        let r4 = addCarrying(l4, o.l4, &c)
        let r5 = addCarrying(l5, o.l5, &c)
        return (U384(r0, r1, r2, r3, r4, r5), c)
    }

    /// `self - other` and the borrow out.
    @inline(__always)
    func subtracting(_ o: U384) -> (U384, UInt64) {
        var b: UInt64 = 0
        let r0 = subtractBorrowing(l0, o.l0, &b)
        let r1 = subtractBorrowing(l1, o.l1, &b)
        let r2 = subtractBorrowing(l2, o.l2, &b)
        let r3 = subtractBorrowing(l3, o.l3, &b)
        let r4 = subtractBorrowing(l4, o.l4, &b)
        let r5 = subtractBorrowing(l5, o.l5, &b)
        return (U384(r0, r1, r2, r3, r4, r5), b)
    }

    /// `self >> 1`, with `top` (0 or 1) shifted into the highest bit.
    @inline(__always)
    func halved(top: UInt64 = 0) -> U384 {
        U384(
            l0 >> 1 | l1 << 63, l1 >> 1 | l2 << 63, l2 >> 1 | l3 << 63, l3 >> 1 | l4 << 63, l4 >> 1 | l5 << 63,
            l5 >> 1 | top << 63)
    }

    /// `mask` all ones picks `a`, all zeros picks `b`.
    @inline(__always)
    static func select(_ mask: UInt64, _ a: U384, _ b: U384) -> U384 {
        U384(
            (a.l0 & mask) | (b.l0 & ~mask), (a.l1 & mask) | (b.l1 & ~mask), (a.l2 & mask) | (b.l2 & ~mask),
            (a.l3 & mask) | (b.l3 & ~mask), (a.l4 & mask) | (b.l4 & ~mask), (a.l5 & mask) | (b.l5 & ~mask))
    }

    /// The width-`w` non-adjacent form: digits in {0, +-1, +-3, ..., +-(2^(w-1) - 1)}, least
    /// significant first, at most one non-zero digit in any `w` consecutive ones (so about 385/(w+1)
    /// additions for a 384-bit scalar).
    func wNAF(width w: Int) -> [Int8] {
        var limbs = self.limbs + [0]
        var digits = [Int8](repeating: 0, count: 386)
        let window = UInt64(1) << UInt64(w)
        let half = Int(window >> 1)
        var i = 0
        while limbs.contains(where: { $0 != 0 }) {
            if limbs[0] & 1 == 1 {
                var d = Int(limbs[0] & (window - 1))
                if d >= half { d -= Int(window) }
                digits[i] = Int8(d)
                // Subtract d (adding -d when negative), which clears the low w bits.
                var carry = UInt64(d.magnitude)
                for j in 0..<limbs.count where carry != 0 {
                    if d > 0 {
                        let (v, o) = limbs[j].subtractingReportingOverflow(carry)
                        limbs[j] = v
                        carry = o ? 1 : 0
                    } else {
                        let (v, o) = limbs[j].addingReportingOverflow(carry)
                        limbs[j] = v
                        carry = o ? 1 : 0
                    }
                }
            }
            for j in 0..<(limbs.count - 1) { limbs[j] = limbs[j] >> 1 | limbs[j + 1] << 63 }
            limbs[limbs.count - 1] >>= 1
            i += 1
        }
        return digits
    }
}

/// `a + b + carry` with the carry (0 or 1) from the overflow flags. Unlike `adc`, the compiler may
/// branch on them: P-384 only ever sees public values (verification), and this form runs about a
/// quarter faster than the bit-operation carry.
@inline(__always)
func addCarrying(_ a: UInt64, _ b: UInt64, _ carry: inout UInt64) -> UInt64 {
    let (s1, o1) = a.addingReportingOverflow(b)
    let (s2, o2) = s1.addingReportingOverflow(carry)
    carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
    return s2
}

/// `a - b - borrow` with the borrow (0 or 1) from the overflow flags (variable time, like
/// `addCarrying`).
@inline(__always)
func subtractBorrowing(_ a: UInt64, _ b: UInt64, _ borrow: inout UInt64) -> UInt64 {
    let (d1, o1) = a.subtractingReportingOverflow(b)
    let (d2, o2) = d1.subtractingReportingOverflow(borrow)
    borrow = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
    return d2
}

/// `acc + x * y + carry`, the low word returned and the high word left in `carry` (variable time,
/// like `addCarrying`).
@inline(__always)
func multiplyAdding(_ acc: UInt64, _ x: UInt64, _ y: UInt64, _ carry: inout UInt64) -> UInt64 {
    let (hi, lo) = x.multipliedFullWidth(by: y)
    let (s1, o1) = lo.addingReportingOverflow(acc)
    let (s2, o2) = s1.addingReportingOverflow(carry)
    carry = hi &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
    return s2
}

/// Montgomery arithmetic modulo an odd 384-bit `m` with `n0 = -m^-1 mod 2^64`: CIOS
/// multiplication (a * b / 2^384 mod m, Koç, Acar and Kaliski 1996) and modular add and subtract.
/// Inputs must be below `m`; outputs are. Not constant time (see `addCarrying`): for public
/// values only.
enum Montgomery384 {
    /// a * b / 2^384 mod m, one word of b at a time: multiply, then clear the low word.
    @inline(__always)
    static func multiply(_ a: U384, _ b: U384, _ m: U384, _ n0: UInt64) -> U384 {
        var t0: UInt64 = 0
        var t1: UInt64 = 0
        var t2: UInt64 = 0
        var t3: UInt64 = 0
        var t4: UInt64 = 0
        var t5: UInt64 = 0
        var t6: UInt64 = 0
        for i in 0..<6 {
            let bi = b.limb(i)
            var c: UInt64 = 0
            t0 = multiplyAdding(t0, a.l0, bi, &c)
            t1 = multiplyAdding(t1, a.l1, bi, &c)
            t2 = multiplyAdding(t2, a.l2, bi, &c)
            t3 = multiplyAdding(t3, a.l3, bi, &c)
            t4 = multiplyAdding(t4, a.l4, bi, &c)
            t5 = multiplyAdding(t5, a.l5, bi, &c)
            var carry: UInt64 = 0
            t6 = addCarrying(t6, c, &carry)
            let t7 = carry
            let q = t0 &* n0
            c = 0
            _ = multiplyAdding(t0, q, m.l0, &c)
            t0 = multiplyAdding(t1, q, m.l1, &c)
            t1 = multiplyAdding(t2, q, m.l2, &c)
            t2 = multiplyAdding(t3, q, m.l3, &c)
            t3 = multiplyAdding(t4, q, m.l4, &c)
            t4 = multiplyAdding(t5, q, m.l5, &c)
            carry = 0
            t5 = addCarrying(t6, c, &carry)
            t6 = t7 &+ carry
        }
        return reduceOnce(U384(t0, t1, t2, t3, t4, t5), t6, m)
    }

    /// `value + 2^384 * high` (known below 2m) reduced below m.
    @inline(__always)
    static func reduceOnce(_ value: U384, _ high: UInt64, _ m: U384) -> U384 {
        let (d, borrow) = value.subtracting(m)
        let keep = 0 &- ((~high & borrow) & 1)
        return U384.select(keep, value, d)
    }

    @inline(__always)
    static func add(_ a: U384, _ b: U384, _ m: U384) -> U384 {
        let (s, carry) = a.adding(b)
        return reduceOnce(s, carry, m)
    }

    @inline(__always)
    static func subtract(_ a: U384, _ b: U384, _ m: U384) -> U384 {
        let (d, borrow) = a.subtracting(b)
        let mask = 0 &- borrow
        return d.adding(U384(m.l0 & mask, m.l1 & mask, m.l2 & mask, m.l3 & mask, m.l4 & mask, m.l5 & mask)).0
    }

    /// -m^-1 mod 2^64, by Newton's iteration (each step doubles the number of correct bits).
    static func n0(_ m: U384) -> UInt64 {
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- m.l0 &* inverse) }
        return 0 &- inverse
    }

    /// 2^384 mod m, the Montgomery form of 1 (m above 2^383, so one subtraction).
    static func rModulo(_ m: U384) -> U384 { U384.zero.subtracting(m).0 }

    /// 2^768 mod m, which moves values into Montgomery form: 384 doublings of 2^384 mod m.
    static func r2Modulo(_ m: U384) -> U384 {
        var x = rModulo(m)
        for _ in 0..<384 { x = add(x, x, m) }
        return x
    }

    /// x^e in Montgomery form, by a fixed 4-bit window (for inverses by Fermat and square roots).
    static func power(_ x: U384, _ e: U384, one: U384, _ m: U384, _ n0: UInt64) -> U384 {
        var table = [U384](repeating: one, count: 16)
        for i in 1..<16 { table[i] = multiply(table[i - 1], x, m, n0) }
        var result = one
        for i in stride(from: 95, through: 0, by: -1) {
            result = multiply(result, result, m, n0)
            result = multiply(result, result, m, n0)
            result = multiply(result, result, m, n0)
            result = multiply(result, result, m, n0)
            result = multiply(result, table[e.nibble(i)], m, n0)
        }
        return result
    }
}
