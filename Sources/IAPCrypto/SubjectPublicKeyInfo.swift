/// A public key as X.509 carries it (`SubjectPublicKeyInfo`, RFC 5280 section 4.1.2.7): EC keys
/// on P-256 (prime256v1) and P-384 (secp384r1), named by the curve OID in the algorithm
/// parameters (RFC 5480 section 2.1.1), and RSA keys are decoded; anything else (another curve,
/// another algorithm) is kept as its algorithm OID, parameters and key bytes, so that a
/// certificate with an unfamiliar key still parses and only fails where the key is used.
public enum SubjectPublicKeyInfo: Sendable, Equatable {
    case p256(P256.PublicKey)
    /// Apple Root CA - G3's and the WWDR G6 intermediate's keys.
    case p384(P384.PublicKey)
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
            // RFC 5480: the parameters are a namedCurve OID (implicit and explicit curves are not
            // allowed in certificates).
            guard let parameters, parameters.tag == .objectIdentifier else {
                let at = parameters?.offset ?? algorithm.endOffset
                throw ASN1Error(
                    offset: at,
                    expected: "a named curve OID, such as prime256v1 (1.2.840.10045.3.1.7) or secp384r1 (1.3.132.0.34)")
            }
            let curve = try parameters.oidValue()
            do {
                switch curve {
                case .prime256v1: self = .p256(try P256.PublicKey(x963Representation: key))
                case .secp384r1: self = .p384(try P384.PublicKey(x963Representation: key))
                default: self = .unsupported(algorithm: oid, parameters: parameters.encoded, key: key)
                }
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
        case .p384(let key): return key.subjectPublicKeyInfoDER
        case .rsa(let key): return key.subjectPublicKeyInfoDER
        case .unsupported(let algorithm, let parameters, let key):
            return DER.sequence([DER.sequence([DER.oid(algorithm), parameters]), DER.bitString(key)])
        }
    }

    /// A `PUBLIC KEY` PEM block (P-256, P-384 or RSA), as `openssl pkey -pubout` writes it.
    public init(pemRepresentation text: String) throws {
        let block = try PEM.decode(text, labels: ["PUBLIC KEY", "RSA PUBLIC KEY"])
        if block.label == "RSA PUBLIC KEY" {
            self = .rsa(try RSAPublicKey(pkcs1DER: block.bytes))
        } else {
            try self.init(der: block.bytes)
        }
    }

    public var pemRepresentation: String { PEM.encode(der, label: "PUBLIC KEY") }

    /// The key for people: `EC P-256`, `EC P-384`, `RSA 2048`, or the algorithm OID.
    public var summary: String {
        switch self {
        case .p256: return "EC P-256"
        case .p384: return "EC P-384"
        case .rsa(let key): return "RSA \(key.bitCount)"
        case .unsupported(let algorithm, let parameters, _):
            if algorithm == .ecPublicKey, let curve = try? ASN1Element(der: parameters).oidValue() {
                return "EC curve \(curve)"
            }
            return SignatureAlgorithm.name(algorithm)
        }
    }

    /// Whether `signature` over `message` verifies with this key under `algorithm`: ECDSA for EC
    /// keys (P-256 or P-384, with any of the digests), PKCS#1 v1.5 for RSA keys. A key and
    /// algorithm that do not fit each other give false.
    public func isValidSignature<M: Collection>(_ signature: [UInt8], for message: M, algorithm: SignatureAlgorithm) -> Bool
    where M.Element == UInt8 {
        switch (self, algorithm) {
        case (.p256(let key), .ecdsa(let digest)): return key.isValidSignature(der: signature, for: message, digest: digest)
        case (.p384(let key), .ecdsa(let digest)): return key.isValidSignature(der: signature, for: message, digest: digest)
        case (.rsa(let key), .rsaPKCS1(let digest)): return key.isValidSignature(signature, for: message, hash: digest)
        case (.p256, .rsaPKCS1), (.p384, .rsaPKCS1), (.rsa, .ecdsa), (.unsupported, _): return false
        }
    }
}
