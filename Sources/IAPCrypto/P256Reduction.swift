/// Multiplication modulo the P-256 prime using its special form. Because p = -1 mod 2^64, the
/// Montgomery quotient digit is the low limb itself, and q * p needs one real multiplication
/// (by the top limb 0xFFFFFFFF00000001) instead of four: p's low limbs turn into shifts. With a
/// 10-multiplication squaring this is most of why signing runs at a useful fraction of openssl.
enum P256Reduction {
    /// The full 512-bit product as (low, high).
    @inline(__always)
    static func multiplyWide(_ a: U256, _ b: U256) -> (U256, U256) {
        var c: UInt64 = 0
        let r0 = mac(0, a.l0, b.l0, &c)
        var r1 = mac(0, a.l1, b.l0, &c)
        var r2 = mac(0, a.l2, b.l0, &c)
        var r3 = mac(0, a.l3, b.l0, &c)
        var r4 = c
        c = 0
        r1 = mac(r1, a.l0, b.l1, &c)
        r2 = mac(r2, a.l1, b.l1, &c)
        r3 = mac(r3, a.l2, b.l1, &c)
        r4 = mac(r4, a.l3, b.l1, &c)
        var r5 = c
        c = 0
        r2 = mac(r2, a.l0, b.l2, &c)
        r3 = mac(r3, a.l1, b.l2, &c)
        r4 = mac(r4, a.l2, b.l2, &c)
        r5 = mac(r5, a.l3, b.l2, &c)
        var r6 = c
        c = 0
        r3 = mac(r3, a.l0, b.l3, &c)
        r4 = mac(r4, a.l1, b.l3, &c)
        r5 = mac(r5, a.l2, b.l3, &c)
        r6 = mac(r6, a.l3, b.l3, &c)
        return (U256(r0, r1, r2, r3), U256(r4, r5, r6, c))
    }

    /// The full 512-bit square with the six cross products computed once and doubled.
    @inline(__always)
    static func squareWide(_ a: U256) -> (U256, U256) {
        var c: UInt64 = 0
        var r1 = mac(0, a.l0, a.l1, &c)
        var r2 = mac(0, a.l0, a.l2, &c)
        var r3 = mac(0, a.l0, a.l3, &c)
        var r4 = c
        c = 0
        r3 = mac(r3, a.l1, a.l2, &c)
        r4 = mac(r4, a.l1, a.l3, &c)
        var r5 = c
        c = 0
        r5 = mac(r5, a.l2, a.l3, &c)
        var r6 = c
        var r7 = r6 >> 63
        r6 = r6 << 1 | r5 >> 63
        r5 = r5 << 1 | r4 >> 63
        r4 = r4 << 1 | r3 >> 63
        r3 = r3 << 1 | r2 >> 63
        r2 = r2 << 1 | r1 >> 63
        r1 = r1 << 1
        let (h0, r0) = a.l0.multipliedFullWidth(by: a.l0)
        let (h1, d1) = a.l1.multipliedFullWidth(by: a.l1)
        let (h2, d2) = a.l2.multipliedFullWidth(by: a.l2)
        let (h3, d3) = a.l3.multipliedFullWidth(by: a.l3)
        c = 0
        r1 = adc(r1, h0, &c)
        r2 = adc(r2, d1, &c)
        r3 = adc(r3, h1, &c)
        r4 = adc(r4, d2, &c)
        r5 = adc(r5, h2, &c)
        r6 = adc(r6, d3, &c)
        r7 = adc(r7, h3, &c)
        return (U256(r0, r1, r2, r3), U256(r4, r5, r6, r7))
    }

    /// (low + 2^256 * high) / 2^256 mod p, for a product of two values below p.
    @inline(__always)
    static func reduce(_ low: U256, _ high: U256) -> U256 {
        var t = low
        reductionStep(&t)
        reductionStep(&t)
        reductionStep(&t)
        reductionStep(&t)
        let (sum, carry) = t.adding(high)
        return Montgomery.reduceOnce(sum, carry, P256FieldElement.p)
    }

    /// One Montgomery step: t = (t + q * p) / 2^64 with q = t.l0 (the result fits 256 bits).
    @inline(__always)
    static func reductionStep(_ t: inout U256) {
        let q = t.l0
        let (hi, lo) = q.multipliedFullWidth(by: 0xFFFF_FFFF_0000_0001)
        var c: UInt64 = 0
        let n0 = adc(t.l1, q << 32, &c)
        let n1 = adc(t.l2, q >> 32, &c)
        let n2 = adc(t.l3, lo, &c)
        t = U256(n0, n1, n2, hi &+ c)
    }

    @inline(__always)
    static func multiply(_ a: U256, _ b: U256) -> U256 {
        let (low, high) = multiplyWide(a, b)
        return reduce(low, high)
    }

    @inline(__always)
    static func square(_ a: U256) -> U256 {
        let (low, high) = squareWide(a)
        return reduce(low, high)
    }
}
