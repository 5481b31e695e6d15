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

    static func encode(_ r: AppReceipt) -> [UInt8] {
        var attributes: [[UInt8]] = []
        attributes.reserveCapacity(r.inAppPurchases.count + 12)
        func add(_ type: Int, _ value: [UInt8]?) {
            if let value { attributes.append(ReceiptAttribute(type: type, value: value).encoded) }
        }
        add(ReceiptField.environment, r.environment.map(DER.utf8String))
        add(ReceiptField.bundleID, r.bundleIDData ?? r.bundleID.map(DER.utf8String))
        add(ReceiptField.appVersion, r.appVersion.map(DER.utf8String))
        add(ReceiptField.opaqueValue, r.opaqueValue)
        add(ReceiptField.sha1Hash, r.sha1Hash)
        add(ReceiptField.creationDate, r.creationDate.map(date))
        add(ReceiptField.originalAppVersion, r.originalAppVersion.map(DER.utf8String))
        add(ReceiptField.expirationDate, r.expirationDate.map(date))
        for purchase in r.inAppPurchases { add(ReceiptField.inAppPurchase, encode(purchase)) }
        for other in r.otherAttributes { attributes.append(other.encoded) }
        return DER.set(attributes)
    }

    static func encode(_ p: InAppPurchaseReceipt) -> [UInt8] {
        var attributes: [[UInt8]] = []
        attributes.reserveCapacity(12)
        func add(_ type: Int, _ value: [UInt8]?) {
            if let value { attributes.append(ReceiptAttribute(type: type, value: value).encoded) }
        }
        add(ReceiptField.quantity, p.quantity.map(DER.integer))
        add(ReceiptField.productID, p.productID.map(DER.utf8String))
        add(ReceiptField.transactionID, p.transactionID.map(DER.utf8String))
        add(ReceiptField.purchaseDate, p.purchaseDate.map(date))
        add(ReceiptField.originalTransactionID, p.originalTransactionID.map(DER.utf8String))
        add(ReceiptField.originalPurchaseDate, p.originalPurchaseDate.map(date))
        add(ReceiptField.expiresDate, p.expiresDate.map(date))
        add(ReceiptField.webOrderLineItemID, p.webOrderLineItemID.map { DER.integer(Int($0)) })
        add(ReceiptField.cancellationDate, p.cancellationDate.map(date))
        add(ReceiptField.isTrialPeriod, p.isTrialPeriod.map { DER.integer($0 ? 1 : 0) })
        add(ReceiptField.isInIntroOfferPeriod, p.isInIntroOfferPeriod.map { DER.integer($0 ? 1 : 0) })
        for other in p.otherAttributes { attributes.append(other.encoded) }
        return DER.set(attributes)
    }

    /// An IA5String date as Apple writes them: RFC 3339, whole seconds, `Z`.
    static func date(_ t: Timestamp) -> [UInt8] {
        let whole = Timestamp(milliseconds: t.milliseconds - ((t.milliseconds % 1000) + 1000) % 1000)
        return DER.element(.ia5String, content: Array(whole.rfc3339.utf8))
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

    /// An IA5String RFC 3339 date; an empty string (which Apple writes for "none") is nil.
    private static func date(_ bytes: [UInt8], _ base: Int) throws(ASN1Error) -> Timestamp? {
        let text = try string(bytes, base)
        if text.isEmpty { return nil }
        guard let t = Timestamp(rfc3339: text) else {
            throw ASN1Error(offset: base, expected: "an RFC 3339 date such as 2026-01-01T00:00:00Z (found '\(text.prefix(40))')")
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
