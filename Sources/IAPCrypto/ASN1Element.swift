import IAPTime

/// One parsed ASN.1 TLV and, when constructed, its children: the tree the receipt, certificate and
/// key decoders walk. It keeps a reference to the whole input instead of copying, and records
/// where it came from (`offset`) so that a decoder above can say where a receipt went wrong.
///
/// BER is accepted because Xcode's StoreKit test receipts use indefinite lengths and segmented
/// (constructed) OCTET STRINGs; `init(der:)` insists on the distinguished encoding instead.
public struct ASN1Element: Sendable {
    /// Which encoding rules the reader enforces.
    public enum Rules: Sendable {
        /// Indefinite lengths, long-form lengths and constructed strings allowed.
        case ber
        /// Definite minimal lengths and primitive strings only.
        case der
    }

    /// The default limit on nesting; real certificates and receipts stay below 12 levels.
    /// Larger `maxDepth` arguments are capped at 1000.
    public static let defaultMaxDepth = 64

    public let tag: ASN1Tag
    /// Offset of the identifier octet in the parsed input.
    public let offset: Int
    /// Identifier plus length octets.
    public let headerLength: Int
    /// True when the length was the BER indefinite form, ended by an end-of-contents marker.
    public let isIndefiniteLength: Bool
    /// Parsed children of a constructed element, in order; empty for a primitive one.
    public let children: [ASN1Element]

    let input: [UInt8]
    let contentRange: Range<Int>
    /// Offset just after this element (after its end-of-contents marker, if any).
    public let endOffset: Int

    init(
        tag: ASN1Tag, offset: Int, headerLength: Int, isIndefiniteLength: Bool, children: [ASN1Element],
        input: [UInt8], contentRange: Range<Int>, endOffset: Int
    ) {
        self.tag = tag
        self.offset = offset
        self.headerLength = headerLength
        self.isIndefiniteLength = isIndefiniteLength
        self.children = children
        self.input = input
        self.contentRange = contentRange
        self.endOffset = endOffset
    }

    /// Parses exactly one element spanning all of `bytes` under BER.
    public init(ber bytes: [UInt8], maxDepth: Int = ASN1Element.defaultMaxDepth) throws(ASN1Error) {
        self = try ASN1Parser(input: bytes, rules: .ber, maxDepth: maxDepth).parseWhole()
    }

    /// Parses exactly one element spanning all of `bytes` under DER.
    public init(der bytes: [UInt8], maxDepth: Int = ASN1Element.defaultMaxDepth) throws(ASN1Error) {
        self = try ASN1Parser(input: bytes, rules: .der, maxDepth: maxDepth).parseWhole()
    }

    /// Parses exactly one element spanning all of `bytes`.
    public init(_ bytes: [UInt8], rules: Rules, maxDepth: Int = ASN1Element.defaultMaxDepth) throws(ASN1Error) {
        self = try ASN1Parser(input: bytes, rules: rules, maxDepth: maxDepth).parseWhole()
    }

    /// Offset of the first content octet.
    public var contentOffset: Int { contentRange.lowerBound }

    /// The content octets as they appear in the input (for an indefinite-length element, the
    /// children's encodings without the end-of-contents marker).
    public var content: [UInt8] { Array(input[contentRange]) }

    /// The whole TLV as it appears in the input: what a signature over a TBSCertificate covers.
    public var encoded: [UInt8] { Array(input[offset..<endOffset]) }

    /// The value of a string type, whichever BER form carried it: the primitive content, or the
    /// concatenated values of the segments of a constructed string.
    public var octets: [UInt8] {
        if !tag.isConstructed { return content }
        var out: [UInt8] = []
        for child in children { out += child.octets }
        return out
    }

    // MARK: - Navigation

    /// Throws unless this element has `tag`; `what` names it in the error ("a SEQUENCE").
    @discardableResult
    public func expect(_ tag: ASN1Tag, _ what: String) throws(ASN1Error) -> ASN1Element {
        guard self.tag == tag else { throw ASN1Error(offset: offset, expected: what) }
        return self
    }

    /// Throws unless this element has `tag` in either form (strings may be segmented in BER).
    @discardableResult
    public func expectString(_ tag: ASN1Tag, _ what: String) throws(ASN1Error) -> ASN1Element {
        guard self.tag.tagClass == tag.tagClass, self.tag.number == tag.number else {
            throw ASN1Error(offset: offset, expected: what)
        }
        return self
    }

    /// The child at `index`, or an error naming what was expected there.
    public func child(_ index: Int, _ what: String) throws(ASN1Error) -> ASN1Element {
        guard index >= 0, index < children.count else {
            let at = index > 0 && index - 1 < children.count ? children[index - 1].endOffset : contentOffset
            throw ASN1Error(offset: min(at, contentRange.upperBound), expected: what)
        }
        return children[index]
    }

    /// The first child whose tag is `tag`, if any (for OPTIONAL fields such as `[3] extensions`).
    public func firstChild(tagged tag: ASN1Tag) -> ASN1Element? { children.first { $0.tag == tag } }

    // MARK: - Values

    /// The two's-complement content of an INTEGER or ENUMERATED.
    public func integerBytes() throws(ASN1Error) -> [UInt8] {
        guard tag == .integer || tag == .enumerated else { throw ASN1Error(offset: offset, expected: "an INTEGER") }
        guard !contentRange.isEmpty else { throw ASN1Error(offset: contentOffset, expected: "at least one INTEGER byte") }
        return content
    }

