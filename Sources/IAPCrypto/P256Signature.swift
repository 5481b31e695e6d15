extension P256 {
    /// An ECDSA signature (r, s), convertible between the raw 64-byte form JWS uses and the DER
    /// `SEQUENCE { INTEGER r, INTEGER s }` form X.509 and openssl use.
    public struct Signature: Sendable, Equatable {
        let r: U256
        let s: U256

        init(r: U256, s: U256) {
            self.r = r
            self.s = s
        }

        /// From r || s, 32 bytes each.
        public init(rawRepresentation bytes: [UInt8]) throws(ASN1Error) {
            guard bytes.count == 64 else { throw ASN1Error(offset: 0, expected: "a 64-byte r || s signature") }
            r = U256(bigEndian: bytes[0..<32])!
            s = U256(bigEndian: bytes[32..<64])!
        }

        /// From DER `SEQUENCE { r INTEGER, s INTEGER }` with r and s below 2^256.
        public init(derRepresentation bytes: [UInt8]) throws(ASN1Error) {
            let sequence = try ASN1Element(der: bytes).expect(.sequence, "an ECDSA signature SEQUENCE")
            guard sequence.children.count == 2 else {
                throw ASN1Error(offset: sequence.contentOffset, expected: "exactly two INTEGERs, r and s")
            }
            let rElement = sequence.children[0]
            let sElement = sequence.children[1]
            guard let r = U256(bigEndian: try rElement.unsignedIntegerBytes()) else {
                throw ASN1Error(offset: rElement.contentOffset, expected: "r of at most 32 bytes")
            }
            guard let s = U256(bigEndian: try sElement.unsignedIntegerBytes()) else {
                throw ASN1Error(offset: sElement.contentOffset, expected: "s of at most 32 bytes")
            }
            self.r = r
            self.s = s
        }

        /// r || s, 64 bytes.
        public var rawRepresentation: [UInt8] { r.bigEndianBytes + s.bigEndianBytes }

        /// DER `SEQUENCE { r, s }`.
        public var derRepresentation: [UInt8] {
            DER.sequence([DER.integer(bigEndian: r.bigEndianBytes), DER.integer(bigEndian: s.bigEndianBytes)])
        }
    }
}
