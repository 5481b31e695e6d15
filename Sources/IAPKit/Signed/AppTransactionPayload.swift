import IAPJSON
import IAPTime

/// The payload of the signed AppTransaction (`signedAppTransactionInfo` of Get App Transaction
/// Info; StoreKit's `AppTransaction`; app-store-server-library's `AppTransaction` model).
///
/// Keys as Apple writes them: `receiptType` (the environment), `appAppleId` (when the app has one),
/// `bundleId`, `applicationVersion`, `versionExternalIdentifier` (0 outside production, as in
/// sandbox), `receiptCreationDate` (the signing date: Apple's verifier checks the chain at it, so
/// the payload has no `signedDate`), `originalPurchaseDate` (when the account first got the app),
/// `originalApplicationVersion`, `appTransactionId` (`AppTransactionID`), `originalPlatform`
/// (`iOS`: iapctl simulates StoreKit on iOS). `deviceVerification` and its nonce are bound to a
/// device and a nonce the app sends; a server-side lookup has neither, so they are left out.
public enum AppTransactionPayload {
    public struct Content: Sendable, Equatable {
        public var appAppleID: Int64?
        public var applicationVersion: String
        public var originalApplicationVersion: String
        public var originalPurchaseDate: Timestamp

        public init(
            appAppleID: Int64?, applicationVersion: String, originalApplicationVersion: String, originalPurchaseDate: Timestamp
        ) {
            self.appAppleID = appAppleID
            self.applicationVersion = applicationVersion
            self.originalApplicationVersion = originalApplicationVersion
            self.originalPurchaseDate = originalPurchaseDate
        }
    }

    public static func bytes(_ c: Content, context: SignedDataContext) -> [UInt8] {
        var w = JSONWriter(capacity: 512)
        w.beginObject()
        w.key("receiptType")
        w.string(context.environmentName)
        if let id = c.appAppleID {
            w.key("appAppleId")
            w.int(id)
        }
        w.key("bundleId")
        w.string(context.bundleID)
        w.key("applicationVersion")
        w.string(c.applicationVersion)
        w.key("versionExternalIdentifier")
        w.int(0)
        w.key("receiptCreationDate")
        w.int(context.signedDate.milliseconds)
        w.key("originalPurchaseDate")
        w.int(c.originalPurchaseDate.milliseconds)
        w.key("originalApplicationVersion")
        w.string(c.originalApplicationVersion)
        w.key("appTransactionId")
        w.string(AppTransactionID.of(bundleID: context.bundleID))
        w.key("originalPlatform")
        w.string("iOS")
        w.endObject()
        return w.bytes
    }

    /// The store's AppTransaction: its app versions, and as the original purchase date the
    /// store's first transaction's (the app was on the account by then) or, before any purchase,
    /// the store's clock.
    public static func content(session: StoreSession, appAppleID: Int64?) throws(StoreError) -> Content {
        let first = try session.transaction(TransactionID.first)
        return Content(
            appAppleID: appAppleID, applicationVersion: session.state.appVersion,
            originalApplicationVersion: session.state.originalAppVersion,
            originalPurchaseDate: first.map { min($0.originalDate, $0.date) } ?? session.state.clock)
    }
}
