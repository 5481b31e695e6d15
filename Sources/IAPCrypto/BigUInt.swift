/// Arbitrary-size unsigned integers, just enough for RSA signature verification: bytes in and
/// out, comparison, and Montgomery modular exponentiation by an odd modulus. Limbs are 64-bit,
/// least significant first, with no leading zero limbs.
package struct BigUInt: Equatable, Sendable {
    var limbs: [UInt64]

    init(limbs: [UInt64]) {
        var trimmed = limbs
        while trimmed.last == 0 { trimmed.removeLast() }
        self.limbs = trimmed
    }

    init(bigEndian bytes: [UInt8]) {
        var limbs = [UInt64](repeating: 0, count: (bytes.count + 7) / 8)
        for (i, byte) in bytes.reversed().enumerated() { limbs[i / 8] |= UInt64(byte) << UInt64((i % 8) * 8) }
        self.init(limbs: limbs)
    }

    var isZero: Bool { limbs.isEmpty }

    var bitWidth: Int { limbs.isEmpty ? 0 : limbs.count * 64 - limbs[limbs.count - 1].leadingZeroBitCount }

    /// Big-endian bytes left-padded to `count` (which must be large enough).
    func bigEndianBytes(count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        for i in 0..<min(count, limbs.count * 8) {
            out[count - 1 - i] = UInt8(truncatingIfNeeded: limbs[i / 8] >> UInt64((i % 8) * 8))
        }
        return out
    }

    static func < (a: BigUInt, b: BigUInt) -> Bool {
        if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
        for i in stride(from: a.limbs.count - 1, through: 0, by: -1) where a.limbs[i] != b.limbs[i] {
            return a.limbs[i] < b.limbs[i]
        }
        return false
    }

    func bit(_ i: Int) -> Bool { i / 64 < limbs.count && (limbs[i / 64] >> UInt64(i % 64)) & 1 == 1 }

    /// `self ^ exponent mod modulus` for an odd modulus > 1 and `self < modulus`.
    func power(_ exponent: BigUInt, modulus: BigUInt) -> BigUInt {
        let context = MontgomeryContext(modulus: modulus)
        let one = context.toMontgomery([1] + [UInt64](repeating: 0, count: context.count - 1))
        let base = context.toMontgomery(limbs + [UInt64](repeating: 0, count: context.count - limbs.count))
        var result = one
        for i in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
            result = context.multiply(result, result)
            if exponent.bit(i) { result = context.multiply(result, base) }
        }
        return BigUInt(limbs: context.fromMontgomery(result))
    }
}

/// Montgomery multiplication modulo an odd multi-limb modulus (CIOS), for RSA.
struct MontgomeryContext {
    let modulus: [UInt64]
    let count: Int
    let n0: UInt64
    let r2: [UInt64]

    init(modulus m: BigUInt) {
        modulus = m.limbs
        count = m.limbs.count
        // n0 = -m^-1 mod 2^64 by Newton's iteration (each step doubles the correct bits).
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- m.limbs[0] &* inverse) }
        n0 = 0 &- inverse
        // R mod m: 2^(bits - 1) is below m; double it up to 2^(64 * count).
        let bits = m.bitWidth
        var x = [UInt64](repeating: 0, count: count)
        x[(bits - 1) / 64] = 1 << UInt64((bits - 1) % 64)
        for _ in 0..<(64 * count - bits + 1) { x = Self.addModulo(x, x, modulus) }
        // R^2 mod m is 2^(64 * count) in Montgomery form: raise Montgomery 2 to that power.
        let two = Self.addModulo(x, x, modulus)
        var result = x
        let exponent = 64 * count
        for i in stride(from: Int.bitWidth - exponent.leadingZeroBitCount - 1, through: 0, by: -1) {
            result = Self.multiply(result, result, modulus, n0)
            if (exponent >> i) & 1 == 1 { result = Self.multiply(result, two, modulus, n0) }
        }
        r2 = result
    }

    private static func addModulo(_ a: [UInt64], _ b: [UInt64], _ m: [UInt64]) -> [UInt64] {
        var sum = [UInt64](repeating: 0, count: a.count)
        var carry: UInt64 = 0
        for i in 0..<a.count { sum[i] = adc(a[i], b[i], &carry) }
        var difference = [UInt64](repeating: 0, count: a.count)
        var borrow: UInt64 = 0
        for i in 0..<a.count { difference[i] = sbb(sum[i], m[i], &borrow) }
        return carry == 1 || borrow == 0 ? difference : sum
    }

    func toMontgomery(_ a: [UInt64]) -> [UInt64] { multiply(a, r2) }

    func fromMontgomery(_ a: [UInt64]) -> [UInt64] {
        var one = [UInt64](repeating: 0, count: count)
        one[0] = 1
        return multiply(a, one)
    }

    /// a * b / R mod m, for a, b < m.
    func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] { Self.multiply(a, b, modulus, n0) }

    static func multiply(_ a: [UInt64], _ b: [UInt64], _ modulus: [UInt64], _ n0: UInt64) -> [UInt64] {
        let s = modulus.count
        var t = [UInt64](repeating: 0, count: s + 2)
        t.withUnsafeMutableBufferPointer { t in
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    modulus.withUnsafeBufferPointer { m in
                        for i in 0..<s {
                            var c: UInt64 = 0
                            let bi = b[i]
                            for j in 0..<s { t[j] = mac(t[j], a[j], bi, &c) }
                            var carry: UInt64 = 0
                            t[s] = adc(t[s], c, &carry)
                            t[s + 1] = carry
                            let q = t[0] &* n0
                            c = 0
                            _ = mac(t[0], q, m[0], &c)
                            for j in 1..<s { t[j - 1] = mac(t[j], q, m[j], &c) }
                            carry = 0
                            t[s - 1] = adc(t[s], c, &carry)
                            t[s] = t[s + 1] &+ carry
                        }
                    }
                }
            }
        }
        var result = [UInt64](repeating: 0, count: s)
        var borrow: UInt64 = 0
        for j in 0..<s { result[j] = sbb(t[j], modulus[j], &borrow) }
        let keepT = t[s] == 0 && borrow == 1
        return keepT ? Array(t[0..<s]) : result
    }
}
