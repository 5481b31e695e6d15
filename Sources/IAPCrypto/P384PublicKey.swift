extension P384 {
    /// A P-384 verification key: a point on the curve, never the point at infinity. Every
    /// initializer checks the curve equation (an off-curve point would let a forged signature
    /// verify, the invalid-curve attack).
    public struct PublicKey: Sendable, Equatable {
        let point: P384Affine

        init(point: P384Affine) { self.point = point }

        /// From the uncompressed SEC1 / X9.63 form `04 || X || Y` (what certificates carry), or the
        /// compressed form `02/03 || X`.
        public init(x963Representation bytes: [UInt8]) throws(ASN1Error) {
            guard let first = bytes.first else { throw ASN1Error(offset: 0, expected: "a SEC1 point format byte") }
            switch first {
            case 0x04:
                guard bytes.count == 97 else {
                    throw ASN1Error(offset: min(bytes.count, 97), expected: "97 bytes of an uncompressed P-384 point")
                }
                guard let x = P384FieldElement(bigEndian: bytes[1..<49]) else {
                    throw ASN1Error(offset: 1, expected: "an x coordinate below p")
                }
                guard let y = P384FieldElement(bigEndian: bytes[49..<97]) else {
                    throw ASN1Error(offset: 49, expected: "a y coordinate below p")
                }
                let candidate = P384Affine(x: x, y: y)
                guard candidate.isOnCurve else { throw ASN1Error(offset: 1, expected: "a point on the P-384 curve") }
                self.init(point: candidate)
            case 0x02, 0x03:
                try self.init(compressedRepresentation: bytes)
            case 0x00:
                throw ASN1Error(offset: 0, expected: "a point other than the point at infinity (00)")
            default:
                throw ASN1Error(offset: 0, expected: "a point format byte 04 (uncompressed) or 02/03 (compressed)")
            }
        }

        /// From the compressed SEC1 form `02/03 || X`.
        public init(compressedRepresentation bytes: [UInt8]) throws(ASN1Error) {
            guard bytes.count == 49, bytes[0] == 2 || bytes[0] == 3 else {
                throw ASN1Error(offset: 0, expected: "49 bytes of a compressed point starting 02 or 03")
            }
            guard let x = P384FieldElement(bigEndian: bytes[1...]) else {
                throw ASN1Error(offset: 1, expected: "an x coordinate below p")
            }
            let rhs = x.squared * x - x.doubled - x + P384FieldElement.b
            guard var y = rhs.squareRoot else { throw ASN1Error(offset: 1, expected: "an x coordinate on P-384") }
            if UInt8(y.value.l0 & 1) != bytes[0] & 1 { y = P384FieldElement.zero - y }
            self.init(point: P384Affine(x: x, y: y))
        }

        /// `04 || X || Y`, 97 bytes.
        public var x963Representation: [UInt8] { [0x04] + point.x.bigEndianBytes + point.y.bigEndianBytes }

        /// Whether `signature` is a valid ECDSA signature of SHA-384(`message`) by this key.
        public func isValidSignature<M: Collection>(_ signature: Signature, for message: M) -> Bool
        where M.Element == UInt8 {
            isValidSignature(signature, forDigest: SHA384.hash(message))
        }

        /// Whether `signature` is valid over a digest (any length: the leftmost 384 bits count).
        public func isValidSignature(_ signature: Signature, forDigest digest: [UInt8]) -> Bool {
            P384.verify(digest: digest, r: signature.r, s: signature.s, publicKey: point)
        }

        /// Verifies a DER `SEQUENCE { r, s }` signature over `message` hashed with `digest`;
        /// false when malformed.
        public func isValidSignature<M: Collection>(der: [UInt8], for message: M, digest: DigestAlgorithm = .sha384) -> Bool
        where M.Element == UInt8 {
            guard let signature = try? Signature(derRepresentation: der) else { return false }
            return isValidSignature(signature, forDigest: digest.hash(message))
        }

        /// SubjectPublicKeyInfo DER with the uncompressed point and the secp384r1 curve OID.
        public var subjectPublicKeyInfoDER: [UInt8] {
            DER.sequence([DER.sequence([DER.oid(.ecPublicKey), DER.oid(.secp384r1)]), DER.bitString(x963Representation)])
        }

        /// `-----BEGIN PUBLIC KEY-----` text.
        public var pemRepresentation: String { PEM.encode(subjectPublicKeyInfoDER, label: "PUBLIC KEY") }
    }
}
