import Foundation
import IAPKit
import Testing

@testable import IAPJSON

/// `iapctl notifications send`: every type made on demand, through its cause where iapctl
/// models one (the store shows the change), and Apple's `SignedDataVerifier` decoding each with
/// the library's own `NotificationTypeV2` and `Subtype` enums.
@Suite("notifications send end to end")
struct SignedNotificationsSendTests {
    static func subscription(_ h: CLIHarness) throws -> JSONValue {
        let r = h.run(["subscriptions", "com.x.vip2", "--json"])
        #expect(r.code == 0, "\(r)")
        return try #require(try JSONParser.parse(r.stdout).arrayValue?.first)
    }

    /// The `TYPE SUBTYPE` of each line `notifications send` printed.
    static func made(_ r: CLIResult) -> [String] {
        r.stdout.split(separator: "\n").map { $0.split(separator: " ").dropFirst().prefix(2).joined(separator: " ") }
    }

    @Test("each type: the cause applied where iapctl models it, and Apple's verifier decodes every one")
    func everyType() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.vip2"]).code == 0)  // 2000000000000001
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)  // 2000000000000002
        let sub = "2000000000000001"
        let before = h.run(["notifications"]).stdout.split(separator: "\n").count

        // DID_CHANGE_RENEWAL_STATUS: auto-renew really turns off, then on.
        var r = h.run(["notifications", "send", "DID_CHANGE_RENEWAL_STATUS", "--subtype", "AUTO_RENEW_DISABLED", sub])
        #expect(r.code == 0 && Self.made(r) == ["DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED"], "\(r)")
        #expect(try Self.subscription(h)["autoRenewStatus"] == .bool(false))
        r = h.run(["notifications", "send", "DID_CHANGE_RENEWAL_STATUS", "--subtype", "AUTO_RENEW_DISABLED", sub])
        #expect(r.code == 4, "auto-renew is already off: \(r)")
        r = h.run(["notifications", "send", "DID_CHANGE_RENEWAL_STATUS", "--subtype", "AUTO_RENEW_ENABLED", sub])
        #expect(r.code == 0 && Self.made(r) == ["DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_ENABLED"], "\(r)")
        #expect(try Self.subscription(h)["autoRenewStatus"] == .bool(true))

        // DID_RENEW: a renewal transaction.
        r = h.run(["notifications", "send", "DID_RENEW", sub])
        #expect(r.code == 0 && Self.made(r) == ["DID_RENEW -"], "\(r)")
        #expect(r.stdout.contains("2000000000000003"), "the renewal's transaction: \(r)")

        // RENEWAL_EXTENDED: the expiry moves one day.
        let expiry = try Self.subscription(h)["expiresTimestamp"]?.int64Value ?? 0
        r = h.run(["notifications", "send", "RENEWAL_EXTENDED", sub])
        #expect(r.code == 0 && Self.made(r) == ["RENEWAL_EXTENDED -"], "\(r)")
        #expect(try Self.subscription(h)["expiresTimestamp"]?.int64Value == expiry + 86_400_000)

        // RENEWAL_EXTENSION SUMMARY: a mass extension (the year's second extension succeeds) ...
        r = h.run(["notifications", "send", "RENEWAL_EXTENSION", "--subtype", "SUMMARY", sub])
        #expect(r.code == 0 && Self.made(r) == ["RENEWAL_EXTENDED -", "RENEWAL_EXTENSION SUMMARY"], "\(r)")
        // ... and a third within 365 days is refused: FAILURE for it, then the SUMMARY.
        r = h.run(["notifications", "send", "RENEWAL_EXTENSION", "--subtype", "SUMMARY", sub])
        #expect(r.code == 0 && Self.made(r) == ["RENEWAL_EXTENSION FAILURE", "RENEWAL_EXTENSION SUMMARY"], "\(r)")
        #expect(try Self.subscription(h)["expiresTimestamp"]?.int64Value == expiry + 2 * 86_400_000)

        // TEST, and the types iapctl sends on their own (no state change).
        r = h.run(["notifications", "send", "TEST"])
        #expect(r.code == 0 && Self.made(r) == ["TEST -"], "\(r)")
        let standalone: [[String]] = [
            ["PRICE_INCREASE", "--subtype", "PENDING", sub], ["METADATA_UPDATE"], ["MIGRATION", sub],
            ["PRICE_CHANGE", sub], ["RESCIND_CONSENT"], ["EXTERNAL_PURCHASE_TOKEN", "--subtype", "UNREPORTED"],
            ["OFFER_REDEEMED", "--subtype", "UPGRADE", sub], ["DID_FAIL_TO_RENEW", "--subtype", "GRACE_PERIOD", sub],
            ["GRACE_PERIOD_EXPIRED", sub], ["DID_CHANGE_RENEWAL_PREF", "--subtype", "DOWNGRADE", sub],
            ["SUBSCRIBED", "--subtype", "RESUBSCRIBE", sub], ["ONE_TIME_CHARGE", "2000000000000002"],
            ["EXPIRED", "--subtype", "BILLING_RETRY", sub], ["RENEWAL_EXTENSION", "--subtype", "FAILURE", sub],
        ]
        for line in standalone {
            r = h.run(["notifications", "send"] + line)
            let subtype = line.firstIndex(of: "--subtype").map { line[$0 + 1] } ?? "-"
            #expect(r.code == 0 && Self.made(r) == ["\(line[0]) \(subtype)"], "\(line): \(r)")
        }
        #expect(try Self.subscription(h)["status"] == .string("active"), "the standalone ones change no subscription")

        // Issue 15's causes: a refund request opened and declined, a price increase accepted.
        r = h.run(["notifications", "send", "CONSUMPTION_REQUEST", "2000000000000002"])
        #expect(r.code == 0 && Self.made(r) == ["CONSUMPTION_REQUEST -"], "\(r)")
        r = h.run(["notifications", "send", "REFUND_DECLINED", "2000000000000002"])
        #expect(r.code == 0 && Self.made(r) == ["REFUND_DECLINED -"], "\(r)")
        r = h.run(["notifications", "send", "REFUND_DECLINED", "2000000000000002"])
        #expect(r.code == 4, "no request is open any more: \(r)")
        r = h.run(["notifications", "send", "PRICE_INCREASE", "--subtype", "ACCEPTED", sub])
        #expect(r.code == 4, "no price increase is pending: \(r)")
        r = h.run(["price-increase", "com.x.vip2", "99.99"])
        #expect(r.code == 0, "\(r)")
        r = h.run(["notifications", "send", "PRICE_INCREASE", "--subtype", "ACCEPTED", sub])
        #expect(r.code == 0 && Self.made(r) == ["PRICE_INCREASE ACCEPTED"], "\(r)")
        #expect(try Self.subscription(h)["status"] == .string("active"))
        r = h.run(["notifications", "send", "REVOKE", sub])
        #expect(r.code == 4, "no family shares it: \(r)")
        r = h.run(["notifications", "send", "REFUND_REVERSED", "2000000000000002"])
        #expect(r.code == 4, "it is not refunded: \(r)")

        // EXPIRED VOLUNTARY and REFUND through their causes.
        r = h.run(["notifications", "send", "EXPIRED", "--subtype", "VOLUNTARY", sub])
        #expect(r.code == 0 && Self.made(r) == ["EXPIRED VOLUNTARY"], "\(r)")
        #expect(try Self.subscription(h)["status"] == .string("expired"))
        r = h.run(["notifications", "send", "REFUND", "2000000000000002"])
        #expect(r.code == 0 && Self.made(r) == ["REFUND -"], "\(r)")
        let shown = try JSONParser.parse(h.run(["show", "2000000000000002", "--json"]).stdout)
        #expect(shown["revocationReason"] == .number("0"), "\(shown)")
        r = h.run(["notifications", "send", "REFUND_REVERSED", "2000000000000002"])
        #expect(r.code == 0 && Self.made(r) == ["REFUND_REVERSED -"], "\(r)")
        let reversed = try JSONParser.parse(h.run(["show", "2000000000000002", "--json"]).stdout)
        #expect(reversed["revocationReason"] == .null, "the refund is reversed: \(reversed)")

        // Apple's verifier decodes every one, with the library's enums.
        let listed = h.run(["notifications", "--json"]).stdout.split(separator: "\n").dropFirst(before)
            .compactMap { try? JSONParser.parse(String($0)) }
        let expected = h.run(["notifications"]).stdout.split(separator: "\n").dropFirst(before).map {
            $0.split(separator: " ").dropFirst().prefix(2).joined(separator: " ")
        }
        // The causes above, the standalone ones, issue 15's four (with price-increase's PENDING),
        // EXPIRED, REFUND and REFUND_REVERSED.
        #expect(expected.count == 2 + 1 + 1 + 2 + 2 + 1 + standalone.count + 4 + 3)
        let decoded = try AppleVerifier.decode(listed.map { (.notification, $0["signedPayload"]!.stringValue!) })
        #expect(decoded.allSatisfy { $0["error"] == nil }, "\(decoded)")
        #expect(
            decoded.map { "\($0["notificationType"]?.stringValue ?? "?") \($0["subtype"]?.stringValue ?? "-")" } == expected)
    }

    @Test("REVOKE through its cause: a refund of the family's shared purchase revokes each member's copy")
    func revokeThroughTheFamily() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--catalog", CLIHarness.fixture("family/catalog.json")]).code == 0)
        #expect(h.run(["family", "add", "alex"]).code == 0)
        #expect(h.run(["buy", "com.x.noads"]).code == 0)  // 2000000000000001, alex's copy ...02
        var r = h.run(["notifications", "send", "REVOKE", "2000000000000002"])
        #expect(r.code == 4 && r.stderr.contains("is not one"), "a member's copy is not the purchase: \(r)")
        r = h.run(["notifications", "send", "REVOKE", "2000000000000001"])
        #expect(r.code == 0 && Self.made(r) == ["REFUND -", "REVOKE -"], "\(r)")
        let alex = try JSONParser.parse(h.run(["dump", "--member", "alex"]).stdout)
        #expect(alex.arrayValue?.allSatisfy { $0["revocationDate"] != .null } == true, "\(alex)")
        let listed = h.run(["notifications", "--json"]).stdout.split(separator: "\n")
            .compactMap { try? JSONParser.parse(String($0)) }
        let decoded = try AppleVerifier.decode(listed.map { (.notification, $0["signedPayload"]!.stringValue!) })
        #expect(decoded.last?["notificationType"]?.stringValue == "REVOKE", "\(decoded)")
    }

    static let badInput: [([String], String)] = [
        (["DID_RENEWW"], "unknown notification type 'DID_RENEWW'; did you mean DID_RENEW?"),
        (
            ["DID_RENEW", "--subtype", "VOLUNTARY", "2000000000000001"],
            "DID_RENEW has no subtype VOLUNTARY; use BILLING_RECOVERY"
        ),
        (
            ["EXPIRED", "--subtype", "VOLUNTERY", "2000000000000001"],
            "unknown subtype 'VOLUNTERY' for EXPIRED; did you mean VOLUNTARY?"
        ),
        (["TEST", "--subtype", "SUMMARY"], "TEST has no subtype SUMMARY; it has none"),
        (["SUBSCRIBED"], "SUBSCRIBED needs --subtype: INITIAL_BUY or RESUBSCRIBE"),
        (["TEST", "2000000000000001"], "TEST is about no transaction; leave TXID out"),
        (["DID_RENEW"], "DID_RENEW comes from a change to a purchase; give TXID, a transaction of it (see 'iapctl dump')"),
        (["REFUND", "abc"], "'abc' is not a transaction id; give a decimal id such as 2000000000000001"),
    ]

    @Test("bad input: one line with the fix (did-you-mean), exit 64, nothing written")
    func badInputs() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.vip2"]).code == 0)
        let before = h.bytes("store/state")
        let journal = h.bytes("store/journal")
        for (arguments, message) in Self.badInput {
            let r = h.run(["notifications", "send"] + arguments)
            #expect(r.code == 64, "\(arguments): \(r)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(message), "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        #expect(h.bytes("store/state") == before)
        #expect(h.bytes("store/journal") == journal)
    }
}
