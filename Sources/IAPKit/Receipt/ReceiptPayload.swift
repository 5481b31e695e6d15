import IAPCrypto
import IAPTime

/// The receipt payload codec: `AppReceipt` to and from the SET of attributes that the PKCS#7
/// envelope signs (REFERENCE section 5).
///
/// Writing is DER: attribute SETs sorted as X.690 requires, values as Apple types them (UTF8String
/// for identifiers and versions, IA5String for RFC 3339 dates without fractions, INTEGER for
/// counts and flags, raw bytes for the opaque value and the hash). Reading accepts BER and any
/// attribute order, keeps unknown attribute types, and reports the byte offset of the first
/// problem in the receipt's own coordinates.
enum ReceiptPayload {
    // MARK: - Writing

    /// The payload's DER. Written straight into one buffer, attributes sorted by their
    /// encodings with `memcmp`, because a receipt may list tens of thousands of purchases.
    static func encode(_ r: AppReceipt) -> [UInt8] {
        var w = AttributeWriter(capacity: 256 + r.inAppPurchases.count * 220)
        w.text(ReceiptField.environment, .utf8String, r.environment)
        if let data = r.bundleIDData ?? r.bundleID.map(DER.utf8String) { w.raw(ReceiptField.bundleID, data) }
        w.text(ReceiptField.appVersion, .utf8String, r.appVersion)
        if let v = r.opaqueValue { w.raw(ReceiptField.opaqueValue, v) }
        if let v = r.sha1Hash { w.raw(ReceiptField.sha1Hash, v) }
        w.date(ReceiptField.creationDate, r.creationDate)
        w.text(ReceiptField.originalAppVersion, .utf8String, r.originalAppVersion)
        w.date(ReceiptField.expirationDate, r.expirationDate)
        var entry = AttributeWriter(capacity: 512)
        for purchase in r.inAppPurchases {
            entry.reset()
            encode(purchase, into: &entry)
            w.raw(ReceiptField.inAppPurchase, entry.set())
        }
        for other in r.otherAttributes { w.raw(other.type, other.value, version: other.version) }
        return w.set()
    }

    static func encode(_ p: InAppPurchaseReceipt) -> [UInt8] {
        var w = AttributeWriter(capacity: 512)
        encode(p, into: &w)
        return w.set()
    }

    private static func encode(_ p: InAppPurchaseReceipt, into w: inout AttributeWriter) {
        if let q = p.quantity { w.integer(ReceiptField.quantity, Int64(q)) }
        w.text(ReceiptField.productID, .utf8String, p.productID)
        w.text(ReceiptField.transactionID, .utf8String, p.transactionID)
        w.date(ReceiptField.purchaseDate, p.purchaseDate)
        w.text(ReceiptField.originalTransactionID, .utf8String, p.originalTransactionID)
        w.date(ReceiptField.originalPurchaseDate, p.originalPurchaseDate)
        w.date(ReceiptField.expiresDate, p.expiresDate)
        if let id = p.webOrderLineItemID { w.integer(ReceiptField.webOrderLineItemID, id) }
        w.date(ReceiptField.cancellationDate, p.cancellationDate)
        if let b = p.isTrialPeriod { w.integer(ReceiptField.isTrialPeriod, b ? 1 : 0) }
        if let b = p.isInIntroOfferPeriod { w.integer(ReceiptField.isInIntroOfferPeriod, b ? 1 : 0) }
        for other in p.otherAttributes { w.raw(other.type, other.value, version: other.version) }
    }

    /// An IA5String date as Apple writes them: RFC 3339, whole seconds, `Z`.
    static func date(_ t: Timestamp) -> [UInt8] {
        [0x16, 20] + AttributeWriter.dateText(t)
    }

    // MARK: - Reading

    /// Decodes a payload whose byte `i` sits at receipt offset `offsets.file(i)`.
    static func decode(_ payload: [UInt8], offsets: PayloadOffsets) throws(ReceiptError) -> AppReceipt {
        do throws(ASN1Error) {
            return try decode(payload)
        } catch {
            throw ReceiptError(offset: offsets.file(error.offset), expected: error.expected)
        }
    }

    /// Decodes a payload; offsets in errors are payload offsets.
    static func decode(_ payload: [UInt8]) throws(ASN1Error) -> AppReceipt {
        let set = try ASN1Element(ber: payload, maxDepth: 4)
        try set.expect(.set, "the receipt payload SET")
        var r = AppReceipt()
        for element in set.children {
            let (type, version, value, base) = try attribute(element)
            switch type {
            case ReceiptField.environment: r.environment = try string(value, base)
            case ReceiptField.bundleID:
                r.bundleID = try string(value, base)
                r.bundleIDData = value
            case ReceiptField.appVersion: r.appVersion = try string(value, base)
            case ReceiptField.opaqueValue: r.opaqueValue = value
            case ReceiptField.sha1Hash: r.sha1Hash = value
            case ReceiptField.creationDate: r.creationDate = try date(value, base)
            case ReceiptField.originalAppVersion: r.originalAppVersion = try string(value, base)
            case ReceiptField.expirationDate: r.expirationDate = try date(value, base)
            case ReceiptField.inAppPurchase: r.inAppPurchases.append(try inAppPurchase(value, base))
            default: r.otherAttributes.append(ReceiptAttribute(type: type, version: version, value: value))
            }
        }
        return r
    }

