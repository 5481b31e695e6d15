import IAPCrypto
import IAPTime

@testable import IAPKit

/// The test keys of `Fixtures/offers/` and the purchase every signature test signs for.
enum OfferFixtures {
    static let keyPEM = pem("SubscriptionKey_TESTKEY001.p8")
    static let otherKeyPEM = pem("SubscriptionKey_OTHERKEY99.p8")
    static let key = try! SubscriptionOfferKey.read(pem: keyPEM, id: "TESTKEY001", name: "TESTKEY001.p8").key
    static let otherKey = try! SubscriptionOfferKey.read(pem: otherKeyPEM, id: "OTHERKEY99", name: "OTHERKEY99.p8").key
    /// The store holds both keys, so a signature by the wrong one of them is a mismatch, not an unknown key.
    static let keys = [key, otherKey]

    static let bundleID = "com.example.offers"
    static let productID = ProductID("com.x.plus.monthly")
    static let offerID = OfferID("plus.comeback")
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    /// The store's clock: 2026-03-01T12:00:00Z.
    static let now = Timestamp(rfc3339: "2026-03-01T12:00:00Z")!
    static let nonce = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

    static func pem(_ name: String) -> String {
        String(decoding: try! StoreKitFixture.bytes("offers/\(name)"), as: UTF8.self)
    }
}
