import IAPCrypto
import IAPTime
import Testing

@testable import IAPKit

/// The original promotional offer signature (`SKPaymentDiscount`), judged by Apple's own signer:
/// what `PromotionalOfferSignatureCreator` signs is accepted, and a change to any signed part,
/// or a part missing, is refused with StoreKit's error.
@Suite("Offers: SKPaymentDiscount signatures against Apple's PromotionalOfferSignatureCreator")
struct PromotionalOfferSignatureTests {
    typealias F = OfferFixtures

    static func sign(
        keyPEM: String = F.keyPEM, keyID: String = "TESTKEY001", bundleID: String = F.bundleID,
        productID: String = F.productID.rawValue, offerID: String = F.offerID.rawValue, username: String = "User-7F3A",
        nonce: String = F.nonce, timestamp: Int64 = F.now.milliseconds
    ) -> AppleOfferSigner.Request {
        .legacy(
            keyPEM: keyPEM, keyID: keyID, bundleID: bundleID, productID: productID, offerID: offerID, username: username,
            nonce: nonce, timestamp: timestamp)
    }

    static func verify(
        _ signature: String?, keyID: String? = "TESTKEY001", offerID: OfferID = F.offerID, nonce: String? = F.nonce,
        timestamp: Int64? = F.now.milliseconds, username: String? = "User-7F3A", productID: ProductID = F.productID,
        bundleID: String = F.bundleID, now: Timestamp = F.now
    ) throws(OfferError) -> PromotionalOfferSignature.Verified {
        try PromotionalOfferSignature.verify(
            PaymentDiscount(
                offerID: offerID, keyID: keyID, nonce: nonce.flatMap(OfferNonce.init), timestamp: timestamp, signature: signature),
            bundleID: bundleID, productID: productID, applicationUsername: username, keys: F.keys, now: now)
    }

