import IAPTime

/// Which check of a certificate chain failed, and on which certificate (named by subject), so
/// that a receipt verifier can report "the intermediate is not a CA" rather than "invalid".
public enum CertificateChainError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No certificate among the intermediates and the root has the subject this issuer names.
    case issuerNotFound(subject: String, issuer: String)
    /// The issuer was found by name but its key does not verify the signature.
    case signature(subject: String, issuer: String)
    case notYetValid(subject: String, notBefore: Timestamp, at: Timestamp)
    case expired(subject: String, notAfter: Timestamp, at: Timestamp)
    /// A certificate used as an issuer lacks basicConstraints cA = true.
    case notCA(subject: String)
    /// More intermediates sit below a CA than its pathLenConstraint allows.
    case pathLengthExceeded(subject: String, limit: Int)
    /// The path grew beyond `CertificateChain.maximumLength` without reaching the root.
    case tooLong(limit: Int)
    /// A strict-profile check (OpenSSL's `X509_V_FLAG_X509_STRICT`) failed: `check` names it as
    /// OpenSSL's verify error does.
    case strict(subject: String, check: CertificateChain.StrictCheck)

    public var description: String {
        switch self {
        case .issuerNotFound(let subject, let issuer):
            return "certificate '\(subject)': no issuer '\(issuer)' among the intermediates or the root"
        case .signature(let subject, let issuer):
            return "certificate '\(subject)': signature does not verify with the key of '\(issuer)'"
        case .notYetValid(let subject, let notBefore, let at):
            return "certificate '\(subject)': not valid before \(notBefore) (checked at \(at))"
        case .expired(let subject, let notAfter, let at):
            return "certificate '\(subject)': expired at \(notAfter) (checked at \(at))"
        case .notCA(let subject):
            return "certificate '\(subject)': used as an issuer but basicConstraints does not say CA"
        case .pathLengthExceeded(let subject, let limit):
            return "certificate '\(subject)': allows \(limit) intermediate(s) below it, the chain has more"
        case .tooLong(let limit):
            return "chain longer than \(limit) certificates without reaching the root"
        case .strict(let subject, let check):
            return
                "certificate '\(subject)': \(check.rawValue) (the strict X.509 profile; without --strict RFC 5280 path validation accepts it)"
        }
    }
}
