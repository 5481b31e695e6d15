/// The SubjectPublicKeyInfo encoding of P-256 public keys (`openssl pkey -pubout`).
extension P256.PublicKey {
    /// From SubjectPublicKeyInfo DER; throws unless it holds a P-256 key.
    public init(subjectPublicKeyInfoDER bytes: [UInt8]) throws(ASN1Error) {
        guard case .p256(let key) = try SubjectPublicKeyInfo(der: bytes) else {
            throw ASN1Error(offset: 0, expected: "a P-256 (id-ecPublicKey, prime256v1) public key")
        }
        self = key
    }

    /// From a `PUBLIC KEY` PEM block. Throws `PEMError` or `ASN1Error`.
    public init(pemRepresentation text: String) throws {
        let block = try PEM.decode(text, labels: ["PUBLIC KEY"])
        try self.init(subjectPublicKeyInfoDER: block.bytes)
    }

    /// SubjectPublicKeyInfo DER with the uncompressed point.
    public var subjectPublicKeyInfoDER: [UInt8] {
        DER.sequence([DER.sequence([DER.oid(.ecPublicKey), DER.oid(.prime256v1)]), DER.bitString(x963Representation)])
    }

    /// `-----BEGIN PUBLIC KEY-----` text.
    public var pemRepresentation: String { PEM.encode(subjectPublicKeyInfoDER, label: "PUBLIC KEY") }
}
