import IAPTime

/// A DER writer: each function returns one complete TLV, and constructed values take their
/// children's encodings, so a structure is written as nested calls that mirror its ASN.1:
///
///     DER.sequence([DER.integer(1), DER.oid(.ecPublicKey), DER.explicit(0, DER.null())])
///
/// Receipts and certificates are signed over these exact bytes, so the output is canonical:
/// minimal lengths and integers, SET OF elements sorted, times in the RFC 5280 forms.
public enum DER {
    /// A TLV with the given tag and content octets.
    public static func element(_ tag: ASN1Tag, content: [UInt8]) -> [UInt8] {
        tag.encoded + length(content.count) + content
    }

    /// The definite length octets: short form below 128, otherwise the fewest bytes.
    public static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var n = count
        while n > 0 {
            bytes.insert(UInt8(n & 0xFF), at: 0)
            n >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    public static func sequence(_ elements: [[UInt8]]) -> [UInt8] {
        element(.sequence, content: elements.flatMap { $0 })
    }

    /// A SET OF, with the elements sorted by their encodings as X.690 section 11.6 requires
    /// (the receipt payload is a SET, and its signature covers this order).
    public static func set(_ elements: [[UInt8]]) -> [UInt8] {
        let sorted = elements.sorted { a, b in
            for (x, y) in zip(a, b) where x != y { return x < y }
            return a.count < b.count
        }
        return element(.set, content: sorted.flatMap { $0 })
    }

    public static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var v = value
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: v), at: 0)
            v >>= 8
        } while !(v == 0 && bytes[0] & 0x80 == 0) && !(v == -1 && bytes[0] & 0x80 != 0)
        return element(.integer, content: bytes)
    }

    /// A non-negative INTEGER from big-endian magnitude bytes: leading zeros are stripped and a
    /// zero sign byte added when the top bit is set, so `[0xFF]` encodes 255, not -1.
    public static func integer(bigEndian magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return element(.integer, content: bytes)
    }

    public static func oid(_ oid: OID) -> [UInt8] { element(.objectIdentifier, content: oid.derContent) }

    /// An OBJECT IDENTIFIER from dotted text; throws on malformed text.
    public static func oid(dotted: String) throws(ASN1Error) -> [UInt8] { oid(try OID(dotted)) }

    public static func null() -> [UInt8] { [0x05, 0x00] }

    /// A BOOLEAN; DER requires 0xFF for true.
    public static func boolean(_ value: Bool) -> [UInt8] { [0x01, 0x01, value ? 0xFF : 0x00] }

    public static func octetString(_ bytes: [UInt8]) -> [UInt8] { element(.octetString, content: bytes) }

    /// A BIT STRING; `unusedBits` (0-7) of the last byte are zeroed as DER requires.
    public static func bitString(_ bytes: [UInt8], unusedBits: Int = 0) -> [UInt8] {
        let unused = bytes.isEmpty ? 0 : max(0, min(7, unusedBits))
        var body = bytes
        if unused > 0 { body[body.count - 1] &= ~UInt8((1 << unused) - 1) }
        return element(.bitString, content: [UInt8(unused)] + body)
    }

    public static func utf8String(_ text: String) -> [UInt8] { element(.utf8String, content: Array(text.utf8)) }

    /// An IA5String (ASCII); receipt dates are written this way.
    public static func ia5String(_ text: String) throws(ASN1Error) -> [UInt8] {
        let bytes = Array(text.utf8)
        if let bad = bytes.firstIndex(where: { $0 >= 0x80 }) {
            throw ASN1Error(offset: bad, expected: "an ASCII character for an IA5String")
        }
        return element(.ia5String, content: bytes)
    }

    /// A PrintableString (letters, digits, space and `'()+,-./:=?`).
    public static func printableString(_ text: String) throws(ASN1Error) -> [UInt8] {
        let allowed = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?".utf8))
        let bytes = Array(text.utf8)
        if let bad = bytes.firstIndex(where: { !allowed.contains($0) }) {
            throw ASN1Error(offset: bad, expected: "a PrintableString character")
        }
        return element(.printableString, content: bytes)
    }

    /// A UTCTime, which can only hold 1950 through 2049.
    public static func utcTime(_ time: Timestamp) throws(ASN1Error) -> [UInt8] {
        guard let text = ASN1Time.utcText(time) else {
            throw ASN1Error(offset: 0, expected: "a year from 1950 to 2049 for UTCTime")
        }
        return element(.utcTime, content: text)
    }

    public static func generalizedTime(_ time: Timestamp) throws(ASN1Error) -> [UInt8] {
        guard let text = ASN1Time.generalizedText(time) else {
            throw ASN1Error(offset: 0, expected: "a year from 0000 to 9999 for GeneralizedTime")
        }
        return element(.generalizedTime, content: text)
    }

    /// Certificate validity time (RFC 5280 section 4.1.2.5): UTCTime through 2049, GeneralizedTime after.
    public static func certificateTime(_ time: Timestamp) throws(ASN1Error) -> [UInt8] {
        let year = CivilTime(time).year
        return year >= 1950 && year <= 2049 ? try utcTime(time) : try generalizedTime(time)
    }

    /// `[number] EXPLICIT`: a constructed tag wrapping a whole encoded element.
    public static func explicit(
        _ number: Int, _ encoded: [UInt8], tagClass: ASN1Tag.TagClass = .contextSpecific
    ) -> [UInt8] {
        element(ASN1Tag(tagClass, number, constructed: true), content: encoded)
    }

    /// `[number] IMPLICIT`: replaces the identifier of an encoded element, keeping its form and content.
    public static func implicit(
        _ number: Int, _ encoded: [UInt8], tagClass: ASN1Tag.TagClass = .contextSpecific
    ) -> [UInt8] {
        guard let first = encoded.first else { return element(ASN1Tag(tagClass, number, constructed: false), content: []) }
        var identifierLength = 1
        if first & 0x1F == 0x1F {
            while identifierLength < encoded.count, encoded[identifierLength] & 0x80 != 0 { identifierLength += 1 }
            identifierLength = min(identifierLength + 1, encoded.count)
        }
        let tag = ASN1Tag(tagClass, number, constructed: first & 0x20 != 0)
        return tag.encoded + encoded[identifierLength...]
    }

    /// Bytes that are already a DER encoding, passed through (e.g. a parsed certificate).
    public static func raw(_ encoded: [UInt8]) -> [UInt8] { encoded }
}
