import IAPCrypto
import IAPKit

/// The text form of a decoded receipt, for people (`receipt decode` without `--json`).
enum ReceiptText {
    static func lines(_ d: DecodedReceipt) -> [String] {
        let r = d.receipt
        var lines: [String] = []
        func row(_ label: String, _ value: String?) {
            lines.append(label.padded(to: 22) + (value ?? "(none)"))
        }
        row("environment", r.environment)
        row("bundle id", r.bundleID)
        row("app version", r.appVersion)
        row("original app version", r.originalAppVersion)
        row("created", r.creationDate?.rfc3339)
        if let e = r.expirationDate { row("expires", e.rfc3339) }
        row("opaque value", r.opaqueValue.map(Hex.encode))
        row("sha1 hash", r.sha1Hash.map(Hex.encode))
        let signer = d.envelope.signers.first
        let algorithm = signer.map { PKCS7SignedData.algorithmName($0.signatureAlgorithm) } ?? "unsigned"
        let digest = signer.map { PKCS7SignedData.algorithmName($0.digestAlgorithm) } ?? "-"
        row(
            "signed",
            "\(algorithm) (\(digest) digest), \(d.envelope.usesIndefiniteLengths ? "BER" : "DER"), \(d.der.count) bytes")
        row("certificates", d.envelope.certificates.isEmpty ? "(none)" : "\(d.envelope.certificates.count) (below)")
        for a in r.otherAttributes { row("attribute \(a.type)", Hex.encode(a.value)) }
        let purchases = r.inAppPurchasesInOrder
        lines.append("in-app purchases: \(purchases.count)")
        for p in purchases {
            var line =
                "  \(p.transactionID ?? "?")  \(p.productID ?? "?")  x\(p.quantity ?? 1)  \(p.purchaseDate?.rfc3339 ?? "?")"
            if let o = p.originalTransactionID, o != p.transactionID { line += "  original \(o)" }
            if let e = p.expiresDate { line += "  expires \(e.rfc3339)" }
            if let c = p.cancellationDate { line += "  cancelled \(c.rfc3339)" }
            lines.append(line)
        }
        if !d.envelope.certificates.isEmpty {
            lines.append("certificates")
            for (index, c) in d.envelope.certificates.enumerated() { lines += CertificateText.lines(c, label: "[\(index)]") }
        }
        return lines
    }
}
