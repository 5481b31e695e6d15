import Foundation
import Testing

@testable import IAPJSON

/// Offers everywhere they show, end to end with the built binary, judged by Apple's Python
/// library: `buy` with offer options, then the signed transactions, renewal info and V2
/// notifications decoded by `SignedDataVerifier` into its model types (an offer field that did
/// not parse into `OfferType`, `OfferDiscountType`, `BillingPlanType`,
/// `TransactionCommitmentInfo` or `RenewalCommitmentInfo` would be missing), and the receipt
/// fields of `verify-receipt`.
@Suite("Offers: signed data, receipts and notifications, end to end")
struct OfferSignedDataCLITests {
    static func store() -> CLIHarness {
        let h = CLIHarness()
        let r = h.run(["init", "--catalog", CLIHarness.fixture("offers/catalog.json")])
        #expect(r.code == 0, "\(r)")
        return h
    }

    static func json(_ r: CLIResult) throws -> JSONValue { try JSONParser.parse(r.stdout) }

    static func token(_ h: CLIHarness, _ arguments: [String]) -> String {
        h.run(["jws"] + arguments).stdout.trimmingCharacters(in: .newlines)
    }

    /// Every notification, decoded by Apple's verifier, with its transaction decoded too.
    static func notifications(_ h: CLIHarness) throws -> [(type: String, transaction: JSONValue?, renewal: JSONValue?)] {
        let lines = h.run(["notifications", "--json"]).stdout.split(separator: "\n")
        let payloads = try lines.map { try #require(try JSONParser.parse(String($0))["signedPayload"]?.stringValue) }
        let decoded = try AppleVerifier.decode(payloads.map { (.notification, $0) })
        return try decoded.map { n in
            let type = "\(n["notificationType"]?.stringValue ?? "?") \(n["subtype"]?.stringValue ?? "-")"
            var transaction: JSONValue?
            var renewal: JSONValue?
            if let t = n["data"]?["signedTransactionInfo"]?.stringValue {
                transaction = try AppleVerifier.decode([(.transaction, t)])[0]
            }
            if let r = n["data"]?["signedRenewalInfo"]?.stringValue { renewal = try AppleVerifier.decode([(.renewal, r)])[0] }
            return (type, transaction, renewal)
        }
    }

    @Test(
        "offer codes: offerType 3, the reference name, FREE_TRIAL then PAY_AS_YOU_GO at renewal; OFFER_REDEEMED; verifyReceipt's offer_code_ref_name"
    )
    func offerCodes() throws {
        let h = Self.store()
        let first = try Self.json(h.run(["buy", "com.x.plus.monthly", "--code-offer", "FRIENDS", "--json"]))
        #expect(first["state"] == .string("purchased") && first["price"] == .string("0.00"))
        #expect(first["offer"]?["type"] == .string("code") && first["offer"]?["identifier"] == .string("FRIENDS"))
        let id = try #require(first["transactionIdentifier"]?.stringValue)
        // Redeemed while subscribed: applies at the renewal.
        let loyal = h.run(["buy", "com.x.plus.monthly", "--code-offer", "LOYAL"])
        #expect(loyal.code == 0, "\(loyal)")
        let ineligible = h.run(["buy", "com.x.plus.monthly", "--code-offer", "FRIENDS"])
        #expect(ineligible.code == 1 && ineligible.stdout.contains("18 ineligibleForOffer"), "\(ineligible)")

        let decoded = try AppleVerifier.decode([(.transaction, Self.token(h, [id])), (.renewal, Self.token(h, ["renewal", id]))])
        let t = decoded[0]
        #expect(t["offerType"] == .number("3") && t["offerIdentifier"] == .string("FRIENDS"))
        #expect(
            t["offerDiscountType"] == .string("FREE_TRIAL") && t["offerPeriod"] == .string("P1M") && t["price"] == .number("0"))
        let r = decoded[1]
        #expect(r["offerType"] == .number("3") && r["offerIdentifier"] == .string("LOYAL"), "\(r)")
        #expect(r["offerDiscountType"] == .string("PAY_AS_YOU_GO") && r["offerPeriod"] == .string("P2M"))
        #expect(r["renewalPrice"] == .number("1990"))

        #expect(h.run(["clock", "advance", "P1M"]).code == 0)
        let notes = try Self.notifications(h)
        #expect(notes.map(\.type) == ["OFFER_REDEEMED INITIAL_BUY", "OFFER_REDEEMED -", "DID_RENEW -"])
        let renewed = try #require(notes.last?.transaction)
        #expect(renewed["offerType"] == .number("3") && renewed["offerIdentifier"] == .string("LOYAL"))
        #expect(renewed["offerDiscountType"] == .string("PAY_AS_YOU_GO") && renewed["price"] == .number("1990"))
        // The renewal info the DID_RENEW carries: the second LOYAL month is next.
        #expect(notes.last?.renewal?["offerIdentifier"] == .string("LOYAL"))

        let answer = try Self.json(h.run(["verify-receipt"]))
        let inApp = try #require(answer["receipt"]?["in_app"]?.arrayValue)
        // The free month, the uncharged purchase that redeemed LOYAL for the renewal, the renewal.
        #expect(inApp.map { $0["offer_code_ref_name"]?.stringValue ?? "-" } == ["FRIENDS", "-", "LOYAL"])
        #expect(inApp.allSatisfy { $0["is_trial_period"] == .string("false") }, "an offer code is no introductory offer")
        let pending = try #require(answer["pending_renewal_info"]?.arrayValue)
        #expect(pending.first?["offer_code_ref_name"] == .string("LOYAL"))
    }

