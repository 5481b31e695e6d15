import Foundation
import Testing

@testable import IAPJSON

/// Issue 15 (life-a) end to end with the built binary: refund requests, price increases and a
/// storefront change, with the signed transactions, renewal info and V2 notifications verified
/// and decoded by Apple's `SignedDataVerifier` (a field that did not parse into the library's
/// enums, `RevocationType`, `PriceIncreaseStatus`, `NotificationTypeV2`, `Subtype`, would be
/// missing from its output), verifyReceipt's pending_renewal_info, and the bad-input rows.
@Suite("Life: refund requests, price increases, storefront changes, end to end")
struct LifeCLITests {
    static func json(_ r: CLIResult) throws -> JSONValue { try JSONParser.parse(r.stdout) }

    static func token(_ h: CLIHarness, _ arguments: [String]) -> String {
        h.run(["jws"] + arguments).stdout.trimmingCharacters(in: .newlines)
    }

    /// Every notification after `since`, decoded by Apple's verifier, with its signed data.
    static func notifications(_ h: CLIHarness, since: Int = 0) throws -> [(
        type: String, transaction: JSONValue?, renewal: JSONValue?
    )] {
        let lines = h.run(["notifications", "--since", String(since), "--json"]).stdout.split(separator: "\n")
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

    static func lastSeq(_ h: CLIHarness) -> Int {
        let lines = h.run(["events", "--json"]).stdout.split(separator: "\n")
        return lines.last.flatMap { try? JSONParser.parse(String($0))["seq"]?.int64Value }.map { Int($0) } ?? 0
    }

    @Test(
        "request, approve --percent 40, decline, reverse: CONSUMPTION_REQUEST, REFUND (REFUND_PRORATED, 40000), REFUND_DECLINED, REFUND_REVERSED decoded by Apple's library"
    )
    func refundRequestFlow() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        #expect(h.run(["buy", "com.x.vippro"]).code == 0)
        #expect(h.run(["finish", "--all"]).code == 0)
        let coin = "2000000000000001"
        let noads = "2000000000000002"
        let sub = "2000000000000003"
        let since = Self.lastSeq(h)

        let opened = try Self.json(h.run(["refund", "request", coin, "--reason", "never arrived", "--json"]))
        #expect(opened["refundRequest"]?["status"] == .string("open"))
        #expect(opened["refundRequest"]?["reason"] == .string("never arrived"))
        #expect(opened["refundRequest"]?["consumptionInformation"] == .array([]))
        #expect(opened["notification"]?["notificationType"] == .string("CONSUMPTION_REQUEST"))
        let approved = try Self.json(h.run(["refund", "approve", coin, "--percent", "40", "--json"]))
        #expect(
            approved["refundRequest"]?["status"] == .string("approved") && approved["refundRequest"]?["percent"] == .number("40"))
        #expect(approved["transaction"]?["revocationType"] == .string("REFUND_PRORATED"))
        #expect(approved["transaction"]?["revocationPercentage"] == .number("40000"))
        let shown = try Self.json(h.run(["show", coin, "--json"]))
        #expect(shown["refundRequest"]?["status"] == .string("approved") && shown["revocationType"] == .string("REFUND_PRORATED"))

        #expect(h.run(["refund", "request", noads, "--reason", "UNSATISFIED_WITH_PURCHASE"]).code == 0)
        let declined = h.run(["refund", "decline", noads])
        #expect(declined.code == 0 && declined.stdout.contains("notification: REFUND_DECLINED"), "\(declined)")
        #expect(h.run(["restore"]).stdout.contains("com.x.noads"), "a declined request leaves it owned")

        #expect(h.run(["refund", sub]).code == 0)
        let reversed = try Self.json(h.run(["refund", "reverse", sub, "--json"]))
        #expect(reversed["subscription"]?["status"] == .string("active"))
        #expect(reversed["transaction"]?["revocationDate"] == .null)

