import IAPCrypto
import IAPTime
import Testing

@testable import IAPKit

/// The JWS forms of signed offers, judged by Apple's own signers: tokens from
/// `PromotionalOfferV2SignatureCreator` and `IntroductoryOfferEligibilitySignatureCreator` are
/// accepted; altered ones, and tokens breaking Apple's rules ("Generating JWS to sign App Store
/// requests"), are refused with StoreKit's error.
@Suite("Offers: JWS promotional offers and introductory eligibility against Apple's signers")
struct SignedOfferJWSTests {
    typealias F = OfferFixtures
    static var iat: Int64 { F.now.milliseconds / 1000 }
    static let nonce = "6584bedf-2ed0-4c01-93ed-c0c64a1670cc"

    static func promotional(
        keyPEM: String = F.keyPEM, keyID: String = "TESTKEY001", bundleID: String = F.bundleID,
        productID: String = F.productID.rawValue, offerID: String = F.offerID.rawValue,
        transactionID: String? = "2000000000000001",
        iat: Int64 = SignedOfferJWSTests.iat
    ) -> AppleOfferSigner.Request {
        .promotionalV2(
            keyPEM: keyPEM, keyID: keyID, issuerID: F.issuerID, bundleID: bundleID, productID: productID, offerID: offerID,
            transactionID: transactionID, nonce: nonce, iat: iat)
    }

    static func eligibility(allow: Bool, productID: String = F.productID.rawValue) -> AppleOfferSigner.Request {
        .introductoryEligibility(
            keyPEM: F.keyPEM, keyID: "TESTKEY001", issuerID: F.issuerID, bundleID: F.bundleID, productID: productID,
            allow: allow, transactionID: "2000000000000001", nonce: nonce, iat: iat)
    }

