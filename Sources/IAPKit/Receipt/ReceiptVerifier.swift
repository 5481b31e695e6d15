import IAPCrypto

/// Local receipt verification, as RMStore's `RMStoreAppReceiptVerifier` does it on the device
/// (REFERENCE section 5), one named check at a time so that a user sees which one failed:
///
/// 1. `signature`: the signer's certificate (found by issuer and serial among the embedded
///    certificates and the trusted root) verifies the PKCS#7 signature over the payload (or over
///    the signed attributes, whose messageDigest must then match the payload): ECDSA P-256 with
///    SHA-256, or RSA PKCS#1 v1.5 with SHA-256 or SHA-1 (Xcode's and Apple's own receipts).
/// 2. `chain`: the signer chains to the trusted root through the embedded certificates, each
///    valid at the receipt's creation date (`RMAppReceipt` uses `PKCS7_verify` against Apple's
///    root; iapctl checks at the signing date so old receipts stay verifiable).
/// 3. `appleMarkers`: the leaf carries 1.2.840.113635.100.6.11.1 and its issuer
///    1.2.840.113635.100.6.2.1, as Apple's do; skipped when the signer is the trusted root itself
///    (Xcode's self-signed StoreKit Testing certificate has no markers).
/// 4. `bundleId` and 5. `appVersion`: equal the app's `CFBundleIdentifier` and `CFBundleVersion`.
/// 6. `hash`: SHA-1(device id || opaque value || bundle id bytes) equals attribute 5.
/// 7. `transaction` / `product`: the receipt holds that transaction, or a purchase of that
///    product (RMStore's `containsInAppPurchaseOfProductIdentifier:`), when asked.
public enum ReceiptVerifier {
    public static func verify(_ d: DecodedReceipt, expecting e: ReceiptExpectations) -> ReceiptVerificationReport {
        var checks: [ReceiptCheck] = []
        let signerInfo = d.envelope.signers.first
        let pool = d.envelope.certificates + [e.root]
        let signer = signerInfo.flatMap { info in pool.first { matches($0, info) } }
        checks.append(signatureCheck(d, signerInfo, signer))
        checks.append(chainCheck(d, signer, root: e.root))
        checks.append(markerCheck(d, signer, root: e.root))
        let r = d.receipt
        checks.append(equality("bundleId", found: r.bundleID, expected: e.bundleID, what: "bundle id"))
        checks.append(equality("appVersion", found: r.appVersion, expected: e.appVersion, what: "app version"))
        checks.append(hashCheck(r, deviceID: e.deviceID, assumed: e.deviceIDIsAssumed))
        if let id = e.transactionID {
            let found = r.inAppPurchases.contains { $0.transactionID == id }
            checks.append(
                ReceiptCheck(
                    "transaction", found ? .pass : .fail,
                    found
                        ? "transaction \(id) is in the receipt"
                        : "transaction \(id) is not among the receipt's \(r.inAppPurchases.count) in-app purchases"))
        }
        if let product = e.productID {
            let count = r.inAppPurchases.filter { $0.productID == product }.count
            checks.append(
                ReceiptCheck(
                    "product", count > 0 ? .pass : .fail,
                    count > 0
                        ? "\(count) purchase\(count == 1 ? "" : "s") of \(product)"
                        : "the receipt does not contain the given product \(product)"))
        }
        return ReceiptVerificationReport(checks: checks)
    }

    /// Whether `certificate` is the one a SignerInfo names (issuer and serial, or key identifier).
    static func matches(_ certificate: Certificate, _ info: PKCS7SignedData.SignerInfo) -> Bool {
        if let issuer = info.issuer, let serial = info.serialNumber {
            return certificate.issuer.der == issuer && certificate.serialNumber == serial
        }
        if let keyID = info.subjectKeyIdentifier, let value = certificate.extensionValue(.subjectKeyIdentifier) {
            return (try? ASN1Element(der: value).octetStringValue()) == keyID
        }
        return false
    }

