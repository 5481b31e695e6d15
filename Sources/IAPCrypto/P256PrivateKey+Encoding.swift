/// SEC1 and PKCS#8 encodings of P-256 private keys, as `openssl ecparam -genkey` and
/// `openssl genpkey` write them, so keys made by openssl load here and keys written here load in
/// openssl.
extension P256.PrivateKey {
    /// From SEC1 `ECPrivateKey` DER (RFC 5915). Curve parameters, if present, must name P-256,
    /// and an embedded public key must match the private scalar.
    public init(sec1DER bytes: [UInt8]) throws(ASN1Error) {
        try self.init(sec1Element: try ASN1Element(der: bytes), requireCurve: false)
    }

    init(sec1Element sequence: ASN1Element, requireCurve: Bool) throws(ASN1Error) {
        try sequence.expect(.sequence, "an ECPrivateKey SEQUENCE")
        let version = try sequence.child(0, "the ECPrivateKey version")
        guard try version.intValue() == 1 else { throw ASN1Error(offset: version.offset, expected: "ECPrivateKey version 1") }
        let keyElement = try sequence.child(1, "the private key OCTET STRING")
        let scalar = try keyElement.octetStringValue()
        do {
            try self.init(rawRepresentation: scalar)
        } catch {
            throw ASN1Error(offset: keyElement.contentOffset, expected: error.expected)
        }
        var sawCurve = false
        for field in sequence.children.dropFirst(2) {
            if field.tag == .contextSpecific(0) {
                let curve = try field.child(0, "a named curve OID")
                guard try curve.oidValue() == .prime256v1 else {
                    throw ASN1Error(offset: curve.offset, expected: "the named curve prime256v1 (1.2.840.10045.3.1.7)")
                }
                sawCurve = true
            } else if field.tag == .contextSpecific(1) {
                let point = try field.child(0, "a public key BIT STRING").bitStringBytes()
                guard (try? P256.PublicKey(x963Representation: point)) == publicKey else {
                    throw ASN1Error(offset: field.offset, expected: "a public key matching the private key")
                }
            } else {
                throw ASN1Error(offset: field.offset, expected: "[0] parameters or [1] publicKey")
            }
        }
        if requireCurve && !sawCurve {
            throw ASN1Error(offset: sequence.endOffset, expected: "[0] parameters naming prime256v1")
        }
    }

    /// From PKCS#8 `PrivateKeyInfo` DER (RFC 5208 / 5958) with algorithm id-ecPublicKey on prime256v1.
    public init(pkcs8DER bytes: [UInt8]) throws(ASN1Error) {
        let sequence = try ASN1Element(der: bytes).expect(.sequence, "a PrivateKeyInfo SEQUENCE")
        let version = try sequence.child(0, "the PrivateKeyInfo version")
        guard [0, 1].contains(try version.intValue()) else {
            throw ASN1Error(offset: version.offset, expected: "PrivateKeyInfo version 0 or 1")
        }
        let algorithm = try sequence.child(1, "an AlgorithmIdentifier").expect(.sequence, "an AlgorithmIdentifier SEQUENCE")
        let oid = try algorithm.child(0, "an algorithm OID")
        guard try oid.oidValue() == .ecPublicKey else {
            throw ASN1Error(offset: oid.offset, expected: "id-ecPublicKey (1.2.840.10045.2.1)")
        }
        let curve = try algorithm.child(1, "a named curve OID")
        guard try curve.oidValue() == .prime256v1 else {
            throw ASN1Error(offset: curve.offset, expected: "the named curve prime256v1 (1.2.840.10045.3.1.7)")
        }
        let privateKey = try sequence.child(2, "the privateKey OCTET STRING")
        let inner = try privateKey.octetStringValue()
        do {
            try self.init(sec1Element: try ASN1Element(der: inner), requireCurve: false)
        } catch {
            throw ASN1Error(offset: privateKey.contentOffset + error.offset, expected: error.expected)
        }
    }

    /// From PEM: an `EC PRIVATE KEY` (SEC1) or `PRIVATE KEY` (PKCS#8) block; other blocks such
    /// as `EC PARAMETERS` are skipped. Throws `PEMError` or `ASN1Error`.
    public init(pemRepresentation text: String) throws {
        let block = try PEM.decode(text, labels: ["EC PRIVATE KEY", "PRIVATE KEY"])
        if block.label == "EC PRIVATE KEY" {
            try self.init(sec1DER: block.bytes)
        } else {
            try self.init(pkcs8DER: block.bytes)
        }
    }

    /// SEC1 `ECPrivateKey` DER with the curve and the public key.
    public var sec1DER: [UInt8] {
        DER.sequence([
            DER.integer(1), DER.octetString(rawRepresentation), DER.explicit(0, DER.oid(.prime256v1)),
            DER.explicit(1, DER.bitString(publicKey.x963Representation)),
        ])
    }

    /// PKCS#8 `PrivateKeyInfo` DER, as `openssl genpkey` writes it.
    public var pkcs8DER: [UInt8] {
        let inner = DER.sequence([
            DER.integer(1), DER.octetString(rawRepresentation), DER.explicit(1, DER.bitString(publicKey.x963Representation)),
        ])
        return DER.sequence([
            DER.integer(0), DER.sequence([DER.oid(.ecPublicKey), DER.oid(.prime256v1)]), DER.octetString(inner),
        ])
    }

    /// `-----BEGIN EC PRIVATE KEY-----` text.
    public var sec1PEMRepresentation: String { PEM.encode(sec1DER, label: "EC PRIVATE KEY") }

    /// `-----BEGIN PRIVATE KEY-----` text.
    public var pkcs8PEMRepresentation: String { PEM.encode(pkcs8DER, label: "PRIVATE KEY") }
}
