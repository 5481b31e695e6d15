import IAPTime

/// Verification of a leaf certificate up to one trusted root through untrusted intermediates, the
/// check RMStore's receipt verifier and Apple's server library make before trusting a receipt
/// or JWS: each link's signature, each certificate's validity at the given (simulated) time, and
/// the CA flag and path length of every issuer. Names are matched exactly; no revocation checks.
public enum CertificateChain {
    /// Longest path considered, leaf and root included.
    public static let maximumLength = 8

    /// Builds and checks the path leaf -> intermediates... -> root.
    ///
    /// - Returns: the path (leaf first, root last) or the first failed check, walking from the leaf.
    public static func verify(
        leaf: Certificate, intermediates: [Certificate], root: Certificate, at time: Timestamp, strict: Bool = false
    ) -> Result<[Certificate], CertificateChainError> {
        var path = [leaf]
        var current = leaf
        while current != root {
            guard path.count < maximumLength else { return .failure(.tooLong(limit: maximumLength)) }
            let candidates = ([root] + intermediates).filter { $0.subject.der == current.issuer.der && !path.contains($0) }
            guard !candidates.isEmpty else {
                return .failure(.issuerNotFound(subject: "\(current.subject)", issuer: "\(current.issuer)"))
            }
            guard let issuer = candidates.first(where: { current.isSigned(by: $0) }) else {
                return .failure(.signature(subject: "\(current.subject)", issuer: "\(candidates[0].subject)"))
            }
            path.append(issuer)
            current = issuer
        }
        for (index, certificate) in path.enumerated() {
            let name = "\(certificate.subject)"
            if strict, let check = strictFailure(certificate) { return .failure(.strict(subject: name, check: check)) }
            if time < certificate.notBefore {
                return .failure(.notYetValid(subject: name, notBefore: certificate.notBefore, at: time))
            }
            if time > certificate.notAfter {
                return .failure(.expired(subject: name, notAfter: certificate.notAfter, at: time))
            }
            guard index > 0 else { continue }
            // A version 1 self-signed trust anchor cannot carry basicConstraints; OpenSSL's
            // X509_check_ca treats it as a CA, and RFC 5280 section 6.1 does not check the trust
            // anchor at all. Every other issuer must say cA.
            let v1Anchor = certificate == root && certificate.version == 1 && certificate.issuer.der == certificate.subject.der
            guard certificate.isCA || v1Anchor else { return .failure(.notCA(subject: name)) }
            // Intermediates strictly between this issuer and the leaf.
            if let limit = certificate.basicConstraints?.pathLength, index - 1 > limit {
                return .failure(.pathLengthExceeded(subject: name, limit: limit))
            }
        }
        return .success(path)
    }

    /// The extension checks OpenSSL adds under `X509_V_FLAG_X509_STRICT` (`check_extensions` in
    /// `crypto/x509/x509_vfy.c`, OpenSSL 3), which Apple's app-store-server-library sets in its
    /// `SignedDataVerifier` (through pyOpenSSL's `X509StoreFlags.X509_STRICT`). RFC 5280 path
    /// validation does not require them, and Apple's own test certificates (the library's
    /// `tests/resources/certs`) lack them, so the library rejects its own test tokens while the
    /// App Store's chain passes. Checked on every certificate of the path, leaf first, as OpenSSL
    /// walks it.
    public enum StrictCheck: String, Sendable, Equatable, CaseIterable {
        case missingAuthorityKeyIdentifier = "Missing Authority Key Identifier"
        case missingSubjectKeyIdentifier = "Missing Subject Key Identifier"
        case basicConstraintsNotCritical = "Basic Constraints of CA cert not marked critical"
        case caMissingKeyUsage = "CA cert does not include key usage extension"
        case pathLengthOnNonCA = "Path length constraint in a certificate that is not a CA"
    }

    /// The first strict-profile check `certificate` fails, in OpenSSL's order, or nil.
    public static func strictFailure(_ certificate: Certificate) -> StrictCheck? {
        let selfIssued = certificate.issuer.der == certificate.subject.der
        if let constraints = certificate.basicConstraints {
            if constraints.isCA {
                let critical = certificate.extensions.first { $0.oid == .basicConstraints }?.isCritical ?? false
                if !critical { return .basicConstraintsNotCritical }
                if !certificate.hasExtension(.keyUsage) { return .caMissingKeyUsage }
            } else if constraints.pathLength != nil {
                return .pathLengthOnNonCA
            }
        }
        if !selfIssued && !certificate.hasExtension(.authorityKeyIdentifier) { return .missingAuthorityKeyIdentifier }
        if certificate.isCA && !certificate.hasExtension(.subjectKeyIdentifier) { return .missingSubjectKeyIdentifier }
        return nil
    }
}
