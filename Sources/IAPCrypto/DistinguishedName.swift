/// An X.501 Name (a certificate's subject or issuer): relative distinguished names in encoded
/// order, each a set of attribute type/value pairs.
///
/// `description` lists the attributes in encoded order, `CN=...,O=...` (Apple and openssl put
/// CN first), with RFC 4514 escaping. Chain building matches names by `der`, the exact bytes,
/// which is what issuer and subject fields of certificates from one CA share.
public struct DistinguishedName: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// One attribute: its type, its text (or `#hex` of the DER when not a string) and the raw DER.
    public struct Attribute: Sendable, Equatable, Hashable {
        public let type: OID
        public let value: String
        public let valueDER: [UInt8]
    }

    /// The RDNs in encoded order; each is usually a single attribute.
    public let relativeNames: [[Attribute]]
    /// The exact `Name` encoding.
    public let der: [UInt8]

    /// Parses a `Name` element (a SEQUENCE OF SET OF AttributeTypeAndValue).
    public init(element: ASN1Element) throws(ASN1Error) {
        try element.expect(.sequence, "a Name SEQUENCE")
        var names: [[Attribute]] = []
        for rdn in element.children {
            try rdn.expect(.set, "a RelativeDistinguishedName SET")
            guard !rdn.children.isEmpty else {
                throw ASN1Error(offset: rdn.offset, expected: "a non-empty RelativeDistinguishedName")
            }
            var attributes: [Attribute] = []
            for pair in rdn.children {
                try pair.expect(.sequence, "an AttributeTypeAndValue SEQUENCE")
                guard pair.children.count == 2 else {
                    throw ASN1Error(offset: pair.contentOffset, expected: "an attribute type and one value")
                }
                let type = try pair.children[0].oidValue()
                let valueElement = pair.children[1]
                let text = (try? valueElement.stringValue()) ?? "#" + Hex.encode(valueElement.encoded)
                attributes.append(Attribute(type: type, value: text, valueDER: valueElement.encoded))
            }
            names.append(attributes)
        }
        relativeNames = names
        der = element.encoded
    }

    /// Parses `Name` DER.
    public init(der bytes: [UInt8]) throws(ASN1Error) {
        try self.init(element: try ASN1Element(der: bytes))
    }

    /// Builds a name of single-attribute RDNs with UTF8String values, in the given order.
    public init(_ attributes: [(OID, String)]) {
        relativeNames = attributes.map { type, value in
            [Attribute(type: type, value: value, valueDER: DER.utf8String(value))]
        }
        der = DER.sequence(
            relativeNames.map { rdn in DER.set(rdn.map { DER.sequence([DER.oid($0.type), $0.valueDER]) }) })
    }

    /// The first value of an attribute type, e.g. `attribute(.commonName)`.
    public func attribute(_ type: OID) -> String? {
        relativeNames.lazy.flatMap { $0 }.first { $0.type == type }?.value
    }

    public var commonName: String? { attribute(.commonName) }

    public var description: String {
        relativeNames.map { rdn in
            rdn.map { "\(Self.shortName($0.type))=\(Self.escape($0.value))" }.joined(separator: "+")
        }.joined(separator: ",")
    }

    static func shortName(_ type: OID) -> String {
        switch type.description {
        case "2.5.4.3": return "CN"
        case "2.5.4.6": return "C"
        case "2.5.4.7": return "L"
        case "2.5.4.8": return "ST"
        case "2.5.4.9": return "STREET"
        case "2.5.4.10": return "O"
        case "2.5.4.11": return "OU"
        case "2.5.4.5": return "serialNumber"
        case "0.9.2342.19200300.100.1.25": return "DC"
        case "0.9.2342.19200300.100.1.1": return "UID"
        case "1.2.840.113549.1.9.1": return "emailAddress"
        default: return type.description
        }
    }

    /// RFC 4514 section 2.4 escaping (hex values from `#` are left as they are).
    static func escape(_ value: String) -> String {
        if value.hasPrefix("#"), value.dropFirst().allSatisfy(\.isHexDigit), value.count > 1 { return value }
        var out = ""
        let scalars = Array(value.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case ",", "+", "\"", "\\", "<", ">", ";": out += "\\" + String(scalar)
            case "#" where i == 0: out += "\\#"
            case " " where i == 0 || i == scalars.count - 1: out += "\\ "
            case "\u{0}": out += "\\00"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
