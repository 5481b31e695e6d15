import IAPTime

/// The time a JWS's certificates are checked at, and why that one.
///
/// Apple's `SignedDataVerifier` (app-store-server-library, `_decode_signed_object`) checks the
/// chain at the payload's `signedDate` (or an app transaction's `receiptCreationDate`) when
/// online checks are off, and at the current time when the payload has neither, as real 2022
/// notifications do not. iapctl does the same, except that IAPKit never reads the clock: the
/// caller passes the time to use without a signing date (the CLI's `--at`, or the clock it reads).
public struct VerificationTime: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        /// The payload's `signedDate`.
        case signedDate
        /// An app transaction's `receiptCreationDate` (it has no `signedDate`).
        case receiptCreationDate
        /// A time the user gave (`--at`), used because the payload has no signing date.
        case given
        /// The current time, read by the caller, used because the payload has no signing date.
        case now
    }

    public var date: Timestamp
    public var source: Source

    public init(_ date: Timestamp, _ source: Source) {
        self.date = date
        self.source = source
    }

    /// The signing date `jws` carries, else `fallback` (nil when there is neither).
    public static func resolve(_ jws: CompactJWS, fallback: VerificationTime?) -> VerificationTime? {
        if let signed = jws.signingDate {
            return VerificationTime(signed.date, signed.field == "signedDate" ? .signedDate : .receiptCreationDate)
        }
        return fallback
    }

    /// Why this time, in words: "the payload's signedDate", "now: the payload has no signedDate".
    public var reason: String {
        switch source {
        case .signedDate: return "the payload's signedDate"
        case .receiptCreationDate: return "the payload's receiptCreationDate"
        case .given: return "the time given: the payload has no signedDate"
        case .now: return "now: the payload has no signedDate"
        }
    }
}