    /// Apple's base claims and the promotional offer's, for crafted tokens.
    static func claims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var c: [String: Any] = [
            "iss": F.issuerID, "iat": iat, "aud": "promotional-offer", "bid": F.bundleID, "nonce": nonce,
            "productId": F.productID.rawValue, "offerIdentifier": F.offerID.rawValue,
        ]
        for (k, v) in changes { c[k] = v }
        return c
    }

    static func raw(_ claims: [String: Any], alg: String = "ES256", headers: [String: Any] = ["kid": "TESTKEY001"])
        -> AppleOfferSigner.Request
    {
        .raw(keyPEM: F.keyPEM, algorithm: alg, headers: headers, claims: claims)
    }

    static func verifyOffer(_ token: String, productID: ProductID = F.productID, now: Timestamp = F.now) throws(OfferError)
        -> SignedOfferJWS.PromotionalOfferClaims
    {
        try SignedOfferJWS.verifyPromotionalOffer(token, bundleID: F.bundleID, productID: productID, keys: F.keys, now: now)
    }

    static func refusal<T>(_ body: () throws(OfferError) -> T) -> OfferError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("a PromotionalOfferV2SignatureCreator token is accepted, with its offer, nonce and transaction")
    func promotionalAccepted() throws {
        let tokens = try AppleOfferSigner.sign([Self.promotional(), Self.promotional(transactionID: nil)])
        let claims = try Self.verifyOffer(tokens[0])
        #expect(
            claims
                == SignedOfferJWS.PromotionalOfferClaims(
                    base: SignedOfferJWS.BaseClaims(
                        keyID: "TESTKEY001", issuer: F.issuerID, issuedAt: Self.iat, nonce: OfferNonce(Self.nonce)!,
                        transactionID: "2000000000000001"),
                    offerID: F.offerID))
        #expect(claims.base.validUntil == Timestamp(rfc3339: "2026-03-02T12:00:00Z"))
        // "This field is optional, but recommended."
        #expect(try Self.verifyOffer(tokens[1]).base.transactionID == nil)
    }

    @Test("an IntroductoryOfferEligibilitySignatureCreator token is accepted, allowing or refusing the offer")
    func eligibilityAccepted() throws {
        let tokens = try AppleOfferSigner.sign([Self.eligibility(allow: true), Self.eligibility(allow: false)])
        for (token, allow) in zip(tokens, [true, false]) {
            let claims = try SignedOfferJWS.verifyIntroductoryEligibility(
                token, bundleID: F.bundleID, productID: F.productID, keys: F.keys, now: F.now)
            #expect(claims.allowIntroductoryOffer == allow)
            #expect(claims.base.transactionID == "2000000000000001")
        }
    }

    @Test("altered and misdirected tokens are refused: invalidSignature (12)")
    func alterations() throws {
        let s = try AppleOfferSigner.sign([
            Self.promotional(),  // 0
            Self.promotional(bundleID: "com.example.other"),  // 1
            Self.promotional(productID: "com.x.plus.yearly"),  // 2
            Self.promotional(keyPEM: F.otherKeyPEM),  // 3: signed by OTHERKEY99, kid TESTKEY001
            Self.promotional(keyID: "NOSUCHKEY"),  // 4
            Self.promotional(iat: Self.iat - 86_401),  // 5
            Self.promotional(iat: Self.iat + 61),  // 6
            Self.eligibility(allow: true),  // 7: the other audience
            Self.raw(Self.claims(["exp": Self.iat + 600])),  // 8
            Self.raw(Self.claims(), alg: "HS256"),  // 9
            Self.raw(Self.claims(["nonce": "not-a-uuid"])),  // 10
            Self.raw(Self.claims(), headers: ["kid": "TESTKEY001", "typ": "JOSE"]),  // 11
        ])
        let parts = s[0].split(separator: ".").map(String.init)
        var payload = Base64URL.decode(parts[1])!
        let claims = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "plus.comeback", with: "plus.free")
        payload = Array(claims.utf8)
        let tampered = [parts[0], Base64URL.encode(payload), parts[2]].joined(separator: ".")
        let cases: [(String, String, String)] = [
            ("payload changed after signing", tampered, "the JWS signature does not verify with key 'TESTKEY001'"),
            ("another bundle", s[1], "the signed bid is 'com.example.other', expected 'com.example.offers'"),
            ("another product", s[2], "the signed productId is 'com.x.plus.yearly', expected 'com.x.plus.monthly'"),
            ("signed by another key", s[3], "the JWS signature does not verify with key 'TESTKEY001'"),
            ("an unknown kid", s[4], "no subscription offer key 'NOSUCHKEY'; known: TESTKEY001, OTHERKEY99"),
            ("older than 24 hours", s[5], "iat \(Self.iat - 86_401) (2026-02-28T11:59:59Z) is 1d 0h before the store's clock"),
            ("ahead of the store's clock", s[6], "iat \(Self.iat + 61) (2026-03-01T12:01:01Z) is 1m 1s after the store's clock"),
            (
                "an introductory eligibility token", s[7],
                "the signed aud is 'introductory-offer-eligibility', expected 'promotional-offer'"
            ),
            ("an exp claim", s[8], "the payload has an exp claim (\(Self.iat + 600)); Apple: \"Don't include an exp field"),
            ("HS256", s[9], "the JWS header's alg is 'HS256'; Apple's signed offers use ES256"),
            ("a nonce that is not a UUID", s[10], "the nonce claim is 'not-a-uuid', not a UUID"),
            ("typ not JWT", s[11], "the JWS header's typ is 'JOSE'; it must be JWT"),
            ("not a JWS", "eyJhbGciOiJFUzI1NiJ9.e30", "the signed offer is not a compact JWS: 2 parts"),
        ]
        for (name, token, reason) in cases {
            let error = try #require(
                Self.refusal { () throws(OfferError) in try Self.verifyOffer(token) }, "\(name) was accepted")
            #expect(error.skErrorCode == .invalidSignature, "\(name): \(error)")
            #expect(error.description.hasPrefix(reason), "\(name): \(error)")
        }
    }

    @Test("a claim or header Apple requires, missing, is missingOfferParams (13)")
    func missing() throws {
        let s = try AppleOfferSigner.sign([
            Self.raw(Self.claims(["offerIdentifier": nil])),
            Self.raw(Self.claims(["nonce": nil])),
            Self.raw(Self.claims(["iat": nil])),
            Self.raw(Self.claims(["iss": nil])),
            Self.raw(Self.claims(["productId": nil])),
            Self.raw(Self.claims(), headers: [:]),
            Self.raw(
                Self.claims(["aud": "introductory-offer-eligibility", "offerIdentifier": nil, "allowIntroductoryOffer": true])),
            Self.raw(
                Self.claims([
                    "aud": "introductory-offer-eligibility", "offerIdentifier": nil, "transactionId": "2000000000000001",
                ])),
        ])
        let expected = [
            "the offer is missing the offerIdentifier claim",
            "the offer is missing the nonce claim",
            "the offer is missing the iat claim",
            "the offer is missing the iss claim",
            "the offer is missing the productId claim",
            "the offer is missing the JWS header's kid",
        ]
        for (token, reason) in zip(s, expected) {
            let error = try #require(Self.refusal { () throws(OfferError) in try Self.verifyOffer(token) }, "\(reason)")
            #expect(error.skErrorCode == .missingOfferParams, "\(error)")
            #expect(error.description.hasPrefix(reason), "\(error)")
        }
        for (token, reason) in zip(
            s[6...], ["the offer is missing the transactionId claim", "the offer is missing the allowIntroductoryOffer claim"])
        {
            let error = try #require(
                Self.refusal { () throws(OfferError) in
                    try SignedOfferJWS.verifyIntroductoryEligibility(
                        token, bundleID: F.bundleID, productID: F.productID, keys: F.keys, now: F.now)
                })
            #expect(error.skErrorCode == .missingOfferParams, "\(error)")
            #expect(error.description.hasPrefix(reason), "\(error)")
        }
    }
}