    @Test(
        "a promotional offer signed by Apple's creator for a lapsed subscriber: offerType 2 in JWS, promotional_offer_id in the receipt, OFFER_REDEEMED RESUBSCRIBE"
    )
    func promotional() throws {
        let h = Self.store()
        #expect(h.run(["buy", "com.x.plus.monthly"]).code == 0)
        #expect(h.run(["auto-renew", "off", "com.x.plus.monthly"]).code == 0)
        #expect(h.run(["clock", "set", "2026-03-01T00:00:00Z"]).code == 0)
        let nonce = "6a1b7c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d"
        let timestamp = "1772323200000"  // the store's clock, 2026-03-01T00:00:00Z
        let sign = """
            import sys, uuid
            from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
            creator = PromotionalOfferSignatureCreator(open(sys.argv[1], 'rb').read(), 'TESTKEY001', 'com.x.demo')
            print(creator.create_signature('com.x.plus.monthly', 'plus.comeback', '', uuid.UUID(sys.argv[2]), int(sys.argv[3])))
            """
        let signed = try ExternalTool.run(
            "python3", ["-c", sign, CLIHarness.fixture("offers/SubscriptionKey_TESTKEY001.p8"), nonce, timestamp])
        #expect(signed.code == 0, "\(signed.stderr)")
        let signature = signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let buy = [
            "buy", "com.x.plus.monthly", "--offer", "plus.comeback", "--key-id", "TESTKEY001", "--nonce", nonce, "--timestamp",
            timestamp, "--signature", signature, "--json",
        ]
        let t = try Self.json(h.run(buy))
        #expect(t["state"] == .string("purchased") && t["price"] == .string("4.99"), "\(t)")
        let id = try #require(t["transactionIdentifier"]?.stringValue)
        let replay = h.run(Array(buy.dropLast()))
        #expect(replay.code == 1 && replay.stdout.contains("12 invalidSignature") && replay.stdout.contains("already used"))

        let decoded = try AppleVerifier.decode([(.transaction, Self.token(h, [id]))])[0]
        #expect(decoded["offerType"] == .number("2") && decoded["offerIdentifier"] == .string("plus.comeback"))
        #expect(decoded["offerDiscountType"] == .string("PAY_AS_YOU_GO") && decoded["offerPeriod"] == .string("P3M"))
        #expect(decoded["price"] == .number("4990"))
        let notes = try Self.notifications(h)
        #expect(notes.last?.type == "OFFER_REDEEMED RESUBSCRIBE", "\(notes.map(\.type))")
        // SUBSCRIBED carries the introductory offer the subscription started with.
        #expect(notes.first?.type == "SUBSCRIBED INITIAL_BUY" && notes.first?.transaction?["offerType"] == .number("1"))
        #expect(notes.first?.transaction?["offerDiscountType"] == .string("FREE_TRIAL"))
        #expect(notes.last?.transaction?["offerIdentifier"] == .string("plus.comeback"))
        #expect(notes.last?.renewal?["offerType"] == .number("2"), "the next two months are under the offer too")

        let receipt = h.run(["receipt", "--json"])
        let entry = try #require(try Self.json(receipt)["inApp"]?.arrayValue?.last)
        #expect(entry["promotionalOfferIdentifier"] == .string("plus.comeback"), "\(receipt.stdout)")
        let answer = try Self.json(h.run(["verify-receipt"]))
        let inApp = try #require(answer["receipt"]?["in_app"]?.arrayValue)
        #expect(inApp.map { $0["promotional_offer_id"]?.stringValue ?? "-" } == ["-", "plus.comeback"])
        #expect(inApp.map { $0["is_trial_period"]?.stringValue ?? "-" } == ["true", "false"])
        #expect(inApp.last?["is_in_intro_offer_period"] == .string("false"))
        #expect(answer["pending_renewal_info"]?.arrayValue?.first?["promotional_offer_id"] == .string("plus.comeback"))
    }

