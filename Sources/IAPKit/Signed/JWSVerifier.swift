import IAPCrypto
import IAPJSON
import IAPTime

/// Verifies signed data the way Apple's `SignedDataVerifier` does (app-store-server-library,
/// `_decode_signed_object` and `_ChainVerifier`), with a caller-supplied root and no online
/// (OCSP) checks, check by check, so a failure says which one:
///
/// - `algorithm`: the header's `alg` is ES256 ("Algorithm was not ES256").
/// - `certificates`: `x5c` holds DER certificates in standard base64.
/// - `chain`: the leaf chains through the intermediate to the trusted root, every certificate
///   valid at the signing date (the payload's `signedDate`, as Apple's verifier uses with online
///   checks off), or, when the payload has none, at the time the caller gives (`VerificationTime`).
///   Each link's signature is checked with its issuer's key: ecdsa-with-SHA384 by P-384 keys in
///   Apple's chain (Root CA - G3 -> WWDR G6 -> leaf), ecdsa-with-SHA256 or SHA384 by P-256 keys in
///   Apple's test chains. Apple's chains have three certificates (leaf, intermediate, root); Xcode's
///   StoreKit testing signs with one self-signed certificate, which verifies when it is the
///   trusted root itself (Xcode's "StoreKit Testing in Xcode" certificate, which Xcode exports).
/// - `appleMarkers`: Apple's marker extensions, present on Apple's chains: the leaf's
///   1.2.840.113635.100.6.11.1 and the intermediate's 1.2.840.113635.100.6.2.1 (the two OIDs
///   `_ChainVerifier.check_oid` requires). Skipped for a one-certificate chain.
/// - `signature`: ECDSA P-256 with SHA-256 over `header.payload`, the signature raw R||S (RFC 7518
///   section 3.4), with the leaf's key.
/// - `bundleId` and `environment`, when the caller gives `SignedAppExpectations`: the payload's
///   app and environment, read where its kind keeps them, as the verifier's configuration
///   requires.
///
/// Trust anchors: the path must end at the caller's root (a root sent in `x5c` is not trusted),
/// matched by name and verified by key, as OpenSSL's `X509_verify_cert` does.
public enum JWSVerifier {
    /// Runs every check. `fallback` is the time to check the certificates at when the payload has
    /// no signing date (the CLI passes `--at` or the clock); without one such a payload fails
    /// `chain`. `strict` adds OpenSSL's strict X.509 profile to the chain check
    /// (`CertificateChain.StrictCheck`), as app-store-server-library's verifier runs it; without
    /// it the chain is checked by RFC 5280 path validation, which passes Apple's test chains
    /// as Apple's own tests expect.
    public static func verify(
        _ jws: CompactJWS, root: Certificate, at fallback: VerificationTime? = nil,
        expecting expectations: SignedAppExpectations = SignedAppExpectations(), strict: Bool = false
    ) -> ReceiptVerificationReport {
        ReceiptVerificationReport(
            checks: signatureChecks(jws, root: root, at: fallback, strict: strict)
                + applicationChecks(jws.payload, expectations))
    }

    /// `bundleId` and `environment` against the expectations, for the members given.
    static func applicationChecks(_ payload: JSONValue, _ e: SignedAppExpectations) -> [ReceiptCheck] {
        guard !e.isEmpty else { return [] }
        let kind = SignedPayloadKind(payload)
        let found = kind.identity(payload)
        var checks: [ReceiptCheck] = []
        if e.bundleID != nil || e.appAppleID != nil {
            checks.append(bundleCheck(kind, found, e))
        }
        if let environment = e.environment {
            checks.append(
                found.environment == environment
                    ? ReceiptCheck("environment", .pass, "\(environment) (\(kind.rawValue))")
                    : ReceiptCheck(
                        "environment", .fail,
                        "the \(kind.rawValue)'s environment is \(found.environment.map { "'\($0)'" } ?? "missing"), expected '\(environment)'"
                    ))
        }
        return checks
    }

    private static func bundleCheck(
        _ kind: SignedPayloadKind, _ found: (bundleID: String?, environment: String?, appAppleID: Int64?),
        _ e: SignedAppExpectations
    ) -> ReceiptCheck {
        if kind == .renewalInfo {
            return ReceiptCheck("bundleId", .skip, "a renewal info carries no bundle id (Apple's verifier checks none)")
        }
        if let bundle = e.bundleID, found.bundleID != bundle {
            return ReceiptCheck(
                "bundleId", .fail,
                "the \(kind.rawValue)'s bundle id is \(found.bundleID.map { "'\($0)'" } ?? "missing"), expected '\(bundle)'")
        }
        // Apple's verifier compares appAppleId only in Production, and only where the payload has one.
        let production = e.environment == "Production"
        if production, kind == .notification || kind == .appTransaction, let id = e.appAppleID, found.appAppleID != id {
            return ReceiptCheck(
                "bundleId", .fail,
                "the \(kind.rawValue)'s appAppleId is \(found.appAppleID.map(String.init) ?? "missing"), expected \(id)")
        }
        var detail = e.bundleID ?? found.bundleID ?? "-"
        if production, kind == .notification || kind == .appTransaction, let id = e.appAppleID { detail += ", appAppleId \(id)" }
        return ReceiptCheck("bundleId", .pass, detail)
    }

