/// An integer modulo the P-256 group order n, in Montgomery form: private keys, nonces and the
/// r, s, u1, u2 values of ECDSA.
package struct P256Scalar: Equatable, Sendable {
    var m: U256

    @inline(__always)
    init(montgomery: U256) { m = montgomery }

    static var n: U256 {
        @inline(__always) get {
            U256(0xF3B9_CAC2_FC63_2551, 0xBCE6_FAAD_A717_9E84, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000)
        }
    }
    /// -n^-1 mod 2^64.
    static let n0: UInt64 = 0xCCD1_C8AA_EE00_BC4F
    static let r2 = Montgomery.r2Modulo(n)
    static let one = P256Scalar(montgomery: Montgomery.rModulo(n))

    /// From a plain integer below n; nil otherwise.
    init?(_ value: U256) {
        guard value.lessThan(Self.n) else { return nil }
        m = Montgomery.multiply(value, Self.r2, Self.n, Self.n0)
    }

    /// From any 256-bit integer, reduced modulo n (a hash used as e, or an x coordinate as r).
    init(reducing value: U256) {
        let (d, borrow) = value.subtracting(Self.n)
        let reduced = U256.select(0 &- borrow, value, d)
        m = Montgomery.multiply(reduced, Self.r2, Self.n, Self.n0)
    }

    var value: U256 { Montgomery.multiply(m, U256(1, 0, 0, 0), Self.n, Self.n0) }

    var isZero: Bool { m.isZero }

    @inline(__always)
    static func * (a: P256Scalar, b: P256Scalar) -> P256Scalar {
        P256Scalar(montgomery: Montgomery.multiply(a.m, b.m, n, n0))
    }

    @inline(__always)
    static func + (a: P256Scalar, b: P256Scalar) -> P256Scalar {
        P256Scalar(montgomery: Montgomery.add(a.m, b.m, n))
    }

    /// 1/x by Fermat (x^(n-2)) with a fixed 4-bit window: the same work for every x.
    var inverse: P256Scalar {
        var table = [P256Scalar](repeating: .one, count: 16)
        for i in 1..<16 { table[i] = table[i - 1] * self }
        let exponent = Self.n.subtracting(U256(2, 0, 0, 0)).0
        var result = P256Scalar.one
        for i in stride(from: 63, through: 0, by: -1) {
            result = result * result
            result = result * result
            result = result * result
            result = result * result
            result = result * table[exponent.nibble(i)]
        }
        return result
    }

    /// 1/x by the binary extended Euclidean algorithm: several times faster than `inverse` but
    /// its running time depends on x, so it only sees public values (verification) or values
    /// blinded by a secret factor (signing). Returns 0 for 0.
    var inverseVariableTime: P256Scalar {
        let a = value
        if a.isZero { return self }
        let n = Self.n
        var u = a
        var v = n
        var x1 = U256(1, 0, 0, 0)
        var x2 = U256.zero
        let one = U256(1, 0, 0, 0)
        @inline(__always) func halve(_ x: inout U256) {
            var carry: UInt64 = 0
            if x.l0 & 1 == 1 { (x, carry) = x.adding(n) }
            x = U256(x.l0 >> 1 | x.l1 << 63, x.l1 >> 1 | x.l2 << 63, x.l2 >> 1 | x.l3 << 63, x.l3 >> 1 | carry << 63)
        }
        @inline(__always) func shift(_ x: inout U256) {
            x = U256(x.l0 >> 1 | x.l1 << 63, x.l1 >> 1 | x.l2 << 63, x.l2 >> 1 | x.l3 << 63, x.l3 >> 1)
        }
        while u != one && v != one {
            while u.l0 & 1 == 0 {
                shift(&u)
                halve(&x1)
            }
            while v.l0 & 1 == 0 {
                shift(&v)
                halve(&x2)
            }
            if !u.lessThan(v) {
                u = u.subtracting(v).0
                x1 = Montgomery.subtract(x1, x2, n)
            } else {
                v = v.subtracting(u).0
                x2 = Montgomery.subtract(x2, x1, n)
            }
        }
        return P256Scalar(u == one ? x1 : x2)!
    }
}
