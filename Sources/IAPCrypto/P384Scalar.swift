/// An integer modulo the P-384 group order n, in Montgomery form: the r, s, u1 and u2 values of
/// ECDSA verification. Only public values pass through here (iapctl never signs with P-384), so
/// nothing needs to run in constant time.
package struct P384Scalar: Equatable, Sendable {
    var m: U384

    @inline(__always)
    init(montgomery: U384) { m = montgomery }

    /// n = 2^384 - 0x389cb27e0bc8d220a7e5f24db74f58851313e695333ad68d (FIPS 186-4 section D.1.2.4).
    static var n: U384 {
        @inline(__always) get {
            U384(
                0xECEC_196A_CCC5_2973, 0x581A_0DB2_48B0_A77A, 0xC763_4D81_F437_2DDF, 0xFFFF_FFFF_FFFF_FFFF,
                0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF)
        }
    }
    static let n0 = Montgomery384.n0(n)
    static let r2 = Montgomery384.r2Modulo(n)
    static let one = P384Scalar(montgomery: Montgomery384.rModulo(n))

    /// From a plain integer below n; nil otherwise.
    init?(_ value: U384) {
        guard value.lessThan(Self.n) else { return nil }
        m = Montgomery384.multiply(value, Self.r2, Self.n, Self.n0)
    }

    /// From any 384-bit integer, reduced modulo n (a digest used as e): n > 2^383, so one
    /// conditional subtraction is enough.
    init(reducing value: U384) {
        let (d, borrow) = value.subtracting(Self.n)
        m = Montgomery384.multiply(U384.select(0 &- borrow, value, d), Self.r2, Self.n, Self.n0)
    }

    var value: U384 { Montgomery384.multiply(m, .one, Self.n, Self.n0) }

    var isZero: Bool { m.isZero }

    @inline(__always)
    static func * (a: P384Scalar, b: P384Scalar) -> P384Scalar {
        P384Scalar(montgomery: Montgomery384.multiply(a.m, b.m, n, n0))
    }

    /// 1/x by the binary extended Euclidean algorithm, several times faster than Fermat's x^(n-2);
    /// its running time depends on x, which is public here (the signature's s). 0 for 0.
    var inverse: P384Scalar {
        let a = value
        if a.isZero { return self }
        let n = Self.n
        let one = U384.one
        var u = a
        var v = n
        var x1 = one
        var x2 = U384.zero
        // x / 2 mod n: add n first when x is odd (n is odd), keeping the carry as the top bit.
        @inline(__always) func halve(_ x: inout U384) {
            if x.l0 & 1 == 1 {
                let (sum, carry) = x.adding(n)
                x = sum.halved(top: carry)
            } else {
                x = x.halved()
            }
        }
        while u != one && v != one {
            while u.l0 & 1 == 0 {
                u = u.halved()
                halve(&x1)
            }
            while v.l0 & 1 == 0 {
                v = v.halved()
                halve(&x2)
            }
            if !u.lessThan(v) {
                u = u.subtracting(v).0
                x1 = Montgomery384.subtract(x1, x2, n)
            } else {
                v = v.subtracting(u).0
                x2 = Montgomery384.subtract(x2, x1, n)
            }
        }
        return P384Scalar(u == one ? x1 : x2)!
    }

    /// 1/x by Fermat (x^(n-2)): the reference `inverse` is checked against.
    var inverseByFermat: P384Scalar {
        P384Scalar(
            montgomery: Montgomery384.power(m, Self.n.subtracting(U384(2, 0, 0, 0, 0, 0)).0, one: Self.one.m, Self.n, Self.n0))
    }
}