    private static func signatureChecks(
        _ jws: CompactJWS, root: Certificate, at fallback: VerificationTime?, strict: Bool
    ) -> [ReceiptCheck] {
        var checks: [ReceiptCheck] = []
        let alg = jws.algorithm
        checks.append(
            alg == "ES256"
                ? ReceiptCheck("algorithm", .pass, "ES256 (ECDSA P-256, SHA-256)")
                : ReceiptCheck(
                    "algorithm", .fail, "the header's alg is \(alg.map { "'\($0)'" } ?? "missing"); Apple signs with ES256"))

        var certificates: [Certificate] = []
        if let chain = jws.certificateChainBase64, !chain.isEmpty {
            for (index, text) in chain.enumerated() {
                guard let der = Base64.decode(text) else {
                    checks.append(ReceiptCheck("certificates", .fail, "x5c[\(index)] is not standard base64"))
                    return finish(checks, skipping: ["chain", "appleMarkers", "signature"])
                }
                do {
                    certificates.append(try Certificate(der: der))
                } catch {
                    checks.append(ReceiptCheck("certificates", .fail, "x5c[\(index)] is not a DER certificate: \(error)"))
                    return finish(checks, skipping: ["chain", "appleMarkers", "signature"])
                }
            }
            checks.append(
                ReceiptCheck(
                    "certificates", .pass,
                    "\(certificates.count) in x5c: "
                        + certificates.map { "'\($0.subject.commonName ?? "\($0.subject)")'" }.joined(separator: ", ")))
        } else {
            checks.append(ReceiptCheck("certificates", .fail, "the header has no x5c certificate chain"))
            return finish(checks, skipping: ["chain", "appleMarkers", "signature"])
        }

        let leaf = certificates[0]
        checks.append(
            chainCheck(certificates, root: root, at: VerificationTime.resolve(jws, fallback: fallback), strict: strict))
        checks.append(markerCheck(certificates))
        checks.append(signatureCheck(jws, leaf: leaf))
        return checks
    }

    private static func chainCheck(
        _ certificates: [Certificate], root: Certificate, at time: VerificationTime?, strict: Bool
    ) -> ReceiptCheck {
        guard let time else {
            return ReceiptCheck(
                "chain", .fail, "the payload has no signedDate and no time was given to check the certificates at")
        }
        let date = time.date
        switch certificates.count {
        case 1:
            guard certificates[0] == root else {
                return ReceiptCheck(
                    "chain", .fail,
                    "the one certificate in x5c ('\(certificates[0].subject)') is not the trusted root ('\(root.subject)'); give it as --root"
                )
            }
        case 3:
            break
        default:
            return ReceiptCheck(
                "chain", .fail,
                "x5c holds \(certificates.count) certificates; Apple's chains hold 3 (leaf, intermediate, root), Xcode's 1")
        }
        // The root in x5c, if sent, is not trusted: the path must end at the caller's root.
        let intermediates = certificates.count == 3 ? [certificates[1]] : []
        switch CertificateChain.verify(
            leaf: certificates[0], intermediates: intermediates, root: root, at: date, strict: strict)
        {
        case .failure(let error):
            return ReceiptCheck("chain", .fail, "\(error) (\(time.reason))")
        case .success(let path):
            if certificates.count == 3 && path.count != 3 {
                return ReceiptCheck(
                    "chain", .fail, "the leaf reaches the root in \(path.count - 1) step(s); it must be issued by x5c[1]")
            }
            return ReceiptCheck(
                "chain", .pass,
                "\(path.map { "'\($0.subject.commonName ?? "\($0.subject)")'" }.joined(separator: " -> ")), valid at \(date) (\(time.reason))"
            )
        }
    }

    private static func markerCheck(_ certificates: [Certificate]) -> ReceiptCheck {
        guard certificates.count >= 2 else {
            return ReceiptCheck("appleMarkers", .skip, "one self-signed certificate (Xcode's StoreKit testing) has no markers")
        }
        var missing: [String] = []
        if !certificates[0].hasExtension(.appleReceiptSigner) { missing.append("leaf lacks \(OID.appleReceiptSigner)") }
        if !certificates[1].hasExtension(.appleWWDRIntermediate) {
            missing.append("intermediate lacks \(OID.appleWWDRIntermediate)")
        }
        if missing.isEmpty {
            return ReceiptCheck(
                "appleMarkers", .pass, "leaf \(OID.appleReceiptSigner), intermediate \(OID.appleWWDRIntermediate)")
        }
        return ReceiptCheck("appleMarkers", .fail, missing.joined(separator: "; "))
    }

    private static func signatureCheck(_ jws: CompactJWS, leaf: Certificate) -> ReceiptCheck {
        guard case .p256(let key) = leaf.publicKey else {
            return ReceiptCheck(
                "signature", .fail, "the leaf's key is \(leaf.publicKey.summary), not P-256, so it cannot make an ES256 signature"
            )
        }
        guard jws.signature.count == 64 else {
            return ReceiptCheck(
                "signature", .fail, "the signature has \(jws.signature.count) bytes; ES256 signatures are 64 (R||S, not DER)")
        }
        guard key.isValidSignature(raw: jws.signature, for: jws.signingInput) else {
            return ReceiptCheck("signature", .fail, "ES256 signature over header.payload does not verify with the leaf's key")
        }
        return ReceiptCheck("signature", .pass, "ES256 over header.payload, with the leaf's key")
    }

    private static func finish(_ checks: [ReceiptCheck], skipping names: [String]) -> [ReceiptCheck] {
        checks + names.map { ReceiptCheck($0, .skip, "not checked: the certificates could not be read") }
    }
}