    static func signatureCheck(_ d: DecodedReceipt, _ info: PKCS7SignedData.SignerInfo?, _ signer: Certificate?) -> ReceiptCheck {
        guard let info else { return ReceiptCheck("signature", .fail, "the receipt has no SignerInfo: it is not signed") }
        guard let signer else {
            return ReceiptCheck(
                "signature", .fail, "the signer's certificate is neither embedded in the receipt nor the trusted root")
        }
        guard let digest = DigestAlgorithm(oid: info.digestAlgorithm) else {
            return ReceiptCheck(
                "signature", .fail, "unsupported digest algorithm \(PKCS7SignedData.algorithmName(info.digestAlgorithm))")
        }
        let message: [UInt8]
        if let attributes = info.signedAttributes {
            guard let stated = info.messageDigest else {
                return ReceiptCheck("signature", .fail, "signed attributes without a messageDigest")
            }
            guard stated == digest.hash(d.envelope.content) else {
                return ReceiptCheck(
                    "signature", .fail, "the messageDigest attribute does not match the payload: the payload was changed")
            }
            message = attributes
        } else {
            message = d.envelope.content
        }
        let name = PKCS7SignedData.algorithmName(info.signatureAlgorithm)
        let subject = signer.subject.commonName ?? signer.subject.description
        // CMS names either the whole algorithm (sha256WithRSAEncryption, ecdsa-with-SHA256) or only
        // the key's (rsaEncryption, as Apple's receipts do, or id-ecPublicKey), with the digest
        // given apart (RFC 5652 section 5.3; RFC 3370 section 3.2).
        let scheme: SignatureAlgorithm
        switch info.signatureAlgorithm {
        case .rsaEncryption: scheme = .rsaPKCS1(digest)
        case .ecPublicKey: scheme = .ecdsa(digest)
        default:
            guard let named = SignatureAlgorithm(oid: info.signatureAlgorithm) else {
                return ReceiptCheck("signature", .fail, "unsupported signature algorithm \(name)")
            }
            guard named.digest == digest else {
                return ReceiptCheck(
                    "signature", .fail, "the signature algorithm \(name) does not use the digest the signer names (\(digest))")
            }
            scheme = named
        }
        let fits: Bool
        switch (signer.publicKey, scheme) {
        case (.p256, .ecdsa), (.p384, .ecdsa), (.rsa, .rsaPKCS1): fits = true
        case (.p256, .rsaPKCS1), (.p384, .rsaPKCS1), (.rsa, .ecdsa), (.unsupported, _): fits = false
        }
        guard fits else {
            return ReceiptCheck(
                "signature", .fail, "signature algorithm \(name) does not fit the \(signer.publicKey.summary) key of '\(subject)'"
            )
        }
        let valid = signer.publicKey.isValidSignature(info.signature, for: message, algorithm: scheme)
        let shown = name == SignatureAlgorithm.name(scheme.oid) ? name : "\(name) with \(digest) (\(scheme))"
        return valid
            ? ReceiptCheck("signature", .pass, "\(shown) by '\(subject)'")
            : ReceiptCheck("signature", .fail, "the \(shown) signature by '\(subject)' does not match the payload")
    }

    static func chainCheck(_ d: DecodedReceipt, _ signer: Certificate?, root: Certificate) -> ReceiptCheck {
        guard let signer else { return ReceiptCheck("chain", .fail, "no signer certificate to chain to the root") }
        guard let time = d.receipt.creationDate else {
            return ReceiptCheck("chain", .fail, "the receipt has no creation date (attribute 12) to check the certificates at")
        }
        let intermediates = d.envelope.certificates.filter { $0 != signer }
        switch CertificateChain.verify(leaf: signer, intermediates: intermediates, root: root, at: time) {
        case .success(let path):
            let names = path.map { $0.subject.commonName ?? $0.subject.description }
            return ReceiptCheck("chain", .pass, names.joined(separator: " -> ") + " (at \(time.rfc3339))")
        case .failure(let error):
            return ReceiptCheck("chain", .fail, "\(error)")
        }
    }

    static func markerCheck(_ d: DecodedReceipt, _ signer: Certificate?, root: Certificate) -> ReceiptCheck {
        guard let signer else { return ReceiptCheck("appleMarkers", .fail, "no signer certificate") }
        if signer == root && signer.issuer.der == signer.subject.der {
            return ReceiptCheck(
                "appleMarkers", .skip,
                "the signer is the trusted root itself (a self-signed certificate such as Xcode's StoreKit Testing one), which carries no Apple markers"
            )
        }
        guard signer.hasExtension(.appleReceiptSigner) else {
            return ReceiptCheck(
                "appleMarkers", .fail, "the signing certificate lacks Apple's receipt-signer OID \(OID.appleReceiptSigner)")
        }
        guard
            let issuer = (d.envelope.certificates + [root]).first(where: { $0.subject.der == signer.issuer.der && $0 != signer })
        else {
            return ReceiptCheck("appleMarkers", .fail, "the signer's issuer is not in the receipt")
        }
        guard issuer.hasExtension(.appleWWDRIntermediate) else {
            return ReceiptCheck("appleMarkers", .fail, "the intermediate lacks Apple's WWDR OID \(OID.appleWWDRIntermediate)")
        }
        return ReceiptCheck(
            "appleMarkers", .pass, "leaf has \(OID.appleReceiptSigner), intermediate has \(OID.appleWWDRIntermediate)")
    }

    static func equality(_ name: String, found: String?, expected: String, what: String) -> ReceiptCheck {
        guard let found else { return ReceiptCheck(name, .fail, "the receipt has no \(what)") }
        return found == expected
            ? ReceiptCheck(name, .pass, found)
            : ReceiptCheck(name, .fail, "the receipt's \(what) is '\(found)', the app's is '\(expected)'")
    }

    static func hashCheck(_ r: AppReceipt, deviceID: [UInt8], assumed: Bool = false) -> ReceiptCheck {
        guard let stated = r.sha1Hash else { return ReceiptCheck("hash", .fail, "the receipt has no SHA-1 hash (attribute 5)") }
        guard let computed = r.expectedHash(deviceID: deviceID) else {
            return ReceiptCheck("hash", .fail, "the receipt lacks the opaque value or bundle id the hash covers")
        }
        let device = DeviceIdentifier.uuidString(deviceID)
        if computed != stated && assumed {
            return ReceiptCheck(
                "hash", .fail,
                "the receipt was made on a device iapctl does not know (not this store's device-id \(device)); give that device's identifierForVendor with --device-id UUID"
            )
        }
        return computed == stated
            ? ReceiptCheck("hash", .pass, "SHA-1(device \(device) || opaque || bundle id) = \(Hex.encode(stated))")
            : ReceiptCheck(
                "hash", .fail,
                "SHA-1(device \(device) || opaque || bundle id) is \(Hex.encode(computed)), the receipt says \(Hex.encode(stated)): it was made for another device"
            )
    }
}
