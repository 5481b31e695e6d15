import IAPJSON

/// How the simulated errors of an Xcode `.storekit` file become iapctl faults.
///
/// Xcode 15 and later store the Editor's "StoreKit Errors" switches as `settings._storeKitErrors`:
/// one entry per StoreKit API (`name`: "Load Products", "Purchase", ...), `enabled`, and the
/// error it throws (`current`). StoreKitTest models the same as `SKTestFailures.<API>` whose cases
/// wrap a StoreKit 2 error: `generic(StoreKitError)`, `purchase(Product.PurchaseError)`,
/// `verification(VerificationResult.VerificationError)`. iapctl simulates StoreKit 1, so each
/// enabled entry becomes a `fault` setting `<point> <error>` with the error named as the
/// `SKError.Code` the app would see (`purchase paymentCancelled`).
public enum StoreKitErrorMapping {
    /// The iapctl fault point for an Xcode API name, or nil when iapctl has no such point.
    /// Every category of `SKTestSession.setSimulatedError(_:forAPI:)` has one: loadProducts,
    /// purchase, verification, appStoreSync, subscriptionStatus, appTransaction,
    /// manageSubscriptions, refundRequest, offerCodeRedeem (the `_storeKitErrors` names Xcode
    /// writes: "Load Products" ... "Offer Code Redeem Sheet", as in
    /// Fixtures/real/storekit/rc-simpleapp-products-v2.storekit).
    ///
    /// `App Store Sync` is StoreKit 2's `AppStore.sync()`, the counterpart of StoreKit 1's
    /// `restoreCompletedTransactions()`; `App Transaction` is `AppTransaction.shared`/`refresh()`,
    /// the counterpart of `SKReceiptRefreshRequest`. Names are matched ignoring case and spaces.
    public static func faultPoint(forXcodeName name: String) -> String? {
        switch normalized(name) {
        case "loadproducts": return "products"
        case "purchase": return "purchase"
        case "verification": return "verification"
        case "appstoresync": return "restore"
        case "apptransaction": return "app-transaction"
        case "subscriptionstatus": return "subscription-status"
        case "managesubscriptionssheet", "managesubscriptions": return "manage-subscriptions"
        case "refundrequestsheet", "refundrequest": return "refund-request"
        case "offercoderedeemsheet", "offercoderedeem": return "offer-code-redeem"
        default: return nil
        }
    }

    /// The Xcode names iapctl knows but does not simulate (Xcode's own window, no API of the
    /// app); an enabled error on one of them is reported, not applied.
    public static let unsupportedXcodeNames = ["Transaction Manager"]

    /// `SKError.Code` names by raw value (REFERENCE section 1), as `_storeKitError` (format 1 and
    /// 2, the error of "Fail Transactions") stores them.
    public static let skErrorNames = [
        "unknown", "clientInvalid", "paymentCancelled", "paymentInvalid", "paymentNotAllowed",
        "storeProductNotAvailable", "cloudServicePermissionDenied", "cloudServiceNetworkConnectionFailed",
        "cloudServiceRevoked", "privacyAcknowledgementRequired", "unauthorizedRequestData",
        "invalidOfferIdentifier", "invalidSignature", "missingOfferParams", "invalidOfferPrice",
        "overlayCancelled", "overlayInvalidConfiguration", "overlayTimeout", "ineligibleForOffer",
        "unsupportedPlatform", "overlayPresentedInBackgroundScene",
    ]

    /// StoreKit 2 error cases and the `SKError.Code` an app sees for the same failure.
    ///
    /// `StoreKitError` and `Product.PurchaseError` cases map to the SKError StoreKit 1 reports for
    /// that condition. `VerificationResult.VerificationError` cases have no SKError (StoreKit 1
    /// leaves verification to the app), so they keep their own name for the `verification` point.
    public static let storeKit2Cases: [(xcode: String, iapctl: String)] = [
        // StoreKitError
        ("unknown", "unknown"),
        ("userCancelled", "paymentCancelled"),
        ("networkError", "cloudServiceNetworkConnectionFailed"),
        ("systemError", "unknown"),
        ("notAvailableInStorefront", "storeProductNotAvailable"),
        ("notEntitled", "clientInvalid"),
        ("unsupported", "unsupportedPlatform"),
        // Product.PurchaseError
        ("invalidQuantity", "paymentInvalid"),
        ("productUnavailable", "storeProductNotAvailable"),
        ("purchaseNotAllowed", "paymentNotAllowed"),
        ("ineligibleForOffer", "ineligibleForOffer"),
        ("invalidOfferIdentifier", "invalidOfferIdentifier"),
        ("invalidOfferPrice", "invalidOfferPrice"),
        ("invalidOfferSignature", "invalidSignature"),
        ("missingOfferParameters", "missingOfferParams"),
        // VerificationResult.VerificationError
        ("revokedCertificate", "revokedCertificate"),
        ("invalidCertificateChain", "invalidCertificateChain"),
        ("invalidDeviceVerification", "invalidDeviceVerification"),
        ("invalidEncoding", "invalidEncoding"),
        ("missingRequiredProperties", "missingRequiredProperties"),
    ]

    /// The iapctl error name for an Xcode error case name (a StoreKit 2 case or an SKError name),
    /// or nil when the name is not one iapctl knows.
    public static func errorName(forXcodeCase name: String) -> String? {
        if let match = storeKit2Cases.first(where: { $0.xcode.lowercased() == name.lowercased() }) {
            return match.iapctl
        }
        return skErrorNames.first { $0.lowercased() == name.lowercased() }
    }

    /// Finds the error case in an `_storeKitErrors[].current` value.
    ///
    /// Xcode writes `null` when no error is picked. Otherwise the value names a case, directly or
    /// wrapped in the failure's category (`generic`, `purchase`, `verification`) and Swift's
    /// `_0` payload keys; this looks through those wrappers for the first known case name, so
    /// every nesting Xcode has used reads the same.
    static func errorCase(in value: JSONValue, depth: Int = 0) -> String? {
        guard depth < 8 else { return nil }
        switch value {
        case .string(let text):
            return errorName(forXcodeCase: text)
        case .object(let members):
            for member in members {
                if let name = errorName(forXcodeCase: member.key) { return name }
            }
            for member in members {
                if let name = errorCase(in: member.value, depth: depth + 1) { return name }
            }
            return nil
        case .array(let items):
            for item in items {
                if let name = errorCase(in: item, depth: depth + 1) { return name }
            }
            return nil
        case .null, .bool, .number:
            return nil
        }
    }

    private static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { !$0.isWhitespace })
    }
}
