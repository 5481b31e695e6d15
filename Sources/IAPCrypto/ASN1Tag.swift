/// An ASN.1 identifier: class, number and the constructed flag (X.690 section 8.1.2). The flag is
/// part of the value because BER lets a string be sent either way and the reader has to know.
public struct ASN1Tag: Hashable, Sendable, CustomStringConvertible {
    /// The two class bits of an identifier octet.
    public enum TagClass: UInt8, Sendable, Hashable {
        case universal = 0
        case application = 1
        case contextSpecific = 2
        case `private` = 3
    }

    public var tagClass: TagClass
    public var number: Int
    public var isConstructed: Bool

    public init(_ tagClass: TagClass, _ number: Int, constructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    public static let boolean = universal(1)
    public static let integer = universal(2)
    public static let bitString = universal(3)
    public static let octetString = universal(4)
    public static let null = universal(5)
    public static let objectIdentifier = universal(6)
    public static let enumerated = universal(10)
    public static let utf8String = universal(12)
    public static let sequence = ASN1Tag(.universal, 16, constructed: true)
    public static let set = ASN1Tag(.universal, 17, constructed: true)
    public static let numericString = universal(18)
    public static let printableString = universal(19)
    public static let teletexString = universal(20)
    public static let ia5String = universal(22)
    public static let utcTime = universal(23)
    public static let generalizedTime = universal(24)
    public static let visibleString = universal(26)
    public static let universalString = universal(28)
    public static let bmpString = universal(30)

    /// A primitive universal tag.
    public static func universal(_ number: Int) -> ASN1Tag { ASN1Tag(.universal, number, constructed: false) }

    /// A context-specific tag (`[n]`), constructed by default as EXPLICIT tags always are.
    public static func contextSpecific(_ number: Int, constructed: Bool = true) -> ASN1Tag {
        ASN1Tag(.contextSpecific, number, constructed: constructed)
    }

    /// The same class and number with the other encoding form.
    public func constructed(_ flag: Bool) -> ASN1Tag { ASN1Tag(tagClass, number, constructed: flag) }

    /// Universal string and time types that BER allows in constructed (segmented) form.
    var isSegmentableString: Bool {
        tagClass == .universal && [3, 4, 12, 18, 19, 20, 21, 22, 25, 26, 27, 28, 30].contains(number)
    }

    /// The identifier octets (high-tag-number form from 31 up).
    public var encoded: [UInt8] {
        let first = tagClass.rawValue << 6 | (isConstructed ? 0x20 : 0)
        if number < 31 { return [first | UInt8(number)] }
        var groups: [UInt8] = []
        var n = number
        repeat {
            groups.insert(UInt8(n & 0x7F) | (groups.isEmpty ? 0 : 0x80), at: 0)
            n >>= 7
        } while n > 0
        return [first | 0x1F] + groups
    }

    public var description: String { "\(name) (\(isConstructed ? "constructed" : "primitive"))" }

    /// The type name without the form: `SEQUENCE`, `[0]`, `[APPLICATION 3]`.
    public var name: String {
        switch tagClass {
        case .universal:
            let names: [Int: String] = [
                1: "BOOLEAN", 2: "INTEGER", 3: "BIT STRING", 4: "OCTET STRING", 5: "NULL", 6: "OBJECT IDENTIFIER",
                10: "ENUMERATED", 12: "UTF8String", 16: "SEQUENCE", 17: "SET", 18: "NumericString",
                19: "PrintableString", 20: "TeletexString", 22: "IA5String", 23: "UTCTime", 24: "GeneralizedTime",
                26: "VisibleString", 28: "UniversalString", 30: "BMPString",
            ]
            return names[number] ?? "universal \(number)"
        case .application: return "[APPLICATION \(number)]"
        case .contextSpecific: return "[\(number)]"
        case .private: return "[PRIVATE \(number)]"
        }
    }
}