    @Test(
        "the monthly plan: billingPlanType MONTHLY and commitmentInfo in the transaction; renewalBillingPlanType and commitmentInfo in renewal info"
    )
    func monthlyPlan() throws {
        let h = Self.store()
        let first = try Self.json(h.run(["buy", "com.x.plus.yearly", "--billing-plan", "monthly", "--json"]))
        #expect(first["state"] == .string("purchased") && first["price"] == .string("0.00"), "\(first)")
        let id = try #require(first["transactionIdentifier"]?.stringValue)
        #expect(h.run(["clock", "advance", "P1M"]).code == 0)
        let dump = h.run(["dump"]).stdout.split(separator: "\n").compactMap { line -> JSONValue? in
            let text = line.hasSuffix(",") ? String(line.dropLast()) : String(line)
            return try? JSONParser.parse(text)
        }
        let renewal = try #require(dump.last?["transactionIdentifier"]?.stringValue)
        let decoded = try AppleVerifier.decode([
            (.transaction, Self.token(h, [id])), (.transaction, Self.token(h, [renewal])),
            (.renewal, Self.token(h, ["renewal", id])),
        ])
        #expect(decoded[0]["billingPlanType"] == .string("MONTHLY") && decoded[0]["offerType"] == .number("1"))
        #expect(decoded[0]["commitmentInfo"] == nil, "the free trial is no payment of the commitment")
        let t = decoded[1]
        #expect(t["billingPlanType"] == .string("MONTHLY") && t["price"] == .number("9490"))
        let c = try #require(t["commitmentInfo"])
        #expect(c["billingPeriodNumber"] == .number("1") && c["totalBillingPeriods"] == .number("12"), "\(c)")
        #expect(c["commitmentPrice"] == .number("113880"))
        let r = decoded[2]
        #expect(r["renewalBillingPlanType"] == .string("MONTHLY"), "\(r)")
        let rc = try #require(r["commitmentInfo"])
        #expect(rc["commitmentAutoRenewStatus"] == .number("1") && rc["commitmentRenewalBillingPlanType"] == .string("MONTHLY"))
        #expect(rc["commitmentRenewalDate"] == c["commitmentExpiresDate"])
        // Auto-renew off in a commitment: the next month still renews; the next commitment does not.
        #expect(h.run(["auto-renew", "off", "com.x.plus.yearly"]).code == 0)
        let off = try AppleVerifier.decode([(.renewal, Self.token(h, ["renewal", id]))])[0]
        #expect(
            off["autoRenewStatus"] == .number("1") && off["commitmentInfo"]?["commitmentAutoRenewStatus"] == .number("0"),
            "\(off)")
    }

    @Test(
        "win-back: eligibleWinBackOfferIds in an expired subscription's renewal info; redeemed as offerType 4, OFFER_REDEEMED RESUBSCRIBE"
    )
    func winBack() throws {
        let h = Self.store()
        let first = try Self.json(h.run(["buy", "com.x.plus.monthly", "--json"]))
        let id = try #require(first["transactionIdentifier"]?.stringValue)
        #expect(h.run(["clock", "advance", "P1W"]).code == 0)
        #expect(h.run(["auto-renew", "off", "com.x.plus.monthly"]).code == 0)
        let early = h.run(["buy", "com.x.plus.monthly", "--win-back", "plus.winback"])
        #expect(early.code == 1 && early.stdout.contains("18 ineligibleForOffer"), "\(early)")
        #expect(h.run(["clock", "advance", "P3M"]).code == 0)
        let r = try AppleVerifier.decode([(.renewal, Self.token(h, ["renewal", id]))])[0]
        #expect(r["eligibleWinBackOfferIds"] == .array([.string("plus.winback")]), "\(r)")
        let back = try Self.json(h.run(["buy", "com.x.plus.monthly", "--win-back", "plus.winback", "--json"]))
        #expect(back["state"] == .string("purchased") && back["originalTransactionIdentifier"] == .string(id), "\(back)")
        let t = try AppleVerifier.decode([
            (.transaction, Self.token(h, [try #require(back["transactionIdentifier"]?.stringValue)]))
        ])[0]
        #expect(t["offerType"] == .number("4") && t["offerIdentifier"] == .string("plus.winback"))
        #expect(t["offerDiscountType"] == .string("FREE_TRIAL") && t["offerPeriod"] == .string("P1M"))
        #expect(try Self.notifications(h).map(\.type).last == "OFFER_REDEEMED RESUBSCRIBE")
    }

    @Test(
        "a real .storekit file (RevenueCat's unit tests): its ad hoc offer redeemed with Apple's signature, and its 12-month commitment, read back by Apple's library"
    )
    func realStoreKitFile() throws {
        let h = CLIHarness()
        let created = h.run(["init", "--catalog", CLIHarness.fixture("real/storekit/rc-unittests-v5.storekit")])
        #expect(created.code == 0, "\(created)")
        #expect(h.run(["offer-key", "add", "TESTKEY001", CLIHarness.fixture("offers/SubscriptionKey_TESTKEY001.p8")]).code == 0)
        let product = "com.revenuecat.monthly_4.99.1_week_intro"
        let offer = product + ".pay_as_you_go"
        let trial = try Self.json(h.run(["buy", product, "--json"]))
        #expect(trial["offer"]?["offerPeriod"] == .string("P3M") && trial["price"] == .string("0.00"), "\(trial)")
        #expect(h.run(["auto-renew", "off", product]).code == 0)
        #expect(h.run(["clock", "set", "2026-05-01T00:00:00Z"]).code == 0)
        let nonce = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
        let sign = """
            import sys, uuid
            from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
            creator = PromotionalOfferSignatureCreator(open(sys.argv[1], 'rb').read(), 'TESTKEY001', 'com.x.demo')
            print(creator.create_signature(sys.argv[2], sys.argv[3], '', uuid.UUID(sys.argv[4]), 1777593600000))
            """
        let signed = try ExternalTool.run(
            "python3", ["-c", sign, CLIHarness.fixture("offers/SubscriptionKey_TESTKEY001.p8"), product, offer, nonce])
        #expect(signed.code == 0, "\(signed.stderr)")
        let bought = try Self.json(
            h.run([
                "buy", product, "--offer", offer, "--key-id", "TESTKEY001", "--nonce", nonce, "--timestamp", "1777593600000",
                "--signature", signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "--json",
            ]))
        #expect(bought["price"] == .string("20.15") && bought["offer"]?["identifier"] == .string(offer), "\(bought)")
        let id = try #require(bought["transactionIdentifier"]?.stringValue)
        let t = try AppleVerifier.decode([(.transaction, Self.token(h, [id]))])[0]
        #expect(t["offerType"] == .number("2") && t["offerIdentifier"] == .string(offer) && t["price"] == .number("20150"))
        #expect(t["offerDiscountType"] == .string("PAY_AS_YOU_GO") && t["offerPeriod"] == .string("P2M"))
        #expect(h.run(["clock", "advance", "P2M"]).code == 0)
        let prices = h.run(["dump", "--product", product, "--state", "purchased"]).stdout.split(separator: "\n").compactMap {
            line -> String? in
            let text = line.hasSuffix(",") ? String(line.dropLast()) : String(line)
            return (try? JSONParser.parse(text))?["price"]?.stringValue
        }
        #expect(prices == ["0.00", "20.15", "20.15", "4.99"])

        // The file's one-year subscription with a 12-month commitment at $0.50 a month, in the same
        // group: a crossgrade to another duration, so it starts at the monthly one's renewal (no
        // free months: the group's introductory offer was used), then renews monthly.
        let yearly = "com.revenuecat.sampleapp.monthly.12mocommitment"
        let plan = try Self.json(h.run(["buy", yearly, "--billing-plan", "monthly", "--json"]))
        #expect(plan["state"] == .string("purchased"), "\(plan)")
        #expect(h.run(["clock", "advance", "P2M"]).code == 0)
        let last = try #require(
            h.run(["dump", "--product", yearly]).stdout.split(separator: "\n").compactMap { line -> JSONValue? in
                let text = line.hasSuffix(",") ? String(line.dropLast()) : String(line)
                return try? JSONParser.parse(text)
            }.last)
        let paid = try AppleVerifier.decode([
            (.transaction, Self.token(h, [try #require(last["transactionIdentifier"]?.stringValue)]))
        ])[0]
        #expect(paid["billingPlanType"] == .string("MONTHLY") && paid["price"] == .number("500"), "\(paid)")
        #expect(paid["commitmentInfo"]?["billingPeriodNumber"] == .number("2"))
        #expect(paid["commitmentInfo"]?["commitmentPrice"] == .number("6000"))
    }
}
