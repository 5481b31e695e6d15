/// Why the App Store refuses an offer on a purchase: StoreKit's offer errors (`SKError` 11, 12,
/// 13, 14 and 18; StoreKit 2's `Product.PurchaseError` `invalidOfferIdentifier`,
/// `invalidOfferSignature`, `missingOfferParameters`, `invalidOfferPrice`, `ineligibleForOffer`),
/// each with a one-line reason that names the bad value and the fix.
///
/// The purchase fails with `skErrorCode`; `description` is what iapctl prints beside it, since
/// StoreKit's own message ("The signature in a payment discount is not valid.") does not say
/// which part is wrong, and that is what a developer testing a signing server needs to know.
public enum OfferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The product has no such offer (of the kind asked for).
    case unknownOffer(kind: String, id: String, product: ProductID, known: [String])
    /// A part of the signed offer is missing (key id, nonce, timestamp, signature, a claim).
    case missingParameter(String)
    /// The signature names a key the store does not have.
    case unknownKey(String, known: [String])
    /// The signature text is not what the form requires (base64 DER, a compact JWS, ...).
    case malformedSignature(String)
    /// The signature does not verify over what it should cover.
    case signatureMismatch(String)
    /// A signed value does not match the purchase (product, bundle id, audience, ...).
    case claimMismatch(claim: String, found: String, expected: String)
    /// The signature is older than Apple's window, or dated in the future.
    case outsideWindow(String)
    /// The nonce was used before: Apple's nonces are "one-time" values.
    case nonceReused(String)
    /// The offer has no price in the storefront, or cannot apply to this purchase's terms.
    case invalidPrice(String)
    /// The customer may not redeem the offer.
    case ineligible(String)
    /// The offer is set up for another billing plan than the purchase's.
    case wrongBillingPlan(String)

    /// The StoreKit error the purchase fails with.
    public var skErrorCode: SKErrorCode {
        switch self {
        case .unknownOffer, .wrongBillingPlan: return .invalidOfferIdentifier
        case .missingParameter: return .missingOfferParams
        case .unknownKey, .malformedSignature, .signatureMismatch, .claimMismatch, .outsideWindow, .nonceReused:
            return .invalidSignature
        case .invalidPrice: return .invalidOfferPrice
        case .ineligible: return .ineligibleForOffer
        }
    }

    public var description: String {
        switch self {
        case .unknownOffer(let kind, let id, let product, let known):
            let list = known.isEmpty ? "it has none" : "known: \(known.joined(separator: ", "))"
            return "product '\(product)' has no \(kind) '\(id)'; \(list) (see 'iapctl products \(product) --json')"
        case .missingParameter(let what):
            return "the offer is missing \(what)"
        case .unknownKey(let id, let known):
            let list =
                known.isEmpty
                ? "the store has none (add one with 'iapctl offer-key add KEY_ID FILE')"
                : "known: \(known.joined(separator: ", "))"
            return "no subscription offer key '\(id)'; \(list)"
        case .malformedSignature(let why), .signatureMismatch(let why), .outsideWindow(let why), .invalidPrice(let why),
            .ineligible(let why), .wrongBillingPlan(let why):
            return why
        case .claimMismatch(let claim, let found, let expected):
            return "the signed \(claim) is '\(found)', expected '\(expected)'; sign the offer for this purchase"
        case .nonceReused(let nonce):
            return "the nonce \(nonce) was already used; generate a new nonce for every signature"
        }
    }
}
