import IAPCrypto
import IAPTime

/// The original promotional offer signature (`SKPaymentDiscount.signature`), checked as the App
/// Store checks it.
///
/// The app's server signs `appBundleID`, `keyIdentifier`, `productIdentifier`, `offerIdentifier`,
/// `applicationUsername` (or `appAccountToken`), `nonce` and `timestamp`, joined by U+2063
/// INVISIBLE SEPARATOR, in that order, as UTF-8, with ECDSA P-256 and SHA-256, and sends base64
/// of the DER-encoded signature (StoreKit, "Generating a signature for promotional offers"). The application username (or
/// app account token) and the nonce are lowercased ("The string representation of the
/// appAccountToken must be lowercase", "... of the nonce ... must be lowercase"), exactly as
/// Apple's own signer does (app-store-server-library's `PromotionalOfferSignatureCreator`:
/// `application_username.lower()`, `str(nonce).lower()`, `str(timestamp)`).
public enum PromotionalOfferSignature {
    /// U+2063 INVISIBLE SEPARATOR.
    public static let separator = "\u{2063}"

    /// The exact text Apple signs.
    public static func payload(
        bundleID: String, keyID: String, productID: ProductID, offerID: OfferID, applicationUsername: String,
        nonce: OfferNonce, timestamp: Int64
    ) -> String {
        [
            bundleID, keyID, productID.rawValue, offerID.rawValue, applicationUsername.lowercased(), nonce.lowercased,
            String(timestamp),
        ].joined(separator: separator)
    }

    /// What a verified signature vouches for: the nonce to spend and when it stops mattering.
    public struct Verified: Sendable, Equatable {
        public let keyID: String
        public let nonce: OfferNonce
        /// When the signature stops being valid: a nonce need not be remembered after that.
        public let validUntil: Timestamp
    }

    /// Checks `discount` for a purchase of `productID` by `applicationUsername` (nil for none:
    /// signed as the empty string) in the app `bundleID`, with the keys the store holds, at
    /// `now` on the store's clock. The order is StoreKit's: missing parts first (13), then the
    /// key and the signature (12), then the 24-hour window (12). Whether the offer exists (11)
    /// and the nonce is fresh (12) the caller checks, as they need the catalog and the store.
    public static func verify(
        _ discount: PaymentDiscount, bundleID: String, productID: ProductID, applicationUsername: String?,
        keys: [SubscriptionOfferKey], now: Timestamp
    ) throws(OfferError) -> Verified {
        let missing = discount.missingParts
        guard missing.isEmpty, let keyID = discount.keyID, let nonce = discount.nonce, let timestamp = discount.timestamp,
            let signatureText = discount.signature
        else {
            throw .missingParameter(
                "\(missing.joined(separator: ", ")); SKPaymentDiscount needs the offer, key id, nonce, timestamp and signature")
        }
        guard let key = keys.first(where: { $0.id == keyID }) else {
            throw .unknownKey(keyID, known: keys.map(\.id))
        }
        guard let der = Base64.decode(signatureText) else {
            throw .malformedSignature(
                "the signature is not base64; give base64 of the DER-encoded ECDSA signature, as PromotionalOfferSignatureCreator makes"
            )
        }
        guard (try? P256.Signature(derRepresentation: der)) != nil else {
            throw .malformedSignature(
                "the signature is \(der.count) bytes of base64 but not a DER-encoded ECDSA signature (SEQUENCE of two INTEGERs); sign with ECDSA and SHA-256 and send the DER form"
            )
        }
        let text = payload(
            bundleID: bundleID, keyID: keyID, productID: productID, offerID: discount.offerID,
            applicationUsername: applicationUsername ?? "", nonce: nonce, timestamp: timestamp)
        guard key.publicKey.isValidSignature(der: der, for: Array(text.utf8)) else {
            throw .signatureMismatch(
                "the signature does not verify with key '\(keyID)' over bundle id '\(bundleID)', key id '\(keyID)', product '\(productID)', offer '\(discount.offerID)', application username '\((applicationUsername ?? "").lowercased())', nonce \(nonce), timestamp \(timestamp) (joined by U+2063); sign exactly these with that key"
            )
        }
        try OfferSignatureWindow.check(signed: timestamp, now: now, what: "the timestamp \(timestamp)")
        return Verified(
            keyID: keyID, nonce: nonce, validUntil: Timestamp(milliseconds: timestamp + OfferSignatureWindow.validity))
    }
}
