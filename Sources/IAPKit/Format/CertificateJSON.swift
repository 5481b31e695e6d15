import IAPCrypto
import IAPJSON

/// One certificate as `jws decode --json` and `receipt decode --json` show it: who it names and
/// who signed it, its key (type, curve, size), its signature algorithm, its validity, and the
/// Apple marker extensions it carries, so that a chain can be read without openssl.
///
///     {"subject", "issuer", "serialNumber", "publicKey": {"type", "curve", "bits"},
///      "signatureAlgorithm", "notBefore", "notBeforeTimestamp", "notAfter", "notAfterTimestamp",
///      "isCA", "appleMarkers": [{"oid", "name"}]}
public enum CertificateJSON {
    public static func write(_ c: Certificate, into w: inout JSONWriter) {
        w.beginObject()
        w.key("subject")
        w.string(c.subject.description)
        w.key("issuer")
        w.string(c.issuer.description)
        w.key("serialNumber")
        w.string(c.serialNumberHex)
        w.key("publicKey")
        w.beginObject()
        let key = CertificateKey(c.publicKey)
        w.key("type")
        w.string(key.type)
        w.key("curve")
        w.optionalString(key.curve)
        w.key("bits")
        if let bits = key.bits { w.int(bits) } else { w.null() }
        w.endObject()
        w.key("signatureAlgorithm")
        w.string(SignatureAlgorithm.name(c.signatureAlgorithm))
        w.key("notBefore")
        w.timestamp(c.notBefore)
        w.key("notBeforeTimestamp")
        w.int(c.notBefore.milliseconds)
        w.key("notAfter")
        w.timestamp(c.notAfter)
        w.key("notAfterTimestamp")
        w.int(c.notAfter.milliseconds)
        w.key("isCA")
        w.bool(c.isCA)
        w.key("appleMarkers")
        w.beginArray()
        for oid in c.appleMarkers {
            w.beginObject()
            w.key("oid")
            w.string(oid.description)
            w.key("name")
            w.string(CertificateKey.markerName(oid))
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}

/// A certificate's key and markers in words, shared by the JSON and text renderers.
public struct CertificateKey: Sendable, Equatable {
    /// `EC`, `RSA`, or the algorithm's name.
    public let type: String
    /// `P-256`, `P-384`, another curve's OID, or nil for RSA.
    public let curve: String?
    public let bits: Int?

    public init(_ key: SubjectPublicKeyInfo) {
        switch key {
        case .p256: (type, curve, bits) = ("EC", "P-256", 256)
        case .p384: (type, curve, bits) = ("EC", "P-384", 384)
        case .rsa(let rsa): (type, curve, bits) = ("RSA", nil, rsa.bitCount)
        case .unsupported(let algorithm, let parameters, _):
            if algorithm == .ecPublicKey {
                let named = (try? ASN1Element(der: parameters).oidValue())?.description
                (type, curve, bits) = ("EC", named ?? "explicit parameters", nil)
            } else {
                (type, curve, bits) = (SignatureAlgorithm.name(algorithm), nil, nil)
            }
        }
    }

    /// What an Apple marker OID marks.
    public static func markerName(_ oid: OID) -> String {
        switch oid {
        case .appleReceiptSigner: return "App Store and receipt signing leaf"
        case .appleWWDRIntermediate: return "Apple Worldwide Developer Relations intermediate"
        default: return oid.description
        }
    }
}
