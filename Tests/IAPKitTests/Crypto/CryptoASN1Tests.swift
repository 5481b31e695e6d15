import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit
@testable import IAPTime

private func hex(_ text: String) -> [UInt8] { CryptoTestSupport.hex(text) }

@Suite("Crypto: ASN.1 DER writer and BER/DER reader")
struct CryptoASN1Tests {
    static let integers: [(Int, String)] = [
        (0, "020100"), (1, "020101"), (127, "02017f"), (128, "02020080"), (255, "020200ff"), (256, "02020100"),
        (-1, "0201ff"), (-128, "020180"), (-129, "0202ff7f"), (Int.max, "02087fffffffffffffff"),
        (Int.min, "02088000000000000000"),
    ]

    @Test(arguments: integers)
    func integerRoundTrip(_ value: Int, _ encoding: String) throws {
        #expect(Hex.encode(DER.integer(value)) == encoding)
        #expect(try ASN1Element(der: hex(encoding)).intValue() == value)
    }

    @Test(arguments: [([UInt8](), "020100"), ([0xff], "020200ff"), ([0, 0, 1], "020101"), ([0x7f, 0], "02027f00")])
    func bigEndianInteger(_ magnitude: [UInt8], _ encoding: String) throws {
        #expect(Hex.encode(DER.integer(bigEndian: magnitude)) == encoding)
        #expect(try ASN1Element(der: hex(encoding)).unsignedIntegerBytes() == Array(magnitude.drop { $0 == 0 }))
    }

