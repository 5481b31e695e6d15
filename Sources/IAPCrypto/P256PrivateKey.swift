extension P256 {
    /// A P-256 signing key: the scalar d with 1 <= d < n.
    public struct PrivateKey: Sendable {
        let d: U256
        /// The matching public key, derived once at creation.
        public let publicKey: PublicKey

        /// From the 32-byte big-endian scalar.
        ///
        /// - Throws: `ASN1Error` at offset 0 unless the bytes are 32 long and encode 1...n-1.
        public init(rawRepresentation bytes: [UInt8]) throws(ASN1Error) {
            guard bytes.count == 32, let d = U256(bigEndian: bytes), !d.isZero, d.lessThan(P256Scalar.n) else {
                throw ASN1Error(offset: 0, expected: "a 32-byte P-256 private scalar between 1 and n - 1")
            }
            self.d = d
            let point = P256Point.generatorMultiple(d).affine!
            publicKey = PublicKey(point: point)
        }

        /// The 32-byte big-endian scalar.
        public var rawRepresentation: [UInt8] { d.bigEndianBytes }

        /// Signs SHA-256(`message`) deterministically (RFC 6979).
        public func signature<M: Collection>(for message: M) -> Signature where M.Element == UInt8 {
            signature(forDigest: SHA256.hash(message))
        }

        /// Signs a 32-byte digest (bytes beyond 32 are ignored, as ECDSA truncates to the order's size).
        public func signature(forDigest digest: [UInt8]) -> Signature {
            var padded = Array(digest.prefix(32))
            if padded.count < 32 { padded = [UInt8](repeating: 0, count: 32 - padded.count) + padded }
            let (r, s) = P256.sign(digest: padded, privateKey: d)
            return Signature(r: r, s: s)
        }
    }
}
