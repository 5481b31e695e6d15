import IAPCrypto
import IAPJSON
import IAPTime

/// The JWS forms of signed offers, checked as the App Store checks them: the promotional offer
/// (StoreKit 2's `promotionalOffer(_:compactJWS:)`, `aud` `promotional-offer`) and the
/// introductory offer eligibility override (`introductoryOfferEligibility(compactJWS:)`, `aud`
/// `introductory-offer-eligibility`), both back-deployed to iOS 15.
///
/// Apple's rules ("Generating JWS to sign App Store requests"): the header is `alg` ES256, `kid`
/// "Your private key ID from App Store Connect" and `typ` JWT; the payload has the base claims
/// `iss` (the issuer id), `iat` ("The UNIX time, in seconds, that you issue the token, which the
/// App Store server uses to calculate an expiration time"), `aud`, `bid` (the bundle id) and
/// `nonce` ("A one-time-use UUID"); "Don't include an exp field in your payload, because
/// including it makes the request fail". A promotional offer adds `productId`,
/// `offerIdentifier` and the optional `transactionId`; the eligibility override adds
/// `productId`, `allowIntroductoryOffer` and `transactionId`. Apple's own signers
/// (`PromotionalOfferV2SignatureCreator`, `IntroductoryOfferEligibilitySignatureCreator`) write
/// exactly these.
public enum SignedOfferJWS {
    public static let promotionalOfferAudience = "promotional-offer"
    public static let introductoryOfferEligibilityAudience = "introductory-offer-eligibility"

    /// The claims every signed offer carries, once verified.
    public struct BaseClaims: Sendable, Equatable {
        public let keyID: String
        public let issuer: String
        /// `iat`, in seconds since 1970.
        public let issuedAt: Int64
        public let nonce: OfferNonce
        /// The customer's transaction the server named (`transactionId`), if any.
        public let transactionID: String?

        /// When the signature stops being valid: a nonce need not be remembered after that.
        public var validUntil: Timestamp {
            Timestamp(milliseconds: issuedAt * 1000 + OfferSignatureWindow.validity)
        }
    }

    /// A verified promotional offer signature: the offer it grants.
    public struct PromotionalOfferClaims: Sendable, Equatable {
        public let base: BaseClaims
        public let offerID: OfferID
    }

    /// A verified introductory offer eligibility signature: what the server decided.
    public struct IntroductoryEligibilityClaims: Sendable, Equatable {
        public let base: BaseClaims
        public let allowIntroductoryOffer: Bool
    }

    /// Checks a promotional offer JWS for a purchase of `productID` in the app `bundleID`.
    /// Whether the offer exists (11), the transaction is the customer's and the nonce is fresh
    /// (12) the caller checks.
    public static func verifyPromotionalOffer(
        _ token: String, bundleID: String, productID: ProductID, keys: [SubscriptionOfferKey], now: Timestamp
    ) throws(OfferError) -> PromotionalOfferClaims {
        let (jws, base) = try verifyBase(
            token, audience: promotionalOfferAudience, bundleID: bundleID, productID: productID, keys: keys, now: now,
            transactionRequired: false)
        guard let offer = jws.payload["offerIdentifier"], offer != .null else {
            throw .missingParameter("the offerIdentifier claim; PromotionalOfferV2SignatureCreator signs the offer's identifier")
        }
        guard let offerID = offer.stringValue, !offerID.isEmpty else {
            throw .malformedSignature("the offerIdentifier claim is \(shown(offer)), not an offer identifier string")
        }
        return PromotionalOfferClaims(base: base, offerID: OfferID(offerID))
    }

    /// Checks an introductory offer eligibility JWS for a purchase of `productID`.
    public static func verifyIntroductoryEligibility(
        _ token: String, bundleID: String, productID: ProductID, keys: [SubscriptionOfferKey], now: Timestamp
    ) throws(OfferError) -> IntroductoryEligibilityClaims {
        let (jws, base) = try verifyBase(
            token, audience: introductoryOfferEligibilityAudience, bundleID: bundleID, productID: productID, keys: keys,
            now: now, transactionRequired: true)
        guard let allow = jws.payload["allowIntroductoryOffer"], allow != .null else {
            throw .missingParameter("the allowIntroductoryOffer claim; sign true or false")
        }
        guard let flag = allow.boolValue else {
            throw .malformedSignature("the allowIntroductoryOffer claim is \(shown(allow)); it must be true or false")
        }
        return IntroductoryEligibilityClaims(base: base, allowIntroductoryOffer: flag)
    }