        // Apple's reason code travels in CONSUMPTION_REQUEST's data (a non-consumable's request
        // notifies nothing, so the coin's request is the one; its reason is free text).
        let lines = h.run(["notifications", "--since", String(since), "--json"]).stdout.split(separator: "\n")
        let first = try #require(try JSONParser.parse(String(lines[0]))["signedPayload"]?.stringValue)
        #expect(try AppleVerifier.decode([(.notification, first)])[0]["data"]?["consumptionRequestReason"] == nil)
        let notes = try Self.notifications(h, since: since)
        #expect(
            notes.map(\.type) == [
                "CONSUMPTION_REQUEST -", "REFUND -", "REFUND_DECLINED -", "REFUND -", "REFUND_REVERSED -",
            ])
        let refunded = try #require(notes[1].transaction)
        #expect(refunded["revocationType"] == .string("REFUND_PRORATED") && refunded["revocationPercentage"] == .number("40000"))
        #expect(refunded["transactionId"] == .string(coin))
        #expect(notes[2].transaction?["transactionId"] == .string(noads) && notes[2].transaction?["revocationDate"] == nil)
        // Xcode's immediate refund has no revocationType; the reversal clears the revocation.
        #expect(notes[3].transaction?["revocationDate"] != nil && notes[3].transaction?["revocationType"] == nil)
        #expect(notes[4].transaction?["revocationDate"] == nil)
        #expect(notes[4].renewal?["autoRenewStatus"] == .number("1"))

        // The signed transaction now: prorated refund fields, as parsed by the library.
        let signed = try AppleVerifier.decode([(.transaction, Self.token(h, [coin]))])[0]
        #expect(signed["revocationType"] == .string("REFUND_PRORATED") && signed["revocationPercentage"] == .number("40000"))
        // The requests survived every reload; doctor's fold check finds the state whole.
        let doctor = h.run(["doctor"])
        #expect(doctor.code == 0, "\(doctor)")
    }

    @Test("Apple's reason code goes in CONSUMPTION_REQUEST's consumptionRequestReason, decoded into the library's enum")
    func consumptionRequestReason() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        #expect(h.run(["refund", "request", "2000000000000001", "--reason", "UNINTENDED_PURCHASE"]).code == 0)
        let notes = h.run(["notifications", "--json"]).stdout.split(separator: "\n")
        let line = try #require(notes.last)
        let last = try #require(try JSONParser.parse(String(line))["signedPayload"]?.stringValue)
        let n = try AppleVerifier.decode([(.notification, last)])[0]
        #expect(n["notificationType"] == .string("CONSUMPTION_REQUEST"))
        #expect(n["data"]?["consumptionRequestReason"] == .string("UNINTENDED_PURCHASE"), "\(n)")
    }

    @Test(
        "price increase with consent: PRICE_INCREASE PENDING (status 0), accept -> ACCEPTED (1) and the renewal at the new price; decline -> EXPIRED PRICE_INCREASE, intent 3"
    )
    func priceIncreaseFlow() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.vippro"]).code == 0)
        let sub = "2000000000000001"
        let raised = try Self.json(h.run(["price-increase", "com.x.vippro", "11.99", "--json"]))
        #expect(
            raised["priceIncrease"]?["price"] == .string("11.99") && raised["priceIncrease"]?["consentRequired"] == .bool(true))
        #expect(raised["subscribers"]?.arrayValue?.first?["priceIncreaseStatus"] == .number("0"))
        #expect(raised["subscribers"]?.arrayValue?.first?["renewalPrice"] == .string("11.99"))
        let pending = try AppleVerifier.decode([(.renewal, Self.token(h, ["renewal", sub]))])[0]
        #expect(pending["priceIncreaseStatus"] == .number("0") && pending["renewalPrice"] == .number("11990"))
        let receipt = try Self.json(h.run(["verify-receipt", "--json"]))
        #expect(receipt["pending_renewal_info"]?.arrayValue?.first?["price_consent_status"] == .string("0"))
        #expect(receipt["pending_renewal_info"]?.arrayValue?.first?["price_increase_status"] == .string("0"))

        let accepted = try Self.json(h.run(["price-consent", sub, "accept", "--json"]))
        #expect(accepted["priceConsent"]?["status"] == .string("accepted"))
        #expect(accepted["subscription"]?["priceIncreaseStatus"] == .number("1"))
        #expect(
            try Self.json(h.run(["verify-receipt", "--json"]))["pending_renewal_info"]?.arrayValue?.first?[
                "price_increase_status"] == .string("1"))
        #expect(h.run(["clock", "advance", "P1M"]).code == 0)
        let second = try Self.json(h.run(["price-increase", "com.x.vippro", "12.99", "--json"]))
        #expect(second["subscribers"]?.arrayValue?.first?["priceIncreaseStatus"] == .number("0"))
        // A renewal's transaction id names the same subscription.
        #expect(h.run(["price-consent", "2000000000000002", "decline"]).code == 0)
        #expect(h.run(["clock", "advance", "P1M"]).code == 0)

        let notes = try Self.notifications(h)
        #expect(
            notes.map(\.type) == [
                "SUBSCRIBED INITIAL_BUY", "PRICE_INCREASE PENDING", "PRICE_INCREASE ACCEPTED", "DID_RENEW -",
                "PRICE_INCREASE PENDING", "EXPIRED PRICE_INCREASE",
            ])
        #expect(notes[1].renewal?["priceIncreaseStatus"] == .number("0"))
        #expect(notes[2].renewal?["priceIncreaseStatus"] == .number("1") && notes[2].renewal?["renewalPrice"] == .number("11990"))
        #expect(notes[3].transaction?["price"] == .number("11990"))
        #expect(notes[3].renewal?["priceIncreaseStatus"] == nil, "the renewal at the new price ends the increase")
        #expect(notes[5].renewal?["expirationIntent"] == .number("3"))
        let doctor = h.run(["doctor"])
        #expect(doctor.code == 0, "\(doctor)")
    }

    @Test("without consent: PRICE_INCREASE ACCEPTED and the next renewal charges the new price")
    func priceIncreaseWithoutConsent() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.vippro"]).code == 0)
        let r = h.run(["price-increase", "com.x.vippro", "10.99", "--no-consent"])
        #expect(r.code == 0 && r.stdout.contains("1 subscriber told"), "\(r)")
        #expect(h.run(["clock", "advance", "P1M"]).code == 0)
        let notes = try Self.notifications(h)
        #expect(notes.map(\.type) == ["SUBSCRIBED INITIAL_BUY", "PRICE_INCREASE ACCEPTED", "DID_RENEW -"])
        #expect(notes[2].transaction?["price"] == .number("10990"))
    }

    @Test("a storefront change: the renewal and its signed data carry the new storefront, currency and price")
    func storefrontChange() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.vippro"]).code == 0)
        #expect(h.run(["config", "set", "storefront", "JPN"]).code == 0)
        let before = try AppleVerifier.decode([(.renewal, Self.token(h, ["renewal", "2000000000000001"]))])[0]
        #expect(before["currency"] == .string("JPY") && before["renewalPrice"] == .number("1300000"))
        #expect(h.run(["clock", "advance", "P1M"]).code == 0)
        let renewed = try AppleVerifier.decode([(.transaction, Self.token(h, ["2000000000000002"]))])[0]
        #expect(renewed["storefront"] == .string("JPN") && renewed["currency"] == .string("JPY"))
        #expect(renewed["price"] == .number("1300000"))
        let notes = try Self.notifications(h)
        #expect(notes.last?.type == "DID_RENEW -" && notes.last?.transaction?["storefront"] == .string("JPN"))
        let receipt = try Self.json(h.run(["verify-receipt", "--json"]))
        #expect(receipt["latest_receipt_info"]?.arrayValue?.first?["transaction_id"] == .string("2000000000000002"))
    }

    @Test(
        "bad input: one line, the documented exit code, nothing changed",
        arguments: [
            (["refund", "request", "2000000000000099"], 3, "error: unknown transaction '2000000000000099'"),
            (
                ["refund", "decline", "2000000000000001"], 4,
                "error: transaction 2000000000000001 has no refund request to decline"
            ),
            (
                ["refund", "approve", "2000000000000001", "--percent", "101"], 64,
                "error: '--percent' expects an integer from 1 to 100"
            ),
            (["refund", "reverse", "2000000000000001"], 4, "error: transaction 2000000000000001 was not refunded"),
            (["refund", "request", "12x"], 64, "error: bad transaction id '12x'"),
            (["price-increase", "com.x.vippro", "abc"], 64, "error: bad price 'abc'; give a positive decimal such as 12.99"),
            (["price-increase", "com.x.vippro", "5"], 4, "error: 5.00 is not above com.x.vippro's price in USA"),
            (["price-increase", "com.x.coin42", "5"], 4, "error: 'com.x.coin42' is consumable"),
            (["price-increase", "com.x.nope", "5"], 3, "error: unknown product"),
            (
                ["price-consent", "2000000000000002", "accept"], 4,
                "error: subscription 2000000000000002 has no price increase to answer"
            ),
            (["price-consent", "2000000000000002", "maybe"], 64, "error: bad answer 'maybe'; give accept or decline"),
        ] as [([String], Int32, String)])
    func badInput(arguments: [String], code: Int32, message: String) throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        #expect(h.run(["buy", "com.x.vippro"]).code == 0)
        let before = h.run(["dump", "--json"]).stdout
        let events = h.run(["events", "--json"]).stdout
        let r = h.run(arguments)
        #expect(r.code == code, "\(r)")
        #expect(r.stderr.hasPrefix(message), "\(r)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r)")
        #expect(h.run(["dump", "--json"]).stdout == before)
        #expect(h.run(["events", "--json"]).stdout == events)
    }
}
