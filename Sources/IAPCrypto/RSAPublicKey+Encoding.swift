/// The SubjectPublicKeyInfo and PKCS#1 PEM encodings of RSA public keys.
extension RSAPublicKey {
    /// From SubjectPublicKeyInfo DER; throws unless it holds an RSA key.
    public init(subjectPublicKeyInfoDER bytes: [UInt8]) throws(ASN1Error) {
        guard case .rsa(let key) = try SubjectPublicKeyInfo(der: bytes) else {
            throw ASN1Error(offset: 0, expected: "an RSA (rsaEncryption) public key")
        }
        self = key
    }

    /// From a `PUBLIC KEY` (SubjectPublicKeyInfo) or `RSA PUBLIC KEY` (PKCS#1) PEM block.
    public init(pemRepresentation text: String) throws {
        guard case .rsa(let key) = try SubjectPublicKeyInfo(pemRepresentation: text) else {
            throw ASN1Error(offset: 0, expected: "an RSA (rsaEncryption) public key")
        }
        self = key
    }

    /// SubjectPublicKeyInfo DER.
    public var subjectPublicKeyInfoDER: [UInt8] {
        DER.sequence([DER.sequence([DER.oid(.rsaEncryption), DER.null()]), DER.bitString(pkcs1DER)])
    }

    /// `-----BEGIN PUBLIC KEY-----` text.
    public var pemRepresentation: String { PEM.encode(subjectPublicKeyInfoDER, label: "PUBLIC KEY") }
}
