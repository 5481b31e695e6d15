import IAPTime

/// An X.509 v1-v3 certificate (RFC 5280), parsed from DER: enough to check the signing chains of
/// receipts (PKCS#7) and StoreKit 2 JWS headers (`x5c`), and to read the fields a human wants to
/// see when such a check fails.
public struct Certificate: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The whole certificate as given.
    public let der: [UInt8]
    /// The exact TBSCertificate bytes, which the issuer's signature covers.
    public let tbsBytes: [UInt8]
    /// 1, 2 or 3.
    public let version: Int
    /// The serial number's INTEGER content (two's complement, as encoded).
    public let serialNumber: [UInt8]
    public let issuer: DistinguishedName
    public let subject: DistinguishedName
    public let notBefore: Timestamp
    public let notAfter: Timestamp
    public let publicKey: SubjectPublicKeyInfo
    /// Extensions in certificate order.
    public let extensions: [CertificateExtension]
    /// The decoded basicConstraints extension, if present.
    public let basicConstraints: BasicConstraints?
    /// The outer signatureAlgorithm OID (equal to the one inside the TBSCertificate).
    public let signatureAlgorithm: OID
    /// The signatureValue bytes (DER `SEQUENCE { r, s }` for ECDSA, the raw block for RSA).
    public let signature: [UInt8]

    /// Parses a DER certificate.
    ///
    /// - Throws: `ASN1Error` with the offset in `der` of the first field that is wrong.
    public init(der bytes: [UInt8]) throws(ASN1Error) {
        let certificate = try ASN1Element(der: bytes).expect(.sequence, "a Certificate SEQUENCE")
        guard certificate.children.count == 3 else {
            throw ASN1Error(offset: certificate.contentOffset, expected: "tbsCertificate, signatureAlgorithm and signatureValue")
        }
        let tbs = try certificate.children[0].expect(.sequence, "a TBSCertificate SEQUENCE")
        let outerAlgorithm = try Self.algorithm(certificate.children[1])
        signature = try certificate.children[2].bitStringBytes()
        signatureAlgorithm = outerAlgorithm
        der = bytes
        tbsBytes = tbs.encoded

        var fields = tbs.children[...]
        func next(_ what: String) throws(ASN1Error) -> ASN1Element {
            guard let element = fields.first else { throw ASN1Error(offset: tbs.endOffset, expected: what) }
            fields = fields.dropFirst()
            return element
        }
        var versionNumber = 1
        if let first = fields.first, first.tag == .contextSpecific(0) {
            fields = fields.dropFirst()
            let value = try first.child(0, "a version INTEGER").intValue()
            guard (0...2).contains(value) else { throw ASN1Error(offset: first.offset, expected: "version v1, v2 or v3") }
            versionNumber = value + 1
        }
        version = versionNumber
        serialNumber = try next("a serialNumber INTEGER").integerBytes()
        let innerAlgorithmElement = try next("a signature AlgorithmIdentifier")
        guard try Self.algorithm(innerAlgorithmElement) == outerAlgorithm else {
            throw ASN1Error(offset: innerAlgorithmElement.offset, expected: "the same signature algorithm as the outer one")
        }
        issuer = try DistinguishedName(element: try next("an issuer Name"))
        let validity = try next("a Validity SEQUENCE").expect(.sequence, "a Validity SEQUENCE")
        notBefore = try validity.child(0, "a notBefore time").timeValue()
        notAfter = try validity.child(1, "a notAfter time").timeValue()
        subject = try DistinguishedName(element: try next("a subject Name"))
        publicKey = try SubjectPublicKeyInfo(element: try next("a SubjectPublicKeyInfo"))
        var parsedExtensions: [CertificateExtension] = []
        var constraints: BasicConstraints?
        while let field = fields.first {
            fields = fields.dropFirst()
            switch field.tag {
            case .contextSpecific(1, constructed: false), .contextSpecific(2, constructed: false):
                continue  // issuerUniqueID, subjectUniqueID
            case .contextSpecific(3):
                guard versionNumber == 3 else {
                    throw ASN1Error(offset: field.offset, expected: "extensions only in a v3 certificate")
                }
                let list = try field.child(0, "an Extensions SEQUENCE").expect(.sequence, "an Extensions SEQUENCE")
                for item in list.children {
                    try item.expect(.sequence, "an Extension SEQUENCE")
                    let oid = try item.child(0, "an extnID OID").oidValue()
                    var critical = false
                    var valueIndex = 1
                    if item.children.count == 3 {
                        critical = try item.children[1].boolValue()
                        valueIndex = 2
                    }
                    let valueElement = try item.child(valueIndex, "an extnValue OCTET STRING")
                    guard item.children.count == valueIndex + 1 else {
                        throw ASN1Error(offset: item.children[valueIndex + 1].offset, expected: "the end of the Extension")
                    }
                    let value = try valueElement.octetStringValue()
                    guard !parsedExtensions.contains(where: { $0.oid == oid }) else {
                        throw ASN1Error(offset: item.offset, expected: "at most one \(oid) extension")
                    }
                    if oid == .basicConstraints {
                        constraints = try BasicConstraints(der: value, offset: valueElement.contentOffset)
                    }
                    parsedExtensions.append(CertificateExtension(oid: oid, isCritical: critical, value: value))
                }
            default:
                throw ASN1Error(offset: field.offset, expected: "[1], [2] or [3] extensions after the public key")
            }
        }
        extensions = parsedExtensions
        basicConstraints = constraints
    }

    /// The first `CERTIFICATE` block of PEM text. Throws `PEMError` or `ASN1Error`.
    public init(pemRepresentation text: String) throws {
        try self.init(der: try PEM.decode(text, labels: ["CERTIFICATE"]).bytes)
    }

    /// Every `CERTIFICATE` block of PEM text, in order (a chain file).
    public static func all(pemRepresentation text: String) throws -> [Certificate] {
        var certificates: [Certificate] = []
        for block in try PEM.decode(text) where block.label == "CERTIFICATE" {
            certificates.append(try Certificate(der: block.bytes))
        }
        return certificates
    }

    public var pemRepresentation: String { PEM.encode(der, label: "CERTIFICATE") }

    private static func algorithm(_ element: ASN1Element) throws(ASN1Error) -> OID {
        try element.expect(.sequence, "an AlgorithmIdentifier SEQUENCE")
        let oid = try element.child(0, "an algorithm OID").oidValue()
        if element.children.count > 1 {
            guard element.children.count == 2 else {
                throw ASN1Error(offset: element.children[2].offset, expected: "the end of the AlgorithmIdentifier")
            }
            // RSA signature algorithms carry NULL parameters; ECDSA ones none (RFC 5758 section 3.2).
            if case .rsaPKCS1? = SignatureAlgorithm(oid: oid) { try element.children[1].nullValue() }
        }
        return oid
    }

    /// The serial number as lowercase hex of its encoded bytes.
    public var serialNumberHex: String { Hex.encode(serialNumber) }

    /// OIDs of all extensions, in certificate order.
    public var extensionOIDs: [OID] { extensions.map(\.oid) }

    /// Whether an extension with `oid` is present (Apple's marker OIDs).
    public func hasExtension(_ oid: OID) -> Bool { extensions.contains { $0.oid == oid } }

    /// The value of the extension with `oid`, if present.
    public func extensionValue(_ oid: OID) -> [UInt8]? { extensions.first { $0.oid == oid }?.value }

    /// True when basicConstraints says cA.
    public var isCA: Bool { basicConstraints?.isCA ?? false }

    /// Whether `time` lies within notBefore...notAfter (both inclusive, RFC 5280 section 4.1.2.5).
    public func isValid(at time: Timestamp) -> Bool { notBefore <= time && time <= notAfter }

    /// The signature algorithm, when iapctl can check it (ecdsa-with-SHA256/384/512 and
    /// sha1/256/384/512WithRSAEncryption).
    public var signatureScheme: SignatureAlgorithm? { SignatureAlgorithm(oid: signatureAlgorithm) }

    /// Whether `issuer`'s public key verifies this certificate's signature over its TBSCertificate:
    /// ECDSA with SHA-256, SHA-384 or SHA-512 by a P-256 or P-384 issuer (Apple Root CA - G3 and
    /// WWDR G6 sign with ecdsa-with-SHA384), RSA PKCS#1 v1.5 with SHA-1, SHA-256, SHA-384 or SHA-512
    /// by an RSA issuer (Apple Inc. Root and the WWDR intermediates of receipts). Any other
    /// algorithm, or a key that does not fit it, gives false. Names are not compared here.
    public func isSigned(by issuer: Certificate) -> Bool {
        guard let scheme = signatureScheme else { return false }
        return issuer.publicKey.isValidSignature(signature, for: tbsBytes, algorithm: scheme)
    }

    /// Apple's marker extensions this certificate carries, by name: `appleReceiptSigner`
    /// (1.2.840.113635.100.6.11.1, the App Store and receipt signing leaf) and
    /// `appleWWDRIntermediate` (1.2.840.113635.100.6.2.1, the WWDR intermediates).
    public var appleMarkers: [OID] { [OID.appleReceiptSigner, .appleWWDRIntermediate].filter(hasExtension) }

    public var description: String {
        "Certificate(subject: \(subject), issuer: \(issuer), serial: \(serialNumberHex), \(notBefore)...\(notAfter))"
    }

    public static func == (a: Certificate, b: Certificate) -> Bool { a.der == b.der }

    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}
