/// ECDSA over NIST P-256 with SHA-256 (ES256): what signs StoreKit 2 JWS transactions and the
/// simulator's receipts and certificates. Written here on fixed 4 x 64-bit limbs with Montgomery
/// arithmetic because IAPKit uses no package, and fast enough for the project's benchmark.
///
/// Signing is deterministic (RFC 6979): the nonce comes from HMAC-SHA256 of the key and the
/// digest, so the same key and message always give the same signature and no randomness is used.
/// The API follows CryptoKit's `P256.Signing` names so callers can read it at a glance.
public enum P256 {
    /// Signs a 32-byte digest with the private scalar d (1 <= d < n).
    static func sign(digest: [UInt8], privateKey d: U256) -> (r: U256, s: U256) {
        let e = P256Scalar(reducing: U256(bigEndian: digest.prefix(32))!)
        let dScalar = P256Scalar(d)!
        var nonces = RFC6979(privateKey: d, digest: digest)
        while true {
            let k = nonces.next()
            let point = P256Point.generatorMultiple(k)
            guard let affine = point.affine else { continue }
            let r = P256Scalar(reducing: affine.x.value)
            if r.isZero { continue }
            // 1/k = b / (k * b): the variable-time inversion only sees k masked by a secret b.
            let blinding = P256Scalar(nonces.blindingFactor())!
            let kInverse = (P256Scalar(k)! * blinding).inverseVariableTime * blinding
            let s = kInverse * (e + r * dScalar)
            if s.isZero { continue }
            return (r.value, s.value)
        }
    }

    /// Checks (r, s) over a 32-byte digest against public point q.
    static func verify(digest: [UInt8], r: U256, s: U256, publicKey q: P256Affine) -> Bool {
        guard let rScalar = P256Scalar(r), let sScalar = P256Scalar(s), !rScalar.isZero, !sScalar.isZero,
            let digestValue = U256(bigEndian: digest.prefix(32))
        else { return false }
        let e = P256Scalar(reducing: digestValue)
        let w = sScalar.inverseVariableTime
        let u1 = (e * w).value
        let u2 = (rScalar * w).value
        let point = P256Point.verificationCombination(u1: u1, u2: u2, q: q)
        if point.isInfinity { return false }
        // x(R) mod n == r, compared projectively: X == r' * Z^2 for r' in {r, r + n} below p.
        let z2 = point.z.squared
        if let candidate = P256FieldElement(r), candidate * z2 == point.x { return true }
        let (rPlusN, carry) = r.adding(P256Scalar.n)
        if carry == 0, let candidate = P256FieldElement(rPlusN), candidate * z2 == point.x { return true }
        return false
    }
}
