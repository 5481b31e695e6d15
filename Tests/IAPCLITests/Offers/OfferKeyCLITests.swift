import Foundation
import Testing

@testable import IAPJSON

/// `iapctl offer-key add|list|remove` end to end, and what a store's keys decide: a signature
/// by a key the store does not hold is refused, the same signature passes once the key is added
/// (from the App Store Connect `.p8` or its public half). Also an offer that waits with an Ask to
/// Buy purchase and applies when it is approved.
@Suite("Offers: offer keys and deferred offers, end to end")
struct OfferKeyCLITests {
    static let fingerprint = "f553bea96a2dedcc9d04e5916886b94a1d6109eb9f018234a9c755a4d8ab2a15"

    /// Apple's `PromotionalOfferSignatureCreator` over the monthly product's `plus.comeback` at
    /// the store's first second.
    static func signature(nonce: String, key: String = "offers/SubscriptionKey_TESTKEY001.p8") throws -> String {
        let sign = """
            import sys, uuid
            from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
            creator = PromotionalOfferSignatureCreator(open(sys.argv[1], 'rb').read(), 'TESTKEY001', 'com.x.demo')
            print(creator.create_signature('com.x.plus.monthly', 'plus.comeback', '', uuid.UUID(sys.argv[2]), 1767225600000))
            """
        let r = try ExternalTool.run("python3", ["-c", sign, CLIHarness.fixture(key), nonce])
        #expect(r.code == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func buy(_ h: CLIHarness, nonce: String, signature: String, json: Bool = true) -> CLIResult {
        h.run(
            [
                "buy", "com.x.plus.monthly", "--offer", "plus.comeback", "--key-id", "TESTKEY001", "--nonce", nonce,
                "--timestamp", "1767225600000", "--signature", signature,
            ] + (json ? ["--json"] : []))
    }

    @Test("add, list, remove: from the .p8 (only its public half kept) or the public key; the key decides")
    func keys() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--catalog", CLIHarness.fixture("offers/catalog.json")]).code == 0)
        // A subscriber (promotional offers are for current and lapsed subscribers).
        #expect(h.run(["buy", "com.x.plus.monthly"]).code == 0)
        let listed = h.run(["offer-key", "list"])
        #expect(listed.stdout.contains("TESTKEY001  catalog  \(Self.fingerprint)"), "\(listed)")
        let removed = h.run(["offer-key", "remove", "TESTKEY001"])
        #expect(removed.code == 0 && removed.stdout == "offer key TESTKEY001 removed\n", "\(removed)")
        #expect(h.run(["offer-key", "list"]).stdout.hasPrefix("no subscription offer keys"))
        let again = h.run(["offer-key", "remove", "TESTKEY001"])
        #expect(again.code == 3 && again.stderr.contains("the store has none"), "\(again)")

        // Without the key the App Store cannot check the signature: 12 invalidSignature.
        let first = "7b0e1c2d-0000-4000-8000-000000000001"
        let refused = Self.buy(h, nonce: first, signature: try Self.signature(nonce: first))
        let refusedJSON = try JSONParser.parse(refused.stdout)
        #expect(refused.code == 1 && refusedJSON["error"]?["code"] == .number("12"), "\(refused)")
        #expect(refusedJSON["error"]?["message"]?.stringValue?.contains("TESTKEY001") == true)

        // The public half is enough.
        let pub = h.run([
            "offer-key", "add", "TESTKEY001", CLIHarness.fixture("offers/SubscriptionKey_TESTKEY001.pub.pem"), "--json",
        ])
        #expect(pub.code == 0, "\(pub)")
        let record = try JSONParser.parse(pub.stdout)
        #expect(record["origin"] == .string("publicKeyFile") && record["fingerprint"] == .string(Self.fingerprint))
        let second = "7b0e1c2d-0000-4000-8000-000000000002"
        let bought = Self.buy(h, nonce: second, signature: try Self.signature(nonce: second))
        let boughtJSON = try JSONParser.parse(bought.stdout)
        #expect(bought.code == 0 && boughtJSON["charged"] == .bool(false), "\(bought)")
        let renews = try JSONParser.parse(h.run(["subscriptions", "--json"]).stdout)
        #expect(renews.arrayValue?.first?["renewalOffer"]?["identifier"] == .string("plus.comeback"))

        // Replaced by another key under the same id: the old signatures no longer verify.
        let other = h.run(["offer-key", "add", "TESTKEY001", CLIHarness.fixture("offers/SubscriptionKey_OTHERKEY99.p8")])
        #expect(other.code == 0 && other.stdout.contains("the private key is not kept"), "\(other)")
        let third = "7b0e1c2d-0000-4000-8000-000000000003"
        #expect(Self.buy(h, nonce: third, signature: try Self.signature(nonce: third)).code == 1)
        // Keys are checked before anything is stored.
        let bad = h.run(["offer-key", "add", "bad id!", CLIHarness.fixture("offers/SubscriptionKey_TESTKEY001.p8")])
        #expect(bad.code == 64, "\(bad)")
        h.write("not-a-key.pem", "hello\n")
        let garbage = h.run(["offer-key", "add", "K2", "not-a-key.pem"])
        #expect(garbage.code == 65, "\(garbage)")
        #expect(h.run(["offer-key", "list", "--json"]).stdout.contains("\"keyIdentifier\":\"TESTKEY001\""))
    }

    @Test("Ask to Buy: the offer waits with the deferred purchase, and applies when it is approved (from the next renewal)")
    func deferred() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--catalog", CLIHarness.fixture("offers/catalog.json")]).code == 0)
        #expect(h.run(["buy", "com.x.plus.monthly"]).code == 0)
        #expect(h.run(["config", "set", "ask-to-buy", "true"]).code == 0)
        let nonce = "7b0e1c2d-0000-4000-8000-000000000004"
        let pending = Self.buy(h, nonce: nonce, signature: try Self.signature(nonce: nonce))
        #expect(pending.code == 5, "\(pending)")
        let id = try #require(try JSONParser.parse(pending.stdout)["transactionIdentifier"]?.stringValue)
        let approved = h.run(["approve", id, "--json"])
        #expect(approved.code == 0, "\(approved)")
        let renews = try JSONParser.parse(h.run(["subscriptions", "--json"]).stdout)
        #expect(renews.arrayValue?.first?["renewalOffer"]?["identifier"] == .string("plus.comeback"), "\(renews)")
        #expect(renews.arrayValue?.first?["renewalPrice"] == .string("4.99"))
    }
}
