import IAPCrypto
import IAPKit

/// Certificates for people (`jws decode`, `receipt decode`): one block each, naming the subject,
/// the issuer, the key, the signature algorithm, the validity and Apple's markers.
///
///     x5c[0]  Prod ECC Mac App Store and iTunes Store Receipt Signing
///       subject    CN=Prod ECC Mac App Store and iTunes Store Receipt Signing,OU=...,O=Apple Inc.,C=US
///       issuer     CN=Apple Worldwide Developer Relations Certification Authority,OU=G6,O=Apple Inc.,C=US
///       key        EC P-256
///       signature  ecdsa-with-SHA384
///       valid      2021-08-25T02:50:34Z to 2023-09-24T02:50:33Z
///       markers    1.2.840.113635.100.6.11.1 (App Store and receipt signing leaf)
enum CertificateText {
    static func lines(_ c: Certificate, label: String, indent: String = "  ") -> [String] {
        let key = CertificateKey(c.publicKey)
        var keyText = key.type
        if let curve = key.curve { keyText += " " + curve } else if let bits = key.bits { keyText += " \(bits)" }
        let markers = c.appleMarkers.map { "\($0) (\(CertificateKey.markerName($0)))" }
        let more = indent + "  "
        func row(_ name: String, _ value: String) -> String {
            more + name.padded(to: 11) + value
        }
        return [
            indent + label + "  " + (c.subject.commonName ?? c.subject.description),
            row("subject", c.subject.description),
            row("issuer", c.issuer.description),
            row("key", keyText + (c.isCA ? ", CA" : "")),
            row("signature", SignatureAlgorithm.name(c.signatureAlgorithm)),
            row("valid", "\(c.notBefore.rfc3339) to \(c.notAfter.rfc3339)"),
            row("markers", markers.isEmpty ? "none" : markers.joined(separator: ", ")),
        ]
    }
}
