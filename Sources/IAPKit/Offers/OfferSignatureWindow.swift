import IAPTime

/// How long a signed offer stays valid, measured on the store's simulated clock.
///
/// The legacy signature: "A timestamp your server generates in UNIX time format, in milliseconds.
/// The timestamp keeps the offer active for 24 hours" (StoreKit, "Generating a signature for
/// promotional offers"). The JWS forms: "The App Store server enforces an expiration time based
/// on your iat value" ("Generating JWS to sign App Store requests"), without saying how long;
/// iapctl applies the same 24 hours. A signature dated after the store's clock (beyond a minute
/// of leeway, for a signer whose clock runs a little ahead) is refused too: it was made for a
/// clock the store has not reached, which is what signing with the wall clock against a store
/// still at its start date looks like.
public enum OfferSignatureWindow {
    /// 24 hours, in milliseconds.
    public static let validity: Int64 = 86_400_000
    /// How far ahead of the store's clock a signature may be dated, in milliseconds.
    public static let leeway: Int64 = 60_000

    /// Checks a signature dated `signed` (milliseconds since 1970) against `now`; `what` names
    /// the signed date in the error (`the timestamp 1767225600000`, `iat 1767225600`).
    public static func check(signed: Int64, now: Timestamp, what: String) throws(OfferError) {
        let age = now.milliseconds - signed
        if age > validity {
            throw .outsideWindow(
                "\(what) (\(Timestamp(milliseconds: signed).rfc3339)) is \(describe(age)) before the store's clock (\(now.rfc3339)); a signed offer is valid for 24 hours, so sign a new one"
            )
        }
        if -age > leeway {
            throw .outsideWindow(
                "\(what) (\(Timestamp(milliseconds: signed).rfc3339)) is \(describe(-age)) after the store's clock (\(now.rfc3339)); sign with the store's time ('iapctl clock') or move the clock ('iapctl clock set')"
            )
        }
    }

    /// `26h 3m`, `45s`: a duration in the largest units that fit.
    static func describe(_ ms: Int64) -> String {
        let seconds = ms / 1000
        let days = seconds / 86_400
        let hours = seconds % 86_400 / 3600
        let minutes = seconds % 3600 / 60
        if days > 0 { return "\(days)d \(hours)h" }
        if hours > 0 { return "\(hours)h \(minutes)m" }
        if minutes > 0 { return "\(minutes)m \(seconds % 60)s" }
        return "\(seconds)s"
    }
}