    static func refusal(_ body: () throws(OfferError) -> PromotionalOfferSignature.Verified) -> OfferError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("the payload is Apple's: seven parts joined by U+2063, username and nonce lowercased")
    func payload() {
        let text = PromotionalOfferSignature.payload(
            bundleID: F.bundleID, keyID: "TESTKEY001", productID: F.productID, offerID: F.offerID,
            applicationUsername: "User-7F3A", nonce: OfferNonce(F.nonce)!, timestamp: 1_772_366_400_000)
        #expect(
            text
                == "com.example.offers\u{2063}TESTKEY001\u{2063}com.x.plus.monthly\u{2063}plus.comeback\u{2063}user-7f3a\u{2063}3f2504e0-4f89-11d3-9a0c-0305e82c3301\u{2063}1772366400000"
        )
    }

    @Test("a signature by Apple's PromotionalOfferSignatureCreator is accepted, and the nonce and its expiry returned")
    func appleSignatureAccepted() throws {
        let signature = try AppleOfferSigner.sign(Self.sign())
        let verified = try Self.verify(signature)
        #expect(
            verified
                == PromotionalOfferSignature.Verified(
                    keyID: "TESTKEY001", nonce: OfferNonce(F.nonce)!,
                    validUntil: Timestamp(rfc3339: "2026-03-02T12:00:00Z")!))
        // StoreKit passes the nonce as a UUID and the username as the app set it; Apple signs
        // both lowercased, so the case they are given in does not matter.
        _ = try Self.verify(signature, nonce: F.nonce.lowercased(), username: "USER-7f3a")
    }

    @Test("an empty application username is signed as the empty string, as StoreKit sends none")
    func noUsername() throws {
        let signature = try AppleOfferSigner.sign(Self.sign(username: ""))
        _ = try Self.verify(signature, username: nil)
        _ = try Self.verify(signature, username: "")
        #expect(
            Self.refusal { () throws(OfferError) in try Self.verify(signature, username: "someone") }?.skErrorCode
                == .invalidSignature)
    }

    struct Alteration: Sendable, CustomTestStringConvertible {
        let name: String
        let code: SKErrorCode
        /// The start of the reason iapctl prints.
        let reason: String
        var testDescription: String { name }
    }

    @Test("every signed part, changed, is refused: invalidSignature (12)")
    func alterations() throws {
        let signature = try AppleOfferSigner.sign(Self.sign())
        let cases: [(String, () throws(OfferError) -> PromotionalOfferSignature.Verified, String)] = [
            (
                "bundle id", { () throws(OfferError) in try Self.verify(signature, bundleID: "com.example.other") },
                "the signature does not verify with key 'TESTKEY001' over bundle id 'com.example.other'"
            ),
            (
                "key id of another key", { () throws(OfferError) in try Self.verify(signature, keyID: "OTHERKEY99") },
                "the signature does not verify with key 'OTHERKEY99'"
            ),
            (
                "product", { () throws(OfferError) in try Self.verify(signature, productID: ProductID("com.x.plus.yearly")) },
                "the signature does not verify with key 'TESTKEY001' over bundle id 'com.example.offers', key id 'TESTKEY001', product 'com.x.plus.yearly'"
            ),
            (
                "offer", { () throws(OfferError) in try Self.verify(signature, offerID: OfferID("plus.halfyear")) },
                "the signature does not verify"
            ),
            (
                "application username", { () throws(OfferError) in try Self.verify(signature, username: "User-7F3B") },
                "the signature does not verify"
            ),
            (
                "nonce", { () throws(OfferError) in try Self.verify(signature, nonce: "3F2504E0-4F89-11D3-9A0C-0305E82C3302") },
                "the signature does not verify"
            ),
            (
                "timestamp", { () throws(OfferError) in try Self.verify(signature, timestamp: F.now.milliseconds + 1) },
                "the signature does not verify"
            ),
        ]
        for (name, body, reason) in cases {
            let error = try #require(Self.refusal(body), "\(name) was accepted")
            #expect(error.skErrorCode == .invalidSignature, "\(name)")
            #expect(error.description.hasPrefix(reason), "\(name): \(error)")
        }
    }

    @Test("a signature by another key, a damaged one, or one that is not DER, is refused (12)")
    func badSignatures() throws {
        let (good, wrongKey) = try { () throws -> (String, String) in
            let s = try AppleOfferSigner.sign([Self.sign(), Self.sign(keyPEM: F.otherKeyPEM)])
            return (s[0], s[1])
        }()
        var bytes = Base64.decode(good)!
        bytes[bytes.count - 1] ^= 0x01
        let damaged = Base64.encode(bytes)
        let raw = Base64.encode([UInt8](repeating: 7, count: 64))
        let cases: [(String, String?, String)] = [
            ("signed by OTHERKEY99, named TESTKEY001", wrongKey, "the signature does not verify with key 'TESTKEY001'"),
            ("one bit flipped", damaged, "the signature"),
            ("not base64", "not*base64", "the signature is not base64; give base64 of the DER-encoded ECDSA signature"),
            ("64 raw bytes, not DER", raw, "the signature is 64 bytes of base64 but not a DER-encoded ECDSA signature"),
        ]
        for (name, signature, reason) in cases {
            let error = try #require(Self.refusal { () throws(OfferError) in try Self.verify(signature) }, "\(name) was accepted")
            #expect(error.skErrorCode == .invalidSignature, "\(name)")
            #expect(error.description.hasPrefix(reason), "\(name): \(error)")
        }
        let unknown = try #require(Self.refusal { () throws(OfferError) in try Self.verify(good, keyID: "NOSUCHKEY") })
        #expect(unknown == .unknownKey("NOSUCHKEY", known: ["TESTKEY001", "OTHERKEY99"]))
        #expect(unknown.description == "no subscription offer key 'NOSUCHKEY'; known: TESTKEY001, OTHERKEY99")
    }

    @Test("Apple's 24-hour window, on the store's clock: accepted up to 24 hours, refused after, and ahead of the clock")
    func window() throws {
        let signature = try AppleOfferSigner.sign(Self.sign())
        let day: Int64 = 86_400_000
        _ = try Self.verify(signature, now: F.now.adding(milliseconds: day))
        let late = try #require(
            Self.refusal { () throws(OfferError) in try Self.verify(signature, now: F.now.adding(milliseconds: day + 1)) })
        #expect(late.skErrorCode == .invalidSignature)
        #expect(
            late.description
                == "the timestamp 1772366400000 (2026-03-01T12:00:00Z) is 1d 0h before the store's clock (2026-03-02T12:00:00.001Z); a signed offer is valid for 24 hours, so sign a new one"
        )
        _ = try Self.verify(signature, now: F.now.adding(milliseconds: -60_000))
        let early = try #require(
            Self.refusal { () throws(OfferError) in try Self.verify(signature, now: F.now.adding(milliseconds: -60_001)) })
        #expect(early.skErrorCode == .invalidSignature)
        #expect(
            early.description
                == "the timestamp 1772366400000 (2026-03-01T12:00:00Z) is 1m 0s after the store's clock (2026-03-01T11:58:59.999Z); sign with the store's time ('iapctl clock') or move the clock ('iapctl clock set')"
        )
    }

    @Test("a missing part is missingOfferParams (13), naming every missing part")
    func missingParts() throws {
        let signature = try AppleOfferSigner.sign(Self.sign())
        let all = try #require(
            Self.refusal { () throws(OfferError) in try Self.verify(nil, keyID: nil, nonce: nil, timestamp: nil) })
        #expect(all.skErrorCode == .missingOfferParams)
        #expect(
            all.description
                == "the offer is missing a key id (--key-id), a nonce (--nonce), a timestamp (--timestamp), a signature (--signature); SKPaymentDiscount needs the offer, key id, nonce, timestamp and signature"
        )
        for (name, body) in [
            ("key id", { () throws(OfferError) in try Self.verify(signature, keyID: "") }),
            ("nonce", { () throws(OfferError) in try Self.verify(signature, nonce: nil) }),
            ("timestamp", { () throws(OfferError) in try Self.verify(signature, timestamp: nil) }),
            ("signature", { () throws(OfferError) in try Self.verify("") }),
        ] as [(String, () throws(OfferError) -> PromotionalOfferSignature.Verified)] {
            #expect(Self.refusal(body)?.skErrorCode == .missingOfferParams, "\(name)")
        }
    }

    @Test("nonces: any case of a UUID, nothing else")
    func nonces() {
        #expect(OfferNonce("3F2504E0-4F89-11D3-9A0C-0305E82C3301")?.lowercased == "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(OfferNonce("3f2504e0-4f89-11d3-9a0c-0305e82c3301") == OfferNonce("3F2504E0-4F89-11D3-9A0C-0305E82C3301"))
        for bad in [
            "", "3F2504E04F8911D39A0C0305E82C3301", "3F2504E0-4F89-11D3-9A0C-0305E82C330G",
            "{3F2504E0-4F89-11D3-9A0C-0305E82C3301}",
        ] {
            #expect(OfferNonce(bad) == nil, "\(bad)")
        }
    }

    @Test(
        "each offer error is StoreKit's code",
        arguments: [
            (
                OfferError.unknownOffer(kind: "promotional offer", id: "x", product: ProductID("p"), known: []),
                SKErrorCode.invalidOfferIdentifier
            ),
            (.missingParameter("a nonce"), .missingOfferParams), (.unknownKey("K", known: []), .invalidSignature),
            (.malformedSignature("x"), .invalidSignature), (.signatureMismatch("x"), .invalidSignature),
            (.claimMismatch(claim: "bid", found: "a", expected: "b"), .invalidSignature),
            (.outsideWindow("x"), .invalidSignature),
            (.nonceReused("n"), .invalidSignature), (.invalidPrice("x"), .invalidOfferPrice),
            (.ineligible("x"), .ineligibleForOffer),
        ])
    func codes(_ error: OfferError, _ code: SKErrorCode) {
        #expect(error.skErrorCode == code)
        #expect([11, 12, 13, 14, 18].contains(code.rawValue))
    }
}
