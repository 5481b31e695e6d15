/// ECDSA verification over NIST P-384 (secp384r1): the curve of Apple Root CA - G3 and the Apple
/// Worldwide Developer Relations G6 intermediate, which sign the App Store's JWS chain with
/// ecdsa-with-SHA384. iapctl only verifies with it; its own chains are P-256.
///
/// The names follow CryptoKit's `P384.Signing` so callers read it at a glance.
public enum P384 {
    /// Checks (r, s) over a digest of any length against public point q (FIPS 186-4 section
    /// 6.4.2): e is the leftmost 384 bits of the digest, r and s must lie in [1, n - 1], and the
    /// x coordinate of u1 * G + u2 * Q, reduced modulo n, must equal r.
    static func verify(digest: [UInt8], r: U384, s: U384, publicKey q: P384Affine) -> Bool {
        guard let rScalar = P384Scalar(r), let sScalar = P384Scalar(s), !rScalar.isZero, !sScalar.isZero,
            let digestValue = U384(bigEndian: digest.prefix(48))
        else { return false }
        let e = P384Scalar(reducing: digestValue)
        let w = sScalar.inverse
        let u1 = (e * w).value
        let u2 = (rScalar * w).value
        let point = P384Point.verificationCombination(u1: u1, u2: u2, q: q)
        if point.isInfinity { return false }
        // x(R) mod n == r, compared projectively: X == r' * Z^2 for r' in {r, r + n} below p.
        let z2 = point.z.squared
        if let candidate = P384FieldElement(r), candidate * z2 == point.x { return true }
        let (rPlusN, carry) = r.adding(P384Scalar.n)
        if carry == 0, let candidate = P384FieldElement(rPlusN), candidate * z2 == point.x { return true }
        return false
    }
}

extension P384 {
    /// An ECDSA signature (r, s) over P-384: the raw 96-byte r || s form JWS uses (ES384) or the
    /// DER `SEQUENCE { INTEGER r, INTEGER s }` form of X.509 and openssl.
    public struct Signature: Sendable, Equatable {
        let r: U384
        let s: U384

        init(r: U384, s: U384) {
            self.r = r
            self.s = s
        }

        /// From r || s, 48 bytes each.
        public init(rawRepresentation bytes: [UInt8]) throws(ASN1Error) {
            guard bytes.count == 96 else { throw ASN1Error(offset: 0, expected: "a 96-byte r || s signature") }
            r = U384(bigEndian: bytes[0..<48])!
            s = U384(bigEndian: bytes[48..<96])!
        }

        /// From DER `SEQUENCE { r INTEGER, s INTEGER }` with r and s below 2^384.
        public init(derRepresentation bytes: [UInt8]) throws(ASN1Error) {
            let sequence = try ASN1Element(der: bytes).expect(.sequence, "an ECDSA signature SEQUENCE")
            guard sequence.children.count == 2 else {
                throw ASN1Error(offset: sequence.contentOffset, expected: "exactly two INTEGERs, r and s")
            }
            let rElement = sequence.children[0]
            let sElement = sequence.children[1]
            guard let r = U384(bigEndian: try rElement.unsignedIntegerBytes()) else {
                throw ASN1Error(offset: rElement.contentOffset, expected: "r of at most 48 bytes")
            }
            guard let s = U384(bigEndian: try sElement.unsignedIntegerBytes()) else {
                throw ASN1Error(offset: sElement.contentOffset, expected: "s of at most 48 bytes")
            }
            self.r = r
            self.s = s
        }

        /// r || s, 96 bytes.
        public var rawRepresentation: [UInt8] { r.bigEndianBytes + s.bigEndianBytes }

        /// DER `SEQUENCE { r, s }`.
        public var derRepresentation: [UInt8] {
            DER.sequence([DER.integer(bigEndian: r.bigEndianBytes), DER.integer(bigEndian: s.bigEndianBytes)])
        }
    }
}
