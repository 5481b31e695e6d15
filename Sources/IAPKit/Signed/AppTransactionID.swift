import IAPCrypto

/// The `appTransactionId` of the store's account: "the unique identifier of the app download
/// transaction" (App Store Server API, appTransactionId), which Apple writes into every signed
/// transaction, renewal info and AppTransaction of the customer's app.
///
/// A store is one Apple account with one app, so it has exactly one. iapctl derives it from the
/// bundle id (SHA-256, as a decimal string of 18 digits starting with 7, the form of Apple's
/// examples such as `704289572311429787`), so it is the same for every transaction of a store,
/// survives `clear` and restarts, and never reads a clock or a random source.
public enum AppTransactionID {
    public static func of(bundleID: String) -> String {
        var sha = SHA256()
        sha.update(Array("iapctl app transaction ".utf8))
        sha.update(Array(bundleID.utf8))
        let digest = sha.finalize()
        var n: UInt64 = 0
        for b in digest.prefix(8) { n = n << 8 | UInt64(b) }
        return String(700_000_000_000_000_000 + n % 100_000_000_000_000_000)
    }
}
