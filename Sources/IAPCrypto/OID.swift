/// An ASN.1 OBJECT IDENTIFIER, kept as its arcs. Named `OID` because Swift's standard library
/// already has an `ObjectIdentifier`. Certificates and receipts are recognised by these
/// (Apple's receipt signer marker is 1.2.840.113635.100.6.11.1), so they compare by value.
public struct OID: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The arcs, e.g. `[1, 2, 840, 10045, 2, 1]`.
    public let arcs: [UInt64]

    package init(validated arcs: [UInt64]) { self.arcs = arcs }

    /// Parses dotted-decimal text such as `1.2.840.113549.1.1.11`.
    ///
    /// - Throws: `ASN1Error` whose offset is the character index of the first bad character.
    public init(_ dotted: String) throws(ASN1Error) {
        let text = Array(dotted.utf8)
        var arcs: [UInt64] = []
        var current: UInt64 = 0
        var digits = 0
        for (i, c) in text.enumerated() {
            if c == UInt8(ascii: ".") {
                guard digits > 0 else { throw ASN1Error(offset: i, expected: "a digit before '.'") }
                arcs.append(current)
                (current, digits) = (0, 0)
                continue
            }
            guard c >= 0x30, c <= 0x39 else { throw ASN1Error(offset: i, expected: "a digit or '.'") }
            guard !(digits == 1 && current == 0) else { throw ASN1Error(offset: i, expected: "no leading zero in an arc") }
            let (times10, o1) = current.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(UInt64(c - 0x30))
            guard !o1, !o2 else { throw ASN1Error(offset: i, expected: "an arc below 2^64") }
            current = next
            digits += 1
        }
        guard digits > 0 else { throw ASN1Error(offset: text.count, expected: "a digit") }
        arcs.append(current)
        try self.init(arcs: arcs)
    }

    /// Validates the X.660 rules: at least two arcs, the first 0, 1 or 2, the second below 40
    /// under 0 and 1, and a first sub-identifier (40 * first + second) that fits 64 bits.
    public init(arcs: [UInt64]) throws(ASN1Error) {
        guard arcs.count >= 2 else { throw ASN1Error(offset: 0, expected: "an OID of at least two arcs") }
        guard arcs[0] <= 2 else { throw ASN1Error(offset: 0, expected: "a first arc of 0, 1 or 2") }
        guard arcs[0] == 2 || arcs[1] < 40 else { throw ASN1Error(offset: 0, expected: "a second arc below 40") }
        guard arcs[1] <= UInt64.max - 80 else { throw ASN1Error(offset: 0, expected: "a second arc below 2^64 - 80") }
        self.arcs = arcs
    }

    /// Decodes the content octets of an OBJECT IDENTIFIER; `offset` is where they start in the input.
    public init(derContent bytes: [UInt8], offset: Int = 0) throws(ASN1Error) {
        guard !bytes.isEmpty else { throw ASN1Error(offset: offset, expected: "a non-empty OBJECT IDENTIFIER") }
        var subidentifiers: [UInt64] = []
        var current: UInt64 = 0
        var started = false
        for (i, b) in bytes.enumerated() {
            if !started && b == 0x80 {
                throw ASN1Error(offset: offset + i, expected: "a sub-identifier without a leading 0x80 byte")
            }
            guard current >> 57 == 0 else { throw ASN1Error(offset: offset + i, expected: "a sub-identifier below 2^64") }
            current = current << 7 | UInt64(b & 0x7F)
            started = true
            if b & 0x80 == 0 {
                subidentifiers.append(current)
                (current, started) = (0, false)
            }
        }
        guard !started else {
            throw ASN1Error(offset: offset + bytes.count, expected: "the last byte of a sub-identifier (high bit clear)")
        }
        let first = subidentifiers[0]
        var arcs: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        arcs += subidentifiers.dropFirst()
        self.arcs = arcs
    }

    /// The content octets of the DER encoding (base-128 sub-identifiers).
    public var derContent: [UInt8] {
        var out: [UInt8] = []
        let subidentifiers = [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2)
        for var value in subidentifiers {
            var groups: [UInt8] = [UInt8(value & 0x7F)]
            value >>= 7
            while value > 0 {
                groups.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            out += groups.reversed()
        }
        return out
    }

    /// Dotted decimal, e.g. `1.2.840.10045.4.3.2`.
    public var description: String { arcs.map(String.init).joined(separator: ".") }

    public static func < (lhs: OID, rhs: OID) -> Bool { lhs.arcs.lexicographicallyPrecedes(rhs.arcs) }

    // Algorithms.
    public static let ecPublicKey = OID(validated: [1, 2, 840, 10045, 2, 1])
    public static let prime256v1 = OID(validated: [1, 2, 840, 10045, 3, 1, 7])
    /// secp384r1, the curve of Apple Root CA - G3 and the WWDR G6 intermediate.
    public static let secp384r1 = OID(validated: [1, 3, 132, 0, 34])
    public static let ecdsaWithSHA256 = OID(validated: [1, 2, 840, 10045, 4, 3, 2])
    public static let ecdsaWithSHA384 = OID(validated: [1, 2, 840, 10045, 4, 3, 3])
    public static let ecdsaWithSHA512 = OID(validated: [1, 2, 840, 10045, 4, 3, 4])
    public static let rsaEncryption = OID(validated: [1, 2, 840, 113549, 1, 1, 1])
    public static let sha1WithRSAEncryption = OID(validated: [1, 2, 840, 113549, 1, 1, 5])
    public static let sha256WithRSAEncryption = OID(validated: [1, 2, 840, 113549, 1, 1, 11])
    public static let sha384WithRSAEncryption = OID(validated: [1, 2, 840, 113549, 1, 1, 12])
    public static let sha512WithRSAEncryption = OID(validated: [1, 2, 840, 113549, 1, 1, 13])
    public static let sha1 = OID(validated: [1, 3, 14, 3, 2, 26])
    public static let sha256 = OID(validated: [2, 16, 840, 1, 101, 3, 4, 2, 1])
    public static let sha384 = OID(validated: [2, 16, 840, 1, 101, 3, 4, 2, 2])
    public static let sha512 = OID(validated: [2, 16, 840, 1, 101, 3, 4, 2, 3])
    // PKCS#7 content types.
    public static let pkcs7Data = OID(validated: [1, 2, 840, 113549, 1, 7, 1])
    public static let pkcs7SignedData = OID(validated: [1, 2, 840, 113549, 1, 7, 2])
    // X.509 extensions.
    public static let basicConstraints = OID(validated: [2, 5, 29, 19])
    public static let keyUsage = OID(validated: [2, 5, 29, 15])
    public static let subjectKeyIdentifier = OID(validated: [2, 5, 29, 14])
    public static let authorityKeyIdentifier = OID(validated: [2, 5, 29, 35])
    /// Apple's marker on the certificate that signs receipts and JWS transactions.
    public static let appleReceiptSigner = OID(validated: [1, 2, 840, 113635, 100, 6, 11, 1])
    /// Apple's marker on the Apple Worldwide Developer Relations intermediate certificate.
    public static let appleWWDRIntermediate = OID(validated: [1, 2, 840, 113635, 100, 6, 2, 1])
    // Name attributes.
    public static let commonName = OID(validated: [2, 5, 4, 3])
    public static let countryName = OID(validated: [2, 5, 4, 6])
    public static let localityName = OID(validated: [2, 5, 4, 7])
    public static let stateOrProvinceName = OID(validated: [2, 5, 4, 8])
    public static let organizationName = OID(validated: [2, 5, 4, 10])
    public static let organizationalUnitName = OID(validated: [2, 5, 4, 11])
}
