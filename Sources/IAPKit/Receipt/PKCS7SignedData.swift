import IAPCrypto

/// The PKCS#7 / CMS envelope of an app receipt (RFC 5652; REFERENCE section 5):
///
///     ContentInfo ::= SEQUENCE { contentType signedData, [0] EXPLICIT SignedData }
///     SignedData  ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo
///                                { data, [0] EXPLICIT OCTET STRING payload },
///                                [0] IMPLICIT certificates OPTIONAL, [1] crls OPTIONAL,
///                                signerInfos SET }
///
/// iapctl writes DER signed by the store's leaf with ecdsa-with-SHA256 over the payload (no
/// signed attributes, as Apple's receipts have none), embedding the leaf and the intermediate.
/// It reads BER too: Xcode's receipts use indefinite lengths and a segmented payload.
public struct PKCS7SignedData: Sendable {
    public var digestAlgorithms: [OID]
    public var contentType: OID
    /// The signed content: the receipt payload.
    public var content: [UInt8]
    /// Where the payload's bytes sit in the receipt, for error offsets.
    var contentOffsets: PayloadOffsets
    /// The offset of the payload's OCTET STRING element (what `openssl asn1parse -strparse` takes).
    public var contentElementOffset: Int
    public var certificates: [Certificate]
    public var signers: [SignerInfo]
    /// Whether the receipt used BER-only forms (indefinite lengths), as Xcode's do.
    public var usesIndefiniteLengths: Bool

    /// One `SignerInfo`: who signed (issuer and serial of the signer's certificate) and how.
    public struct SignerInfo: Sendable {
        public var version: Int
        /// The DER of the issuer Name and the serial INTEGER content (issuerAndSerialNumber).
        public var issuer: [UInt8]?
        public var serialNumber: [UInt8]?
        /// `[0] subjectKeyIdentifier` (version 3 signers).
        public var subjectKeyIdentifier: [UInt8]?
        public var digestAlgorithm: OID
        /// The signed attributes re-tagged as a SET, which is what the signature covers when present.
        public var signedAttributes: [UInt8]?
        /// The messageDigest signed attribute, if any.
        public var messageDigest: [UInt8]?
        public var signatureAlgorithm: OID
        public var signature: [UInt8]
    }

    static let messageDigestOID = OID(validated: [1, 2, 840, 113_549, 1, 9, 4])

    // MARK: - Reading

    /// Parses a receipt's envelope (BER or DER); errors name the byte offset and what was expected.
    public static func parse(_ bytes: [UInt8]) throws(ReceiptError) -> PKCS7SignedData {
        do {
            return try parseElements(bytes)
        } catch {
            throw ReceiptError(error)
        }
    }

    private static func parseElements(_ bytes: [UInt8]) throws(ASN1Error) -> PKCS7SignedData {
        guard let first = bytes.first else { throw ASN1Error(offset: 0, expected: "a receipt (the input is empty)") }
        guard first == 0x30 else { throw ASN1Error(offset: 0, expected: "a PKCS#7 ContentInfo SEQUENCE (byte 0x30)") }
        let info = try ASN1Element(ber: bytes, maxDepth: 32)
        try info.expect(.sequence, "a PKCS#7 ContentInfo SEQUENCE")
        let type = try info.child(0, "the ContentInfo's contentType OID")
        guard try type.oidValue() == .pkcs7SignedData else {
            throw ASN1Error(
                offset: type.offset, expected: "the signedData OID 1.2.840.113549.1.7.2 (found \(try type.oidValue()))")
        }
        let explicit = try info.child(1, "[0] EXPLICIT SignedData")
        try explicit.expect(.contextSpecific(0), "[0] EXPLICIT SignedData")
        let signedData = try explicit.child(0, "a SignedData SEQUENCE")
        try signedData.expect(.sequence, "a SignedData SEQUENCE")
        var index = 0
        func next(_ what: String) throws(ASN1Error) -> ASN1Element {
            let e = try signedData.child(index, what)
            index += 1
            return e
        }
        _ = try next("the SignedData version INTEGER").intValue()
        let digestSet = try next("the digestAlgorithms SET")
        try digestSet.expect(.set, "the digestAlgorithms SET")
        let digests = try digestSet.children.map { e throws(ASN1Error) in try algorithm(e) }
        let encap = try next("the encapContentInfo SEQUENCE")
        try encap.expect(.sequence, "the encapContentInfo SEQUENCE")
        let contentType = try encap.child(0, "the eContentType OID").oidValue()
        guard contentType == .pkcs7Data else {
            throw ASN1Error(
                offset: encap.children[0].offset, expected: "the data OID 1.2.840.113549.1.7.1 (found \(contentType))")
        }
        let wrapper = try encap.child(1, "[0] EXPLICIT eContent (the receipt payload)")
        try wrapper.expect(.contextSpecific(0), "[0] EXPLICIT eContent (the receipt payload)")
        let octets = try wrapper.child(0, "the payload OCTET STRING")
        try octets.expectString(.octetString, "the payload OCTET STRING")
        var certificates: [Certificate] = []
        var field = try next("the certificates or the signerInfos SET")
        if field.tag == .contextSpecific(0) {
            for child in field.children {
                do {
                    certificates.append(try Certificate(der: child.encoded))
                } catch {
                    throw ASN1Error(offset: child.offset + error.offset, expected: "\(error.expected) in an embedded certificate")
                }
            }
            field = try next("the signerInfos SET")
        }
        if field.tag == .contextSpecific(1) { field = try next("the signerInfos SET") }
        try field.expect(.set, "the signerInfos SET")
        let signers = try field.children.map { e throws(ASN1Error) in try signerInfo(e) }
        guard index == signedData.children.count else {
            throw ASN1Error(offset: signedData.children[index].offset, expected: "the end of SignedData after signerInfos")
        }
        return PKCS7SignedData(
            digestAlgorithms: digests, contentType: contentType, content: octets.octets,
            contentOffsets: offsets(of: octets), contentElementOffset: octets.offset, certificates: certificates,
            signers: signers,
            usesIndefiniteLengths: info.isIndefiniteLength)
    }

