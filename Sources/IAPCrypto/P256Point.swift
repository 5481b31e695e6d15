/// P-256 group arithmetic: y^2 = x^3 - 3x + b over GF(p), points in Jacobian coordinates
/// (x = X/Z^2, y = Y/Z^3, infinity when Z = 0) so that additions need no inversion.
///
/// Signing and key derivation use `generatorMultiple`, a fixed-base comb over a precomputed table
/// of 64 x 15 affine multiples of G with branch-free lookups and selects; verification adds a
/// width-5 wNAF multiplication of the public key, where timing leaks nothing secret.
package struct P256Point: Sendable {
    var x: P256FieldElement
    var y: P256FieldElement
    var z: P256FieldElement

    typealias F = P256FieldElement

    static let infinity = P256Point(x: .one, y: .one, z: .zero)

    static let generator = P256Affine(
        x: F(U256(0xF4A1_3945_D898_C296, 0x7703_7D81_2DEB_33A0, 0xF8BC_E6E5_63A4_40F2, 0x6B17_D1F2_E12C_4247))!,
        y: F(U256(0xCBB6_4068_37BF_51F5, 0x2BCE_3357_6B31_5ECE, 0x8EE7_EB4A_7C0F_9E16, 0x4FE3_42E2_FE1A_7F9B))!)

    init(x: F, y: F, z: F) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ affine: P256Affine) { self.init(x: affine.x, y: affine.y, z: .one) }

    var isInfinity: Bool { z.isZero }

    /// The affine point (one field inversion), or nil at infinity.
    var affine: P256Affine? {
        guard !isInfinity else { return nil }
        let zInverse = z.inverse
        let zInverse2 = zInverse.squared
        return P256Affine(x: x * zInverse2, y: y * zInverse2 * zInverse)
    }

    /// 2P by dbl-2001-b (a = -3): 3M + 5S. Doubling infinity gives infinity (Z stays 0).
    @inline(__always)
    func doubled() -> P256Point {
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
        return P256Point(x: x3, y: y3, z: z3)
    }

    /// P + Q with Q affine, by madd-2007-bl (7M + 4S), for P not infinity and P != +-Q. The
    /// callers guarantee that or select around it.
    @inline(__always)
    func addingUnchecked(_ q: P256Affine) -> P256Point {
        let z1z1 = z.squared
        let u2 = q.x * z1z1
        let s2 = q.y * z * z1z1
        let h = u2 - x
        let hh = h.squared
        let i = hh.doubled.doubled
        let j = h * i
        let r = (s2 - y).doubled
        let v = x * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (y * j).doubled
        let z3 = (z + h).squared - z1z1 - hh
        return P256Point(x: x3, y: y3, z: z3)
    }

    /// P + Q with Q affine, handling every case (variable time).
    func adding(_ q: P256Affine) -> P256Point {
        if isInfinity { return P256Point(q) }
        let z1z1 = z.squared
        let u2 = q.x * z1z1
        let s2 = q.y * z * z1z1
        if u2 == x { return s2 == y ? doubled() : .infinity }
        return addingUnchecked(q)
    }

    /// P + Q, both Jacobian, by add-2007-bl (11M + 5S), handling every case (variable time).
    func adding(_ q: P256Point) -> P256Point {
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
        return P256Point(x: x3, y: y3, z: z3)
    }

    func negated() -> P256Point { P256Point(x: x, y: F.zero - y, z: z) }

    // MARK: - Fixed-base comb

    /// `table[16 * i + d]` is d * 16^i * G in affine form (entry 0 of each window unused).
    static let generatorTable: [P256Affine] = {
        var jacobian: [P256Point] = []
        jacobian.reserveCapacity(64 * 16)
        var base = P256Point(generator)
        for _ in 0..<64 {
            var multiple = base
            jacobian.append(.infinity)
            jacobian.append(base)
            for _ in 2..<16 {
                multiple = multiple.adding(base)
                jacobian.append(multiple)
            }
            base = base.doubled().doubled().doubled().doubled()
        }
        return batchAffine(jacobian)
    }()

    /// Converts many points with one inversion (Montgomery's trick); infinity maps to (0, 0).
    static func batchAffine(_ points: [P256Point]) -> [P256Affine] {
        var prefix = [F](repeating: .one, count: points.count)
        var running = F.one
        for (i, p) in points.enumerated() {
            prefix[i] = running
            if !p.isInfinity { running = running * p.z }
        }
        var inverse = running.inverse
        var out = [P256Affine](repeating: P256Affine(x: .zero, y: .zero), count: points.count)
        for i in stride(from: points.count - 1, through: 0, by: -1) where !points[i].isInfinity {
            let zInverse = inverse * prefix[i]
            inverse = inverse * points[i].z
            let zInverse2 = zInverse.squared
            out[i] = P256Affine(x: points[i].x * zInverse2, y: points[i].y * zInverse2 * zInverse)
        }
        return out
    }

    /// k * G for a secret k: 64 table lookups that touch every entry, 64 additions whose results
    /// are kept or dropped by masks, no branch on k.
    static func generatorMultiple(_ k: U256) -> P256Point {
        var acc = P256Point.infinity
        var accIsInfinity: UInt64 = ~0
        generatorTable.withUnsafeBufferPointer { table in
            for i in 0..<64 {
                let digit = UInt64(k.nibble(i))
                var px = U256.zero
                var py = U256.zero
                for d in 1..<16 {
                    let entry = table[i &* 16 &+ d]
                    let hit = 0 &- (((UInt64(d) ^ digit) &- 1) >> 63)
                    px = U256.select(hit, entry.x.m, px)
                    py = U256.select(hit, entry.y.m, py)
                }
                let q = P256Affine(x: F(montgomery: px), y: F(montgomery: py))
                let sum = acc.addingUnchecked(q)
                let digitIsZero = 0 &- ((digit &- 1) >> 63)
                // digit == 0: keep acc; acc at infinity: take q; otherwise the sum.
                let takeQ = accIsInfinity & ~digitIsZero
                var next = sum
                next.x = F.select(takeQ, q.x, next.x)
                next.y = F.select(takeQ, q.y, next.y)
                next.z = F.select(takeQ, .one, next.z)
                next.x = F.select(digitIsZero, acc.x, next.x)
                next.y = F.select(digitIsZero, acc.y, next.y)
                next.z = F.select(digitIsZero, acc.z, next.z)
                acc = next
                accIsInfinity &= digitIsZero
            }
        }
        return acc
    }

    /// k * G for a public k (verification): skips zero digits.
    static func generatorMultiplePublic(_ k: U256) -> P256Point {
        var acc = P256Point.infinity
        generatorTable.withUnsafeBufferPointer { table in
            for i in 0..<64 {
                let digit = k.nibble(i)
                if digit != 0 { acc = acc.adding(table[i &* 16 &+ digit]) }
            }
        }
        return acc
    }

    // MARK: - Variable-base wNAF (public scalars only)

    /// Width-5 non-adjacent form of k: digits in {0, +-1, +-3, ..., +-15}, least significant first.
    static func wNAF(_ k: U256) -> [Int8] {
        var limbs = [k.l0, k.l1, k.l2, k.l3, 0]
        var digits = [Int8](repeating: 0, count: 257)
        var i = 0
        func isZero() -> Bool { limbs.allSatisfy { $0 == 0 } }
        while !isZero() {
            if limbs[0] & 1 == 1 {
                var d = Int(limbs[0] & 31)
                if d >= 16 { d -= 32 }
                digits[i] = Int8(d)
                if d > 0 {
                    var borrow = UInt64(d)
                    for j in 0..<5 {
                        let (v, o) = limbs[j].subtractingReportingOverflow(borrow)
                        limbs[j] = v
                        borrow = o ? 1 : 0
                    }
                } else {
                    var carry = UInt64(-d)
                    for j in 0..<5 {
                        let (v, o) = limbs[j].addingReportingOverflow(carry)
                        limbs[j] = v
                        carry = o ? 1 : 0
                    }
                }
            }
            for j in 0..<4 { limbs[j] = limbs[j] >> 1 | limbs[j + 1] << 63 }
            limbs[4] >>= 1
            i += 1
        }
        return digits
    }

    /// u1 * G + u2 * Q, the ECDSA verification combination (variable time).
    static func verificationCombination(u1: U256, u2: U256, q: P256Affine) -> P256Point {
        let qJacobian = P256Point(q)
        let twiceQ = qJacobian.doubled()
        var odd = [qJacobian]
        for _ in 1..<8 { odd.append(odd[odd.count - 1].adding(twiceQ)) }
        let oddAffine = batchAffine(odd)
        let digits = wNAF(u2)
        var acc = P256Point.infinity
        var top = digits.count - 1
        while top > 0 && digits[top] == 0 { top -= 1 }
        for i in stride(from: top, through: 0, by: -1) {
            acc = acc.doubled()
            let d = Int(digits[i])
            if d > 0 {
                acc = acc.adding(oddAffine[d >> 1])
            } else if d < 0 {
                let p = oddAffine[(-d) >> 1]
                acc = acc.adding(P256Affine(x: p.x, y: F.zero - p.y))
            }
        }
        return acc.adding(generatorMultiplePublic(u1))
    }
}
