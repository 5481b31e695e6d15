/// An affine P-384 point (never infinity).
struct P384Affine: Equatable, Sendable {
    var x: P384FieldElement
    var y: P384FieldElement

    /// Whether (x, y) satisfies y^2 = x^3 - 3x + b.
    var isOnCurve: Bool {
        let rhs = x.squared * x - x.doubled - x + P384FieldElement.b
        return y.squared == rhs
    }

    var negated: P384Affine { P384Affine(x: x, y: P384FieldElement.zero - y) }
}

/// P-384 group arithmetic: y^2 = x^3 - 3x + b over GF(p), points in Jacobian coordinates
/// (x = X/Z^2, y = Y/Z^3, infinity when Z = 0), with the same formulas as `P256Point` (from the
/// Explicit-Formulas Database, a = -3). Verification only: u1 * G + u2 * Q by interleaved wNAF,
/// width 7 over a table of G's odd multiples computed once, width 5 over Q's.
package struct P384Point: Sendable {
    var x: P384FieldElement
    var y: P384FieldElement
    var z: P384FieldElement

    typealias F = P384FieldElement

    static let infinity = P384Point(x: .one, y: .one, z: .zero)

    static let generator = P384Affine(
        x: F(
            U384(
                bigEndian: Hex.decode(
                    "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7")!)!)!,
        y: F(
            U384(
                bigEndian: Hex.decode(
                    "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f")!)!)!)

    init(x: F, y: F, z: F) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ affine: P384Affine) { self.init(x: affine.x, y: affine.y, z: .one) }

    var isInfinity: Bool { z.isZero }

    /// The affine point (one field inversion), or nil at infinity.
    var affine: P384Affine? {
        guard !isInfinity else { return nil }
        let zInverse = z.inverse
        let zInverse2 = zInverse.squared
        return P384Affine(x: x * zInverse2, y: y * zInverse2 * zInverse)
    }

    /// 2P by dbl-2001-b (a = -3): 3M + 5S. Doubling infinity gives infinity (Z stays 0).
    @inline(__always)
    func doubled() -> P384Point {
        let delta = z.squared
        let gamma = y.squared
        let beta = x * gamma
        let t = (x - delta) * (x + delta)
        let alpha = t.doubled + t
        let beta4 = beta.doubled.doubled
        let x3 = alpha.squared - beta4.doubled
        let z3 = (y + z).squared - gamma - delta
        let gamma2 = gamma.squared.doubled
        let y3 = alpha * (beta4 - x3) - gamma2.doubled.doubled
        return P384Point(x: x3, y: y3, z: z3)
    }

    /// P + Q with Q affine, by madd-2007-bl (7M + 4S), handling infinity, P = Q and P = -Q.
    func adding(_ q: P384Affine) -> P384Point {
        if isInfinity { return P384Point(q) }
        let z1z1 = z.squared
        let u2 = q.x * z1z1
        let s2 = q.y * z * z1z1
        if u2 == x { return s2 == y ? doubled() : .infinity }
        let h = u2 - x
        let hh = h.squared
        let i = hh.doubled.doubled
        let j = h * i
        let r = (s2 - y).doubled
        let v = x * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (y * j).doubled
        let z3 = (z + h).squared - z1z1 - hh
        return P384Point(x: x3, y: y3, z: z3)
    }

    /// P + Q, both Jacobian, by add-2007-bl (11M + 5S), handling every case.
    func adding(_ q: P384Point) -> P384Point {
        if isInfinity { return q }
        if q.isInfinity { return self }
        let z1z1 = z.squared
        let z2z2 = q.z.squared
        let u1 = x * z2z2
        let u2 = q.x * z1z1
        let s1 = y * q.z * z2z2
        let s2 = q.y * z * z1z1
        if u1 == u2 { return s1 == s2 ? doubled() : .infinity }
        let h = u2 - u1
        let i = h.doubled.squared
        let j = h * i
        let r = (s2 - s1).doubled
        let v = u1 * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (s1 * j).doubled
        let z3 = ((z + q.z).squared - z1z1 - z2z2) * h
        return P384Point(x: x3, y: y3, z: z3)
    }

    /// Converts many points with one inversion (Montgomery's trick); none may be infinity.
    static func batchAffine(_ points: [P384Point]) -> [P384Affine] {
        var prefix = [F](repeating: .one, count: points.count)
        var running = F.one
        for (i, p) in points.enumerated() {
            prefix[i] = running
            running = running * p.z
        }
        var inverse = running.inverse
        var out = [P384Affine](repeating: P384Affine(x: .zero, y: .zero), count: points.count)
        for i in stride(from: points.count - 1, through: 0, by: -1) {
            let zInverse = inverse * prefix[i]
            inverse = inverse * points[i].z
            let zInverse2 = zInverse.squared
            out[i] = P384Affine(x: points[i].x * zInverse2, y: points[i].y * zInverse2 * zInverse)
        }
        return out
    }

    /// The odd multiples P, 3P, 5P, ..., (2^(w-1) - 1)P that a width-w wNAF adds.
    static func oddMultiples(of p: P384Affine, width w: Int) -> [P384Point] {
        let base = P384Point(p)
        let twice = base.doubled()
        var odd = [base]
        for _ in 1..<(1 << (w - 2)) { odd.append(odd[odd.count - 1].adding(twice)) }
        return odd
    }

    /// G, 3G, ..., 63G in affine form, for u1's width-7 wNAF.
    static let generatorOddMultiples: [P384Affine] = batchAffine(oddMultiples(of: generator, width: 7))

    /// u1 * G + u2 * Q, the ECDSA verification combination (variable time: public inputs only).
    static func verificationCombination(u1: U384, u2: U384, q: P384Affine) -> P384Point {
        let qTable = batchAffine(oddMultiples(of: q, width: 5))
        let gTable = generatorOddMultiples
        let d1 = u1.wNAF(width: 7)
        let d2 = u2.wNAF(width: 5)
        var top = d1.count - 1
        while top > 0 && d1[top] == 0 && d2[top] == 0 { top -= 1 }
        var acc = P384Point.infinity
        for i in stride(from: top, through: 0, by: -1) {
            acc = acc.doubled()
            let a = Int(d1[i])
            if a > 0 {
                acc = acc.adding(gTable[a >> 1])
            } else if a < 0 {
                acc = acc.adding(gTable[(-a) >> 1].negated)
            }
            let b = Int(d2[i])
            if b > 0 {
                acc = acc.adding(qTable[b >> 1])
            } else if b < 0 {
                acc = acc.adding(qTable[(-b) >> 1].negated)
            }
        }
        return acc
    }
}