    /// The checks both forms share, in the order that trusts nothing unsigned: the JWS shape,
    /// the header, the key and the signature, then the claims.
    static func verifyBase(
        _ token: String, audience: String, bundleID: String, productID: ProductID, keys: [SubscriptionOfferKey],
        now: Timestamp, transactionRequired: Bool
    ) throws(OfferError) -> (CompactJWS, BaseClaims) {
        let jws: CompactJWS
        do {
            jws = try CompactJWS(parsing: token)
        } catch {
            throw .malformedSignature("the signed offer is \(error)")
        }
        guard let alg = jws.header["alg"], alg != .null else {
            throw .missingParameter("the JWS header's alg; Apple's signed offers use ES256")
        }
        guard alg.stringValue == "ES256" else {
            throw .malformedSignature("the JWS header's alg is \(shown(alg)); Apple's signed offers use ES256")
        }
        guard let kid = jws.header["kid"], kid != .null else {
            throw .missingParameter("the JWS header's kid; set it to the subscription offer key's id")
        }
        guard let keyID = kid.stringValue, !keyID.isEmpty else {
            throw .malformedSignature("the JWS header's kid is \(shown(kid)), not a key id")
        }
        guard let typ = jws.header["typ"], typ != .null else {
            throw .missingParameter("the JWS header's typ; set it to JWT")
        }
        guard typ.stringValue == "JWT" else {
            throw .malformedSignature("the JWS header's typ is \(shown(typ)); it must be JWT")
        }
        guard let key = keys.first(where: { $0.id == keyID }) else {
            throw .unknownKey(keyID, known: keys.map(\.id))
        }
        guard jws.signature.count == 64 else {
            throw .malformedSignature(
                "the JWS signature has \(jws.signature.count) bytes; ES256 signatures are 64 (R||S, RFC 7518 section 3.4)")
        }
        guard key.publicKey.isValidSignature(raw: jws.signature, for: jws.signingInput) else {
            throw .signatureMismatch(
                "the JWS signature does not verify with key '\(keyID)'; sign the header and payload with that key (ES256)")
        }
        let p = jws.payload
        try expect(p, "aud", equals: audience)
        try expect(p, "bid", equals: bundleID)
        guard let iss = p["iss"], iss != .null else {
            throw .missingParameter("the iss claim; set it to your issuer id from App Store Connect")
        }
        guard let issuer = iss.stringValue, !issuer.isEmpty else {
            throw .malformedSignature("the iss claim is \(shown(iss)), not an issuer id")
        }
        guard let iat = p["iat"], iat != .null else {
            throw .missingParameter("the iat claim; give the signing time in seconds since 1970")
        }
        guard let issuedAt = iat.int64Value else {
            throw .malformedSignature("the iat claim is \(shown(iat)); give the signing time in whole seconds since 1970")
        }
        guard let nonceValue = p["nonce"], nonceValue != .null else {
            throw .missingParameter("the nonce claim; sign a new UUID for every request")
        }
        guard let nonceText = nonceValue.stringValue, let nonce = OfferNonce(nonceText) else {
            throw .malformedSignature("the nonce claim is \(shown(nonceValue)), not a UUID")
        }
        if let exp = p["exp"] {
            throw .malformedSignature(
                "the payload has an exp claim (\(exp.serialized())); Apple: \"Don't include an exp field in your payload, because including it makes the request fail\""
            )
        }
        try expect(p, "productId", equals: productID.rawValue)
        var transactionID: String?
        switch p["transactionId"] {
        case nil, .null?:
            if transactionRequired {
                throw .missingParameter(
                    "the transactionId claim; the eligibility override names a transaction of the customer (or their appTransactionId)"
                )
            }
        case .string(let text)? where !text.isEmpty:
            transactionID = text
        case let other?:
            throw .malformedSignature("the transactionId claim is \(shown(other)), not a transaction identifier string")
        }
        try OfferSignatureWindow.check(signed: issuedAt * 1000, now: now, what: "iat \(issuedAt)")
        return (
            jws,
            BaseClaims(keyID: keyID, issuer: issuer, issuedAt: issuedAt, nonce: nonce, transactionID: transactionID)
        )
    }

    static func expect(_ payload: JSONValue, _ claim: String, equals expected: String) throws(OfferError) {
        guard let value = payload[claim], value != .null else {
            throw .missingParameter("the \(claim) claim; it must be '\(expected)'")
        }
        guard value.stringValue == expected else {
            throw .claimMismatch(claim: claim, found: value.stringValue ?? value.serialized(), expected: expected)
        }
    }

    static func shown(_ value: JSONValue) -> String {
        if let s = value.stringValue { return "'\(s)'" }
        return value.serialized()
    }
}
