import IAPCrypto
import IAPJSON
import IAPTime

/// The public JSON shape of a decoded app receipt (`receipt --json`, `receipt decode --json`),
/// in declared key order. Dates have `...Timestamp` twins; byte values are lowercase hex;
/// in-app purchases are sorted by purchase date, then transaction id.
public enum ReceiptJSON {
    public static func write(_ d: DecodedReceipt, into w: inout JSONWriter) {
        let r = d.receipt
        w.beginObject()
        w.key("environment")
        w.optionalString(r.environment)
        w.key("bundleId")
        w.optionalString(r.bundleID)
        w.key("appVersion")
        w.optionalString(r.appVersion)
        w.key("originalAppVersion")
        w.optionalString(r.originalAppVersion)
        w.key("opaqueValue")
        w.optionalString(r.opaqueValue.map(Hex.encode))
        w.key("sha1Hash")
        w.optionalString(r.sha1Hash.map(Hex.encode))
        date("creationDate", "creationTimestamp", r.creationDate, &w)
        date("expirationDate", "expirationTimestamp", r.expirationDate, &w)
        w.key("inApp")
        w.beginArray()
        for p in r.inAppPurchasesInOrder { write(p, into: &w) }
        w.endArray()
        w.key("otherAttributes")
        attributes(r.otherAttributes, &w)
        w.key("signature")
        signature(d, &w)
        w.key("size")
        w.int(d.der.count)
        w.endObject()
    }

    public static func write(_ p: InAppPurchaseReceipt, into w: inout JSONWriter) {
        w.beginObject()
        w.key("quantity")
        if let q = p.quantity { w.int(q) } else { w.null() }
        w.key("productIdentifier")
        w.optionalString(p.productID)
        w.key("transactionIdentifier")
        w.optionalString(p.transactionID)
        w.key("originalTransactionIdentifier")
        w.optionalString(p.originalTransactionID)
        date("purchaseDate", "purchaseTimestamp", p.purchaseDate, &w)
        date("originalPurchaseDate", "originalPurchaseTimestamp", p.originalPurchaseDate, &w)
        date("expiresDate", "expiresTimestamp", p.expiresDate, &w)
        date("cancellationDate", "cancellationTimestamp", p.cancellationDate, &w)
        w.key("webOrderLineItemId")
        w.optionalString(p.webOrderLineItemID.map(String.init))
        w.key("isTrialPeriod")
        optionalBool(p.isTrialPeriod, &w)
        w.key("isInIntroOfferPeriod")
        optionalBool(p.isInIntroOfferPeriod, &w)
        w.key("promotionalOfferIdentifier")
        w.optionalString(p.promotionalOfferID)
        w.key("otherAttributes")
        attributes(p.otherAttributes, &w)
        w.endObject()
    }

    private static func signature(_ d: DecodedReceipt, _ w: inout JSONWriter) {
        let e = d.envelope
        w.beginObject()
        w.key("encoding")
        w.string(e.usesIndefiniteLengths ? "BER" : "DER")
        w.key("digestAlgorithm")
        w.optionalString(e.signers.first.map { PKCS7SignedData.algorithmName($0.digestAlgorithm) })
        w.key("signatureAlgorithm")
        w.optionalString(e.signers.first.map { PKCS7SignedData.algorithmName($0.signatureAlgorithm) })
        w.key("signedAttributes")
        w.bool(e.signers.first?.signedAttributes != nil)
        w.key("certificates")
        w.beginArray()
        for c in e.certificates { CertificateJSON.write(c, into: &w) }
        w.endArray()
        w.endObject()
    }

    private static func attributes(_ list: [ReceiptAttribute], _ w: inout JSONWriter) {
        w.beginArray()
        for a in list {
            w.beginObject()
            w.key("type")
            w.int(a.type)
            w.key("version")
            w.int(a.version)
            w.key("value")
            w.string(Hex.encode(a.value))
            w.endObject()
        }
        w.endArray()
    }

    private static func date(_ key: StaticString, _ twin: StaticString, _ t: Timestamp?, _ w: inout JSONWriter) {
        w.key(key)
        w.optionalTimestamp(t)
        w.key(twin)
        if let t { w.int(t.milliseconds) } else { w.null() }
    }

    private static func optionalBool(_ b: Bool?, _ w: inout JSONWriter) {
        if let b { w.bool(b) } else { w.null() }
    }
}