    /// The magnitude of a non-negative INTEGER, big-endian without leading zeros (empty for 0):
    /// RSA moduli, ECDSA r and s, serial numbers.
    public func unsignedIntegerBytes() throws(ASN1Error) -> [UInt8] {
        let bytes = try integerBytes()
        guard bytes[0] & 0x80 == 0 else { throw ASN1Error(offset: contentOffset, expected: "a non-negative INTEGER") }
        return Array(bytes.drop { $0 == 0 })
    }

    /// An INTEGER that fits in `Int`.
    public func intValue() throws(ASN1Error) -> Int {
        let bytes = try integerBytes()
        let negative = bytes[0] & 0x80 != 0
        if bytes.count > 8 {
            let fill: UInt8 = negative ? 0xFF : 0
            guard bytes.dropLast(8).allSatisfy({ $0 == fill }), (bytes[bytes.count - 8] & 0x80 != 0) == negative else {
                throw ASN1Error(offset: contentOffset, expected: "an INTEGER that fits in 64 bits")
            }
        }
        var value: Int = negative ? -1 : 0
        for b in bytes.suffix(8) { value = value << 8 | Int(b) }
        return value
    }

    /// A BOOLEAN (any non-zero byte is true under BER; DER writers use 0xFF).
    public func boolValue() throws(ASN1Error) -> Bool {
        try expect(.boolean, "a BOOLEAN")
        guard contentRange.count == 1 else { throw ASN1Error(offset: contentOffset, expected: "a one-byte BOOLEAN") }
        return input[contentRange.lowerBound] != 0
    }

    /// Checks for NULL with empty content (AlgorithmIdentifier parameters, Apple's marker extensions).
    public func nullValue() throws(ASN1Error) {
        try expect(.null, "a NULL")
        guard contentRange.isEmpty else { throw ASN1Error(offset: contentOffset, expected: "an empty NULL") }
    }

    public func oidValue() throws(ASN1Error) -> OID {
        try expect(.objectIdentifier, "an OBJECT IDENTIFIER")
        return try OID(derContent: content, offset: contentOffset)
    }

    /// The value of an OCTET STRING, primitive or segmented.
    public func octetStringValue() throws(ASN1Error) -> [UInt8] {
        try expectString(.octetString, "an OCTET STRING")
        return octets
    }

    /// A BIT STRING's bytes and the count of unused bits in the last byte.
    public func bitStringValue() throws(ASN1Error) -> (bytes: [UInt8], unusedBits: Int) {
        try expectString(.bitString, "a BIT STRING")
        if tag.isConstructed {
            var bytes: [UInt8] = []
            var unused = 0
            for (i, segment) in children.enumerated() {
                let (part, partUnused) = try segment.bitStringValue()
                guard partUnused == 0 || i == children.count - 1 else {
                    throw ASN1Error(offset: segment.contentOffset, expected: "unused bits only in the last segment")
                }
                bytes += part
                unused = partUnused
            }
            return (bytes, unused)
        }
        guard let unused = content.first else {
            throw ASN1Error(offset: contentOffset, expected: "the unused-bits byte of a BIT STRING")
        }
        guard unused < 8, unused == 0 || contentRange.count > 1 else {
            throw ASN1Error(offset: contentOffset, expected: "an unused-bits count of 0 to 7 (0 when empty)")
        }
        return (Array(input[(contentRange.lowerBound + 1)..<contentRange.upperBound]), Int(unused))
    }

    /// A BIT STRING holding whole bytes (keys, signatures).
    public func bitStringBytes() throws(ASN1Error) -> [UInt8] {
        let (bytes, unused) = try bitStringValue()
        guard unused == 0 else { throw ASN1Error(offset: contentOffset, expected: "a BIT STRING of whole bytes") }
        return bytes
    }

    /// The text of any ASN.1 character string type, validated for that type.
    public func stringValue() throws(ASN1Error) -> String {
        guard tag.tagClass == .universal else { throw ASN1Error(offset: offset, expected: "a character string") }
        let bytes = octets
        let start = contentOffset
        switch tag.number {
        case 12:
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw ASN1Error(offset: start, expected: "valid UTF-8 in a UTF8String")
            }
            return text
        case 18, 19, 22, 26:
            if let bad = bytes.firstIndex(where: { $0 >= 0x80 }) {
                throw ASN1Error(offset: start + bad, expected: "an ASCII character")
            }
            return String(decoding: bytes, as: UTF8.self)
        case 20:
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        case 30:
            guard bytes.count % 2 == 0 else { throw ASN1Error(offset: start, expected: "an even-length BMPString") }
            let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            guard let text = String(validating: units, as: UTF16.self) else {
                throw ASN1Error(offset: start, expected: "valid UTF-16 in a BMPString")
            }
            return text
        case 28:
            guard bytes.count % 4 == 0 else { throw ASN1Error(offset: start, expected: "a UniversalString of 4-byte characters") }
            var text = ""
            for i in stride(from: 0, to: bytes.count, by: 4) {
                let v = UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
                guard let scalar = Unicode.Scalar(v) else {
                    throw ASN1Error(offset: start + i, expected: "a Unicode scalar in a UniversalString")
                }
                text.unicodeScalars.append(scalar)
            }
            return text
        default:
            throw ASN1Error(offset: offset, expected: "a character string")
        }
    }

    /// A UTCTime (RFC 5280: years 1950-2049) or GeneralizedTime, which must end in `Z`.
    public func timeValue() throws(ASN1Error) -> Timestamp {
        guard tag == .utcTime || tag == .generalizedTime else {
            throw ASN1Error(offset: offset, expected: "a UTCTime or GeneralizedTime")
        }
        return try ASN1Time.parse(content, utc: tag == .utcTime, offset: contentOffset)
    }
}