    static func inAppPurchase(_ bytes: [UInt8], _ base: Int) throws(ASN1Error) -> InAppPurchaseReceipt {
        let set: ASN1Element
        do throws(ASN1Error) {
            set = try ASN1Element(ber: bytes, maxDepth: 4)
            try set.expect(.set, "an in-app purchase SET")
        } catch {
            throw ASN1Error(offset: base + error.offset, expected: error.expected)
        }
        var p = InAppPurchaseReceipt()
        for element in set.children {
            let (type, version, value, inner) = try attribute(element, shift: base)
            switch type {
            case ReceiptField.quantity: p.quantity = try integer(value, inner)
            case ReceiptField.productID: p.productID = try string(value, inner)
            case ReceiptField.transactionID: p.transactionID = try string(value, inner)
            case ReceiptField.purchaseDate: p.purchaseDate = try date(value, inner)
            case ReceiptField.originalTransactionID: p.originalTransactionID = try string(value, inner)
            case ReceiptField.originalPurchaseDate: p.originalPurchaseDate = try date(value, inner)
            case ReceiptField.expiresDate: p.expiresDate = try date(value, inner)
            case ReceiptField.webOrderLineItemID: p.webOrderLineItemID = Int64(try integer(value, inner))
            case ReceiptField.cancellationDate: p.cancellationDate = try date(value, inner)
            case ReceiptField.isTrialPeriod: p.isTrialPeriod = try integer(value, inner) != 0
            case ReceiptField.isInIntroOfferPeriod: p.isInIntroOfferPeriod = try integer(value, inner) != 0
            default: p.otherAttributes.append(ReceiptAttribute(type: type, version: version, value: value))
            }
        }
        return p
    }

    /// `SEQUENCE { type, version, value }`: the parts and the value's offset (shifted by `shift`).
    private static func attribute(_ e: ASN1Element, shift: Int = 0) throws(ASN1Error) -> (Int, Int, [UInt8], Int) {
        do throws(ASN1Error) {
            try e.expect(.sequence, "an attribute SEQUENCE { type, version, value }")
            let type = try e.child(0, "the attribute's type INTEGER").intValue()
            let version = try e.child(1, "the attribute's version INTEGER").intValue()
            let value = try e.child(2, "the attribute's value OCTET STRING")
            let bytes = try value.octetStringValue()
            guard e.children.count == 3 else {
                throw ASN1Error(offset: e.children[3].offset, expected: "the end of the attribute after its value")
            }
            guard (0...Int(Int32.max)).contains(type) else {
                throw ASN1Error(offset: e.children[0].offset, expected: "a non-negative attribute type")
            }
            return (type, version, bytes, shift + value.contentOffset)
        } catch {
            throw ASN1Error(offset: shift + error.offset, expected: error.expected)
        }
    }

    private static func element(_ bytes: [UInt8], _ base: Int, _ what: String) throws(ASN1Error) -> ASN1Element {
        do throws(ASN1Error) {
            return try ASN1Element(ber: bytes, maxDepth: 2)
        } catch {
            throw ASN1Error(offset: base + error.offset, expected: "\(error.expected) in \(what)")
        }
    }

    private static func string(_ bytes: [UInt8], _ base: Int) throws(ASN1Error) -> String {
        let e = try element(bytes, base, "a string value")
        do throws(ASN1Error) {
            return try e.stringValue()
        } catch {
            throw ASN1Error(offset: base + error.offset, expected: error.expected)
        }
    }

    private static func integer(_ bytes: [UInt8], _ base: Int) throws(ASN1Error) -> Int {
        let e = try element(bytes, base, "an INTEGER value")
        do throws(ASN1Error) {
            return try e.expect(.integer, "an INTEGER").intValue()
        } catch {
            throw ASN1Error(offset: base + error.offset, expected: error.expected)
        }
    }

    /// An IA5String ISO 8601 date, normalized to UTC: the App Store writes `...Z`, Xcode 12 wrote
    /// local time with an offset such as `+0100` (see `Timestamp(iso8601:)`). An empty string
    /// (which Apple writes for "none") is nil.
    private static func date(_ bytes: [UInt8], _ base: Int) throws(ASN1Error) -> Timestamp? {
        let text = try string(bytes, base)
        if text.isEmpty { return nil }
        guard let t = Timestamp(iso8601: text) else {
            throw ASN1Error(
                offset: base,
                expected: "an ISO 8601 date such as 2026-01-01T00:00:00Z or 2020-07-22T18:33:15+0100 (found '\(text.prefix(40))')"
            )
        }
        return t
    }
}

/// Where the bytes of a payload sit in the receipt: a BER OCTET STRING may be split into
/// segments, so payload offset `i` maps into whichever segment holds it.
struct PayloadOffsets: Sendable {
    /// (payload offset, receipt offset) at the start of each segment, in order.
    var segments: [(payload: Int, file: Int)]

    static func contiguous(at file: Int) -> PayloadOffsets { PayloadOffsets(segments: [(0, file)]) }

    func file(_ payloadOffset: Int) -> Int {
        var best = segments.first ?? (0, 0)
        for s in segments where s.payload <= payloadOffset { best = s }
        return best.file + payloadOffset - best.payload
    }
}