    @Test func integerTooWideForInt() throws {
        #expect(throws: ASN1Error(offset: 2, expected: "an INTEGER that fits in 64 bits")) {
            try ASN1Element(der: hex("0209010000000000000000")).intValue()
        }
        #expect(try ASN1Element(der: hex("020900ffffffffffffffff")).unsignedIntegerBytes() == [UInt8](repeating: 0xff, count: 8))
    }

    static let oids: [(String, String)] = [
        ("1.2.840.113549", "06062a864886f70d"), ("2.5.29.19", "0603551d13"), ("2.999.3", "0603883703"),
        ("1.2.840.113635.100.6.11.1", "060a2a864886f7636406 0b01".replacingOccurrences(of: " ", with: "")),
        ("0.0", "060100"),
    ]

    @Test(arguments: oids)
    func oidRoundTrip(_ dotted: String, _ encoding: String) throws {
        #expect(Hex.encode(try DER.oid(dotted: dotted)) == encoding)
        #expect(try ASN1Element(der: hex(encoding)).oidValue().description == dotted)
    }

    @Test(arguments: [
        ("", ASN1Error(offset: 0, expected: "a digit")), ("1..2", ASN1Error(offset: 2, expected: "a digit before '.'")),
        ("1.2.", ASN1Error(offset: 4, expected: "a digit")), ("3.1", ASN1Error(offset: 0, expected: "a first arc of 0, 1 or 2")),
        ("1.40", ASN1Error(offset: 0, expected: "a second arc below 40")),
        ("1.02", ASN1Error(offset: 3, expected: "no leading zero in an arc")),
        ("1.2.a", ASN1Error(offset: 4, expected: "a digit or '.'")),
        ("1", ASN1Error(offset: 0, expected: "an OID of at least two arcs")),
        ("1.2.99999999999999999999", ASN1Error(offset: 23, expected: "an arc below 2^64")),
    ])
    func badDottedOID(_ text: String, _ error: ASN1Error) {
        #expect(throws: error) { try OID(text) }
    }

    @Test func knownOIDs() {
        #expect(OID.appleReceiptSigner.description == "1.2.840.113635.100.6.11.1")
        #expect(OID.appleWWDRIntermediate.description == "1.2.840.113635.100.6.2.1")
        #expect(OID.ecdsaWithSHA256.description == "1.2.840.10045.4.3.2")
    }

    @Test func simpleValues() throws {
        #expect(DER.null() == hex("0500"))
        #expect(DER.boolean(true) == hex("0101ff"))
        #expect(try ASN1Element(der: DER.boolean(true)).boolValue())
        #expect(try !ASN1Element(der: DER.boolean(false)).boolValue())
        #expect(throws: Never.self) { try ASN1Element(der: DER.null()).nullValue() }
        #expect(DER.octetString([1, 2]) == hex("04020102"))
        #expect(DER.bitString([0xff], unusedBits: 3) == hex("030203f8"))
        let bits = try ASN1Element(der: hex("030203f8")).bitStringValue()
        #expect(bits.bytes == [0xf8] && bits.unusedBits == 3)
        #expect(try ASN1Element(der: DER.utf8String("iapctl — test")).stringValue() == "iapctl — test")
        #expect(try ASN1Element(der: DER.ia5String("2026-01-01T00:00:00Z")).stringValue() == "2026-01-01T00:00:00Z")
        #expect(try ASN1Element(der: DER.printableString("US")).stringValue() == "US")
        #expect(throws: ASN1Error(offset: 1, expected: "an ASCII character for an IA5String")) { try DER.ia5String("a\u{e9}") }
        #expect(throws: ASN1Error(offset: 2, expected: "a PrintableString character")) { try DER.printableString("ab@") }
        #expect(try ASN1Element(der: hex("1e0400e90041")).stringValue() == "\u{e9}A")
    }

    @Test func longLengthsAndHighTagNumbers() throws {
        let big = [UInt8](repeating: 7, count: 300)
        let encoded = DER.octetString(big)
        #expect(Array(encoded.prefix(4)) == hex("0482012c"))
        #expect(try ASN1Element(der: encoded).octetStringValue() == big)
        let tagged = DER.element(ASN1Tag(.contextSpecific, 1719, constructed: false), content: [1])
        #expect(tagged == hex("9f8d370101"))
        let element = try ASN1Element(der: tagged)
        #expect(element.tag == ASN1Tag(.contextSpecific, 1719, constructed: false))
        #expect(element.headerLength == 4)
    }

    static let times: [(String, String, String)] = [
        ("2000-01-01T00:00:00Z", "170d3030303130313030303030305a", "180f32303030303130313030303030305a"),
        ("2049-12-31T23:59:59Z", "170d3439313233313233353935395a", "180f32303439313233313233353935395a"),
        ("1950-01-01T00:00:00Z", "170d3530303130313030303030305a", "180f31393530303130313030303030305a"),
    ]

    @Test(arguments: times)
    func timeRoundTrip(_ rfc3339: String, _ utc: String, _ generalized: String) throws {
        let time = try #require(Timestamp(rfc3339: rfc3339))
        #expect(Hex.encode(try DER.utcTime(time)) == utc)
        #expect(Hex.encode(try DER.generalizedTime(time)) == generalized)
        #expect(try ASN1Element(der: hex(utc)).timeValue() == time)
        #expect(try ASN1Element(der: hex(generalized)).timeValue() == time)
    }

    @Test func certificateTimeSwitchesAt2050() throws {
        let late = try #require(Timestamp(rfc3339: "2099-12-31T23:59:59Z"))
        #expect(try DER.certificateTime(late)[0] == 0x18)
        #expect(throws: ASN1Error(offset: 0, expected: "a year from 1950 to 2049 for UTCTime")) { try DER.utcTime(late) }
        let fraction = try #require(Timestamp(rfc3339: "2026-01-01T00:00:00.120Z"))
        let encoded = try DER.generalizedTime(fraction)
        #expect(String(decoding: encoded.dropFirst(2), as: UTF8.self) == "20260101000000.12Z")
        #expect(try ASN1Element(der: encoded).timeValue() == fraction)
    }

    @Test(arguments: [
        ("170d3230313332303030303030305a", ASN1Error(offset: 4, expected: "a month from 01 to 12")),
        ("170d3230303233303030303030305a", ASN1Error(offset: 6, expected: "a day that exists in that month")),
        ("170b323030313031303030305a", ASN1Error(offset: 12, expected: "two-digit seconds")),
        ("170d3230303130313030303030302b", ASN1Error(offset: 14, expected: "'Z'")),
        ("170e3230303130313030303030305a5a", ASN1Error(offset: 15, expected: "the end of the time after 'Z'")),
        ("180f 3230303030313031303030303030", ASN1Error(offset: 1, expected: "a length of at most 14 bytes (got 15)")),
    ])
    func badTimes(_ encoding: String, _ error: ASN1Error) {
        #expect(throws: error) { try ASN1Element(der: hex(encoding)).timeValue() }
    }

    @Test func setIsSortedAndTagsNest() throws {
        let set = DER.set([DER.integer(300), DER.integer(2), DER.octetString([]), DER.integer(1)])
        #expect(Hex.encode(set) == "310c0201010201020202012c0400")
        let explicit = DER.explicit(0, DER.integer(2))
        #expect(explicit == hex("a003020102"))
        #expect(DER.implicit(1, DER.octetString([9])) == hex("810109"))
        #expect(DER.implicit(2, DER.sequence([DER.null()])) == hex("a2020500"))
        let tree = try ASN1Element(der: DER.sequence([explicit, DER.raw(set)]))
        #expect(tree.children.count == 2)
        #expect(tree.children[0].tag == .contextSpecific(0))
        #expect(try tree.child(0, "[0]").child(0, "version").intValue() == 2)
        #expect(tree.children[1].children.map { $0.encoded } == [hex("020101"), hex("020102"), hex("0202012c"), hex("0400")])
        #expect(tree.children[1].offset == 7)
        #expect(tree.children[1].contentOffset == 9)
        #expect(throws: ASN1Error(offset: 21, expected: "a third element")) { try tree.child(2, "a third element") }
    }

    @Test func berIndefiniteLengthsAndSegmentedStrings() throws {
        // SEQUENCE (indefinite) { OCTET STRING (constructed, indefinite) { "ab", "c" }, UTF8String (constructed) { "d", "é" } }
        let ber = hex("3080 2480 04026162 040163 0000 2c07 0c0164 0c02c3a9 0000")
        let tree = try ASN1Element(ber: ber)
        #expect(tree.isIndefiniteLength)
        #expect(tree.endOffset == ber.count)
        #expect(try tree.children[0].octetStringValue() == Array("abc".utf8))
        #expect(try tree.children[1].stringValue() == "dé")
        #expect(tree.children[0].content == hex("04026162 040163"))
        #expect(throws: ASN1Error(offset: 1, expected: "a definite length (DER)")) { try ASN1Element(der: ber) }
        // Constructed strings with definite lengths, nested segments.
        let nested = try ASN1Element(ber: hex("2408 2406 0401 61 0401 62"))
        #expect(nested.octets == Array("ab".utf8))
        let bits = try ASN1Element(ber: hex("2308 0302 00ff 0302 04f0")).bitStringValue()
        #expect(bits.bytes == [0xff, 0xf0] && bits.unusedBits == 4)
    }

    /// Malformed input: each must throw with this exact offset and expectation.
    static let malformed: [(String, ASN1Element.Rules, ASN1Error)] = [
        ("", .ber, ASN1Error(offset: 0, expected: "an identifier byte")),
        ("30", .ber, ASN1Error(offset: 1, expected: "a length byte")),
        ("3005 0201", .ber, ASN1Error(offset: 1, expected: "a length of at most 2 bytes (got 5)")),
        ("1f", .ber, ASN1Error(offset: 1, expected: "another tag number byte")),
        ("1f8001 00", .ber, ASN1Error(offset: 1, expected: "a tag number without leading zero bits")),
        ("1f05 00", .ber, ASN1Error(offset: 1, expected: "the short form for tag numbers below 31")),
        ("1fffffffff01 00", .ber, ASN1Error(offset: 5, expected: "a tag number below 2^28")),
        ("30ff", .ber, ASN1Error(offset: 1, expected: "a length byte other than 0xFF")),
        ("3089 010203040506070809", .ber, ASN1Error(offset: 1, expected: "a length of at most 8 length bytes")),
        ("3082 01", .ber, ASN1Error(offset: 3, expected: "2 length bytes")),
        ("3084 ffffffff", .ber, ASN1Error(offset: 1, expected: "a length of at most 0 bytes (got 4294967295)")),
        ("3088 ffffffffffffffff", .ber, ASN1Error(offset: 9, expected: "a length that fits in memory")),
        ("3080 020100", .ber, ASN1Error(offset: 5, expected: "an end-of-contents marker")),
        ("3080 0201", .ber, ASN1Error(offset: 3, expected: "a length of at most 0 bytes (got 1)")),
        ("0280 0000", .ber, ASN1Error(offset: 1, expected: "a definite length for a primitive element")),
        ("3080 0001", .ber, ASN1Error(offset: 3, expected: "a zero length in the end-of-contents marker")),
        ("0000", .ber, ASN1Error(offset: 0, expected: "an element (end-of-contents is only valid inside an indefinite length)")),
        ("3000 00", .ber, ASN1Error(offset: 2, expected: "the end of the input after the outermost element")),
        ("3103 3002 05", .ber, ASN1Error(offset: 3, expected: "a length of at most 1 bytes (got 2)")),
        ("1000", .ber, ASN1Error(offset: 0, expected: "a constructed SEQUENCE")),
        ("2203 020100", .ber, ASN1Error(offset: 0, expected: "a primitive INTEGER")),
        ("2403 0c0141", .ber, ASN1Error(offset: 2, expected: "a segment of the same string type as its parent")),
        ("3080 0000", .der, ASN1Error(offset: 1, expected: "a definite length (DER)")),
        ("048101 41", .der, ASN1Error(offset: 1, expected: "the shortest length encoding (DER)")),
        ("04820001 41", .der, ASN1Error(offset: 1, expected: "the shortest length encoding (DER)")),
        ("2403 040141", .der, ASN1Error(offset: 0, expected: "a primitive string (DER)")),
    ]

    @Test(arguments: malformed)
    func malformedInputThrows(_ encoding: String, _ rules: ASN1Element.Rules, _ error: ASN1Error) {
        #expect(throws: error) { try ASN1Element(hex(encoding), rules: rules) }
    }

    static let badValues: [(String, ASN1Error)] = [
        ("0600", ASN1Error(offset: 2, expected: "a non-empty OBJECT IDENTIFIER")),
        ("0601 80", ASN1Error(offset: 2, expected: "a sub-identifier without a leading 0x80 byte")),
        ("0602 2a86", ASN1Error(offset: 4, expected: "the last byte of a sub-identifier (high bit clear)")),
        ("060b 2a ffffffffffffffffff7f", ASN1Error(offset: 12, expected: "a sub-identifier below 2^64")),
        ("0500", ASN1Error(offset: 0, expected: "an OBJECT IDENTIFIER")),
    ]

    @Test(arguments: badValues)
    func badOIDContent(_ encoding: String, _ error: ASN1Error) {
        #expect(throws: error) { try ASN1Element(der: hex(encoding)).oidValue() }
    }

    @Test func badScalarContent() {
        #expect(throws: ASN1Error(offset: 2, expected: "at least one INTEGER byte")) {
            try ASN1Element(der: hex("0200")).intValue()
        }
        #expect(throws: ASN1Error(offset: 2, expected: "a non-negative INTEGER")) {
            try ASN1Element(der: hex("0201ff")).unsignedIntegerBytes()
        }
        #expect(throws: ASN1Error(offset: 2, expected: "a one-byte BOOLEAN")) {
            try ASN1Element(der: hex("01020000")).boolValue()
        }
        #expect(throws: ASN1Error(offset: 2, expected: "an unused-bits count of 0 to 7 (0 when empty)")) {
            try ASN1Element(der: hex("030108")).bitStringValue()
        }
        #expect(throws: ASN1Error(offset: 2, expected: "the unused-bits byte of a BIT STRING")) {
            try ASN1Element(der: hex("0300")).bitStringValue()
        }
        #expect(throws: ASN1Error(offset: 2, expected: "valid UTF-8 in a UTF8String")) {
            try ASN1Element(der: hex("0c01ff")).stringValue()
        }
        #expect(throws: ASN1Error(offset: 3, expected: "an ASCII character")) {
            try ASN1Element(der: hex("160241ff")).stringValue()
        }
        #expect(throws: ASN1Error(offset: 2, expected: "an empty NULL")) { try ASN1Element(der: hex("050100")).nullValue() }
    }

    @Test(arguments: [ASN1Element.Rules.ber, .der])
    func deepNestingIsRefused(_ rules: ASN1Element.Rules) {
        let depth = 200
        var bytes: [UInt8] = []
        if rules == .ber {
            bytes = Array([[UInt8]](repeating: [0x30, 0x80], count: depth).joined()) + [UInt8](repeating: 0, count: depth * 2)
        } else {
            var inner: [UInt8] = []
            for _ in 0..<depth { inner = DER.sequence([inner]) }
            bytes = inner
        }
        #expect(throws: ASN1Error.self) { try ASN1Element(bytes, rules: rules) }
        do {
            _ = try ASN1Element(bytes, rules: rules)
        } catch {
            #expect(error.expected == "nesting at most 64 levels deep")
        }
        let shallow =
            rules == .ber
            ? Array([[UInt8]](repeating: [0x30, 0x80], count: 10).joined()) + [UInt8](repeating: 0, count: 20)
            : DER.sequence([DER.sequence([])])
        #expect(throws: Never.self) { try ASN1Element(shallow, rules: rules) }
        #expect(throws: ASN1Error(offset: 4, expected: "nesting at most 1 levels deep")) {
            try ASN1Element(DER.sequence([DER.sequence([DER.null()])]), rules: rules, maxDepth: 1)
        }
    }

    static func receipt() throws -> [UInt8] {
        let text = try CryptoTestSupport.fixtureText("vectors/xcode-app-receipt-with-transaction")
        return try #require(Base64.decode(text))
    }

    /// Xcode's receipt is BER with indefinite lengths; walk ContentInfo to the payload SET.
    @Test func xcodeReceiptParsesToPayload() throws {
        let bytes = try Self.receipt()
        let contentInfo = try ASN1Element(ber: bytes)
        #expect(contentInfo.isIndefiniteLength)
        #expect(try contentInfo.child(0, "contentType").oidValue() == OID.pkcs7SignedData)
        let signedData = try contentInfo.child(1, "[0]").expect(.contextSpecific(0), "[0]").child(0, "SignedData")
        let encapsulated = try signedData.child(2, "encapContentInfo").expect(.sequence, "a SEQUENCE")
        #expect(try encapsulated.child(0, "eContentType").oidValue() == OID.pkcs7Data)
        let octetString = try encapsulated.child(1, "[0]").child(0, "eContent")
        #expect(octetString.tag == ASN1Tag.octetString.constructed(true))
        let payloadBytes = try octetString.octetStringValue()
        #expect(payloadBytes.count == 374)
        let payload = try ASN1Element(der: payloadBytes).expect(.set, "a SET")
        var attributes: [Int: ASN1Element] = [:]
        for attribute in payload.children {
            attributes[try attribute.child(0, "type").intValue()] = try attribute.child(2, "value")
        }
        let bundle = try ASN1Element(der: try #require(attributes[2]).octetStringValue()).stringValue()
        #expect(bundle == "com.example.naturelab.backyardbirds.example")
        let created = try ASN1Element(der: try #require(attributes[12]).octetStringValue()).stringValue()
        #expect(created == "2023-10-19T01:45:40Z")
        let inApp = try ASN1Element(der: try #require(attributes[17]).octetStringValue())
        #expect(inApp.children.count == 6)
        // The certificates inside parse too.
        let certificates = try signedData.child(3, "[0] certificates").expect(.contextSpecific(0), "[0]")
        #expect(certificates.children.count == 1)
    }

    /// Every truncation and many single-byte corruptions of a real receipt end in a value or an
    /// error, never a crash; truncations always error.
    @Test func corruptedReceiptsNeverCrash() throws {
        let bytes = try Self.receipt()
        for length in 0..<bytes.count {
            #expect(throws: ASN1Error.self) { try ASN1Element(ber: Array(bytes[..<length])) }
        }
        var mutated = bytes
        for position in stride(from: 0, to: bytes.count, by: 3) {
            for value: UInt8 in [0x00, 0x80, 0xff, 0x1f, bytes[position] ^ 0x20] {
                mutated[position] = value
                _ = try? ASN1Element(ber: mutated)
            }
            mutated[position] = bytes[position]
        }
    }
}

extension CryptoASN1Tests {
    /// Even a caller asking for unlimited depth gets the 1000-level ceiling, not a stack overflow.
    @Test func depthCeiling() {
        let bytes = Array([[UInt8]](repeating: [0x30, 0x80], count: 5000).joined()) + [UInt8](repeating: 0, count: 10000)
        #expect(throws: ASN1Error(offset: 2002, expected: "nesting at most 1000 levels deep")) {
            try ASN1Element(ber: bytes, maxDepth: .max)
        }
    }
}