    /// The receipt offsets of a (possibly segmented) OCTET STRING's value bytes.
    private static func offsets(of octets: ASN1Element) -> PayloadOffsets {
        var segments: [(payload: Int, file: Int)] = []
        var position = 0
        func walk(_ e: ASN1Element) {
            if e.tag.isConstructed {
                for child in e.children { walk(child) }
            } else {
                segments.append((position, e.contentOffset))
                position += e.content.count
            }
        }
        walk(octets)
        return PayloadOffsets(segments: segments.isEmpty ? [(0, octets.contentOffset)] : segments)
    }

    private static func algorithm(_ e: ASN1Element) throws(ASN1Error) -> OID {
        try e.expect(.sequence, "an AlgorithmIdentifier SEQUENCE")
        return try e.child(0, "an algorithm OID").oidValue()
    }

    private static func signerInfo(_ e: ASN1Element) throws(ASN1Error) -> SignerInfo {
        try e.expect(.sequence, "a SignerInfo SEQUENCE")
        var index = 0
        func next(_ what: String) throws(ASN1Error) -> ASN1Element {
            let child = try e.child(index, what)
            index += 1
            return child
        }
        let version = try next("the SignerInfo version INTEGER").intValue()
        let sid = try next("the signer identifier (issuerAndSerialNumber)")
        var issuer: [UInt8]?
        var serial: [UInt8]?
        var keyID: [UInt8]?
        if sid.tag == .sequence {
            let name = try sid.child(0, "the issuer Name")
            try name.expect(.sequence, "the issuer Name SEQUENCE")
            issuer = name.encoded
            serial = try sid.child(1, "the serialNumber INTEGER").integerBytes()
        } else if sid.tag.tagClass == .contextSpecific && sid.tag.number == 0 {
            keyID = sid.octets
        } else {
            throw ASN1Error(offset: sid.offset, expected: "issuerAndSerialNumber or [0] subjectKeyIdentifier")
        }
        let digest = try algorithm(try next("the digestAlgorithm"))
        var field = try next("the signatureAlgorithm")
        var signedAttributes: [UInt8]?
        var messageDigest: [UInt8]?
        if field.tag == .contextSpecific(0) {
            // The signature covers the attributes' DER with the SET tag, not the [0] tag.
            signedAttributes = [0x31] + field.encoded.dropFirst()
            for attribute in field.children {
                try attribute.expect(.sequence, "a signed attribute SEQUENCE")
                if try attribute.child(0, "an attribute type OID").oidValue() == messageDigestOID {
                    let values = try attribute.child(1, "the messageDigest SET")
                    messageDigest = try values.child(0, "the messageDigest OCTET STRING").octetStringValue()
                }
            }
            field = try next("the signatureAlgorithm")
        }
        let signatureAlgorithm = try algorithm(field)
        let signature = try next("the signature OCTET STRING").octetStringValue()
        return SignerInfo(
            version: version, issuer: issuer, serialNumber: serial, subjectKeyIdentifier: keyID, digestAlgorithm: digest,
            signedAttributes: signedAttributes, messageDigest: messageDigest, signatureAlgorithm: signatureAlgorithm,
            signature: signature)
    }

    // MARK: - Writing

    /// The DER envelope of `content`, signed by `identity`'s leaf: ECDSA P-256 with SHA-256 and
    /// RFC 6979 nonces, so the same content always gives the same bytes.
    public static func sign(_ content: [UInt8], with identity: SigningIdentity) -> [UInt8] {
        let signature = identity.privateKey.signature(for: content).derRepresentation
        let signer = DER.sequence([
            DER.integer(1),
            DER.sequence([identity.leaf.issuer.der, DER.element(.integer, content: identity.leaf.serialNumber)]),
            DER.sequence([DER.oid(.sha256)]),
            DER.sequence([DER.oid(.ecdsaWithSHA256)]),
            DER.octetString(signature),
        ])
        let signedData = DER.sequence([
            DER.integer(1),
            DER.set([DER.sequence([DER.oid(.sha256)])]),
            DER.sequence([DER.oid(.pkcs7Data), DER.explicit(0, DER.octetString(content))]),
            // Signer first, as Apple's receipts and openssl order them.
            DER.element(.contextSpecific(0), content: identity.leaf.der + identity.intermediate.der),
            DER.set([signer]),
        ])
        return DER.sequence([DER.oid(.pkcs7SignedData), DER.explicit(0, signedData)])
    }

    // MARK: - Names

    /// A readable name for a digest or signature algorithm OID.
    public static func algorithmName(_ oid: OID) -> String { SignatureAlgorithm.name(oid) }
}
