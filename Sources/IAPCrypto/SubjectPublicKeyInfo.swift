/// A public key as X.509 carries it (`SubjectPublicKeyInfo`, RFC 5280 section 4.1.2.7): P-256
/// and RSA keys are decoded, anything else is kept as its algorithm OID and key bytes so that a
/// certificate with an unfamiliar key still parses and only fails where the key is used.
public enum SubjectPublicKeyInfo: Sendable, Equatable {
    case p256(P256.PublicKey)
    case rsa(RSAPublicKey)
    case unsupported(algorithm: OID, parameters: [UInt8], key: [UInt8])

    /// Decodes SubjectPublicKeyInfo DER.
    public init(der bytes: [UInt8]) throws(ASN1Error) {
        try self.init(element: try ASN1Element(der: bytes))
    }

    /// Decodes an already parsed SubjectPublicKeyInfo (inside a certificate).
    public init(element: ASN1Element) throws(ASN1Error) {
        try element.expect(.sequence, "a SubjectPublicKeyInfo SEQUENCE")
        let algorithm = try element.child(0, "an AlgorithmIdentifier").expect(.sequence, "an AlgorithmIdentifier SEQUENCE")
        let oid = try algorithm.child(0, "an algorithm OID").oidValue()
        let parameters = algorithm.children.count > 1 ? algorithm.children[1] : nil
        let keyElement = try element.child(1, "a subjectPublicKey BIT STRING")
        let key = try keyElement.bitStringBytes()
        guard element.children.count == 2 else {
            throw ASN1Error(offset: element.children[2].offset, expected: "the end of the SubjectPublicKeyInfo")
        }
        switch oid {
        case .ecPublicKey:
            guard let parameters, parameters.tag == .objectIdentifier, try parameters.oidValue() == .prime256v1 else {
                let at = parameters?.offset ?? algorithm.endOffset
                throw ASN1Error(offset: at, expected: "the named curve prime256v1 (1.2.840.10045.3.1.7)")
            }
            do {
                self = .p256(try P256.PublicKey(x963Representation: key))
            } catch {
                throw ASN1Error(offset: keyElement.contentOffset + 1 + error.offset, expected: error.expected)
            }
        case .rsaEncryption:
            if let parameters { try parameters.nullValue() }
            do {
                self = .rsa(try RSAPublicKey(pkcs1DER: key))
            } catch {
                throw ASN1Error(offset: keyElement.contentOffset + 1 + error.offset, expected: error.expected)
            }
        default:
            self = .unsupported(algorithm: oid, parameters: parameters?.encoded ?? [], key: key)
        }
    }

    /// The SubjectPublicKeyInfo DER.
    public var der: [UInt8] {
        switch self {
        case .p256(let key): return key.subjectPublicKeyInfoDER
        case .rsa(let key): return key.subjectPublicKeyInfoDER
        case .unsupported(let algorithm, let parameters, let key):
            return DER.sequence([DER.sequence([DER.oid(algorithm), parameters]), DER.bitString(key)])
        }
    }

    /// A `PUBLIC KEY` PEM block (P-256 or RSA), as `openssl pkey -pubout` writes it.
    public init(pemRepresentation text: String) throws {
        let block = try PEM.decode(text, labels: ["PUBLIC KEY", "RSA PUBLIC KEY"])
        if block.label == "RSA PUBLIC KEY" {
            self = .rsa(try RSAPublicKey(pkcs1DER: block.bytes))
        } else {
            try self.init(der: block.bytes)
        }
    }

    public var pemRepresentation: String { PEM.encode(der, label: "PUBLIC KEY") }
}
