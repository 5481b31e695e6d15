extension P256 {
    /// A P-256 verification key: a point on the curve, never the point at infinity. Every
    /// initializer checks the curve equation, since an off-curve point would let a forged
    /// signature verify.
    public struct PublicKey: Sendable, Equatable {
        let point: P256Affine

        init(point: P256Affine) { self.point = point }

        /// From the 64-byte X || Y form (JWK-style raw coordinates).
        public init(rawRepresentation bytes: [UInt8]) throws(ASN1Error) {
            guard bytes.count == 64 else { throw ASN1Error(offset: 0, expected: "64 bytes of X || Y") }
            try self.init(x: Array(bytes[0..<32]), y: Array(bytes[32..<64]), offset: 0)
        }

        /// From the uncompressed SEC1 / X9.63 form `04 || X || Y` (what certificates carry), or the
        /// compressed form `02/03 || X`.
        public init(x963Representation bytes: [UInt8]) throws(ASN1Error) {
            guard let first = bytes.first else { throw ASN1Error(offset: 0, expected: "a SEC1 point format byte") }
            switch first {
            case 0x04:
                guard bytes.count == 65 else {
                    throw ASN1Error(offset: min(bytes.count, 65), expected: "65 bytes of an uncompressed point")
                }
                try self.init(x: Array(bytes[1..<33]), y: Array(bytes[33..<65]), offset: 1)
            case 0x02, 0x03:
                try self.init(compressedRepresentation: bytes)
            default:
                throw ASN1Error(offset: 0, expected: "a point format byte 04 (uncompressed) or 02/03 (compressed)")
            }
        }

        /// From the compressed SEC1 form `02/03 || X`.
        public init(compressedRepresentation bytes: [UInt8]) throws(ASN1Error) {
            guard bytes.count == 33, bytes[0] == 2 || bytes[0] == 3 else {
                throw ASN1Error(offset: 0, expected: "33 bytes of a compressed point starting 02 or 03")
            }
            guard let x = P256FieldElement(bigEndian: bytes[1...]) else {
                throw ASN1Error(offset: 1, expected: "an x coordinate below p")
            }
            let rhs = x.squared * x - x.doubled - x + P256FieldElement.b
            guard var y = rhs.squareRoot else { throw ASN1Error(offset: 1, expected: "an x coordinate on P-256") }
            if UInt8(y.value.l0 & 1) != bytes[0] & 1 { y = P256FieldElement.zero - y }
            point = P256Affine(x: x, y: y)
        }

        private init(x: [UInt8], y: [UInt8], offset: Int) throws(ASN1Error) {
            guard let fx = P256FieldElement(bigEndian: x) else {
                throw ASN1Error(offset: offset, expected: "an x coordinate below p")
            }
            guard let fy = P256FieldElement(bigEndian: y) else {
                throw ASN1Error(offset: offset + 32, expected: "a y coordinate below p")
            }
            let candidate = P256Affine(x: fx, y: fy)
            guard candidate.isOnCurve else { throw ASN1Error(offset: offset, expected: "a point on the P-256 curve") }
            point = candidate
        }

        /// X || Y, 64 bytes.
        public var rawRepresentation: [UInt8] { point.x.bigEndianBytes + point.y.bigEndianBytes }

        /// `04 || X || Y`, 65 bytes.
        public var x963Representation: [UInt8] { [0x04] + rawRepresentation }

        /// `02/03 || X`, 33 bytes.
        public var compressedRepresentation: [UInt8] {
            [0x02 | UInt8(point.y.value.l0 & 1)] + point.x.bigEndianBytes
        }

        /// Whether `signature` is a valid ECDSA signature of SHA-256(`message`) by this key.
        public func isValidSignature<M: Collection>(_ signature: Signature, for message: M) -> Bool
        where M.Element == UInt8 {
            isValidSignature(signature, forDigest: SHA256.hash(message))
        }

        /// Whether `signature` is valid over a 32-byte digest.
        public func isValidSignature(_ signature: Signature, forDigest digest: [UInt8]) -> Bool {
            var padded = Array(digest.prefix(32))
            if padded.count < 32 { padded = [UInt8](repeating: 0, count: 32 - padded.count) + padded }
            return P256.verify(digest: padded, r: signature.r, s: signature.s, publicKey: point)
        }

        /// Verifies a raw 64-byte r || s signature (the JWS form); false when malformed.
        public func isValidSignature<M: Collection>(raw: [UInt8], for message: M) -> Bool where M.Element == UInt8 {
            guard let signature = try? Signature(rawRepresentation: raw) else { return false }
            return isValidSignature(signature, for: message)
        }

        /// Verifies a DER `SEQUENCE { r, s }` signature (the X.509 / openssl form) over `message`
        /// hashed with `digest`; false when malformed. A digest longer than 32 bytes counts by its
        /// leftmost 256 bits (FIPS 186-4 section 6.4): Apple's test chains sign P-256 certificates
        /// with ecdsa-with-SHA384.
        public func isValidSignature<M: Collection>(der: [UInt8], for message: M, digest: DigestAlgorithm = .sha256) -> Bool
        where M.Element == UInt8 {
            guard let signature = try? Signature(derRepresentation: der) else { return false }
            return isValidSignature(signature, forDigest: digest.hash(message))
        }
    }
}
