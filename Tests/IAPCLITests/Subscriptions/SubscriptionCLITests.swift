import IAPKit
import Testing

@Suite("Subscriptions, refunds, delete and clear, end to end")
struct SubscriptionCLITests {
    @Test("renewals reach the queue and the subscriptions list; auto-renew off expires with intent 1")
    func renewalsAndAutoRenew() {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.vip2"]).code == 0)
        #expect(h.run(["clock", "advance", "P6M"]).code == 0)
        let queue = h.run(["queue", "--json"]).json?.arrayValue ?? []
        #expect(queue.map { $0["transactionReason"]?.stringValue } == ["purchase", "renewal", "renewal"])
        #expect(queue.map { $0["originalTransactionIdentifier"]?.stringValue } == Array(repeating: "2000000000000001", count: 3))
        let list = h.run(["subscriptions", "--json"]).json?.arrayValue?.first
        #expect(list?["status"]?.stringValue == "active")
        #expect(list?["expiresDate"]?.stringValue == "2026-10-01T00:00:01Z")
        #expect(list?["autoRenewProductIdentifier"]?.stringValue == "com.x.vip2")
        let off = h.run(["auto-renew", "off", "com.x.vip2"])
        #expect(off.code == 0)
        #expect(off.stdout == "active  2000000000000001  com.x.vip2  expires 2026-10-01T00:00:01Z  auto-renew off\n")
        #expect(h.run(["clock", "advance", "P1Y"]).stdout.contains("on the way: 1 subscriptionExpired"))
        let text = h.run(["subscriptions"]).stdout
        #expect(
            text == """
                ORIGINAL          PRODUCT     STATUS   EXPIRES               AUTO-RENEW  RENEWS AS   INTENT
                2000000000000001  com.x.vip2  expired  2026-10-01T00:00:01Z  off         com.x.vip2  1 cancelled

                """)
        let again = h.run(["auto-renew", "on", "2000000000000001"])
        #expect(again.code == 4)
        #expect(
            again.stderr
                == "error: subscription 2000000000000001 (com.x.vip2) is expired; auto-renew applies to a live subscription (buy com.x.vip2 to subscribe again)\n"
        )
        let events = h.run(["events"]).stdout.split(separator: "\n")
        #expect(events.dropLast().last?.contains(#""notification":{"notificationType":"EXPIRED","subtype":"VOLUNTARY"}"#) == true)
    }

    @Test("billing issues with a grace period, then resolve, through the CLI")
    func billing() {
        let h = CLIHarness()
        _ = h.runInProcess(["config", "set", "billing-issues", "true"])
        _ = h.runInProcess(["config", "set", "grace-period", "true"])
        #expect(h.runInProcess(["buy", "com.x.vippro"]).code == 0)
        #expect(h.runInProcess(["clock", "advance", "P1M"]).stdout.contains("1 renewalFailed"))
        let sub = h.run(["subscriptions", "com.x.vippro", "--json"]).json?.arrayValue?.first
        #expect(sub?["status"]?.stringValue == "inGracePeriod")
        #expect(sub?["gracePeriodExpiresDate"]?.stringValue == "2026-02-17T00:00:01Z")
        #expect(sub?["billingRetryEndDate"]?.stringValue == "2026-04-02T00:00:01Z")
        #expect(sub?["isInBillingRetryPeriod"]?.boolValue == true)
        let renew = h.run(["renew", "com.x.vippro"])
        #expect(renew.code == 4)
        #expect(
            renew.stderr
                == "error: subscription 2000000000000001 (com.x.vippro) has a billing issue (inGracePeriod); recover it with 'iapctl resolve 2000000000000001'\n"
        )
        let resolved = h.run(["resolve", "com.x.vippro"])
        #expect(resolved.code == 0)
        #expect(
            resolved.stdout.hasPrefix("renewed: purchased  2000000000000002  com.x.vippro  $9.99  original 2000000000000001\n"))
        #expect(
            resolved.stdout.hasSuffix(
                "note: billing-issues is still on, so the next renewal will fail again ('iapctl config set billing-issues false')\n"
            ))
        let json = h.run(["resolve", "com.x.vippro", "--json"])
        #expect(json.code == 4)
        #expect(h.run(["subscriptions", "--json"]).json?.arrayValue?.first?["status"]?.stringValue == "active")
    }

    @Test(
        "subscription actions: unknown subscriptions exit 3, other products 64, wrong states 4",
        arguments: [
            (
                ["renew", "com.x.vip2"], 3,
                "error: no subscription in group 'vip' of 'com.x.vip2'; buy one first ('iapctl buy com.x.vip2')\n"
            ),
            (
                ["expire", "77"], 3,
                "error: no subscription has original transaction id 77 (list them with 'iapctl subscriptions', no id)\n"
            ),
            (
                ["resolve", "com.x.coin42"], 64,
                "error: 'com.x.coin42' is consumable, not an auto-renewable subscription; name a subscription product or an original transaction id\n"
            ),
            (
                ["auto-renew", "off", "com.x.vipp"], 3,
                "error: unknown product 'com.x.vipp'; closest known: com.x.vip1, com.x.vip2, com.x.vippro (see 'iapctl products')\n"
            ),
            (["auto-renew", "maybe", "com.x.vip2"], 64, "error: <STATE> expects one of: off, on, got 'maybe'\n"),
            (
                ["subscriptions", "com.x.vip1"], 3,
                "error: no purchase of the non-renewing subscription 'com.x.vip1' (buy it with 'iapctl buy com.x.vip1')\n"
            ),
        ])
    func actionErrors(arguments: [String], code: Int32, stderr: String) {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let r = h.run(arguments)
        #expect(r.code == code)
        #expect(r.stderr == stderr)
    }

    @Test("non-renewing subscriptions extend from the later of now and the expiry, and list with their status")
    func nonRenewing() {
        let h = CLIHarness()
        _ = h.runInProcess(["buy", "com.x.vip1"])
        _ = h.runInProcess(["clock", "set", "2026-01-20"])
        let second = h.runInProcess(["buy", "com.x.vip1", "--json"]).json
        #expect(second?["expiresDate"]?.stringValue == "2026-03-01T00:00:01Z")
        let list = h.run(["subscriptions", "com.x.vip1", "--json"]).json?.arrayValue?.first
        #expect(list?["productType"]?.stringValue == "nonRenewing")
        #expect(list?["status"]?.stringValue == "active")
        #expect(list?["purchaseCount"]?.int64Value == 2)
        _ = h.runInProcess(["finish", "--all"])
        #expect(h.run(["restore", "--json"]).stdout == "[]\n")
    }

    @Test("refund sets revocationDate and reason, removes the entitlement, and shows in dump and restore")
    func refund() {
        let h = CLIHarness()
        _ = h.runInProcess(["buy", "com.x.noads"])
        _ = h.runInProcess(["buy", "com.x.vip2"])
        _ = h.runInProcess(["finish", "--all"])
        let r = h.run(["refund", "2000000000000001", "--reason", "1", "--json"])
        #expect(r.code == 0, "\(r)")
        #expect(r.json?["revocationDate"]?.stringValue == "2026-01-01T00:00:02Z")
        #expect(r.json?["revocationReason"]?.int64Value == 1)
        let dumped = h.run(["dump", "--product", "com.x.noads"]).json?.arrayValue?.first
        #expect(dumped?["revocationReason"]?.int64Value == 1)
        let restored = h.run(["restore", "--json"]).json?.arrayValue ?? []
        #expect(restored.map { $0["productIdentifier"]?.stringValue } == ["com.x.vip2"])
        let sub = h.run(["refund", "2000000000000002"])
        #expect(sub.code == 0)
        #expect(sub.stdout.hasSuffix("revoked  2000000000000002  com.x.vip2  expires 2026-04-01T00:00:02Z  auto-renew off\n"))
        let twice = h.run(["refund", "2000000000000002"])
        #expect(twice.code == 4)
        #expect(twice.stderr == "error: transaction 2000000000000002 was already refunded on 2026-01-01T00:00:03Z\n")
        #expect(h.run(["events"]).stdout.contains(#""notification":{"notificationType":"REFUND","subtype":null}"#))
    }

    @Test("delete and clear need --yes; deleted transactions vanish from dump, show and the queue")
    func deleteAndClear() {
        let h = CLIHarness()
        _ = h.runInProcess(["buy", "com.x.noads"])
        _ = h.runInProcess(["buy", "com.x.coin42"])
        let refused = h.run(["delete", "2000000000000001"])
        #expect(refused.code == 64)
        #expect(
            refused.stderr
                == "error: deleting transaction 2000000000000001 cannot be undone; add --yes to confirm (see 'iapctl help delete')\n"
        )
        #expect(h.run(["dump"]).json?.arrayValue?.count == 2)
        let deleted = h.run(["delete", "2000000000000001", "--yes"])
        #expect(deleted.code == 0)
        #expect(deleted.stdout == "deleted: purchased  2000000000000001  com.x.noads  $1.99\n")
        #expect(h.run(["dump"]).json?.arrayValue?.map { $0["transactionIdentifier"]?.stringValue } == ["2000000000000002"])
        #expect(h.run(["queue", "--json"]).json?.arrayValue?.count == 1)
        let show = h.run(["show", "2000000000000001"])
        #expect(show.code == 3)
        #expect(show.stderr == "error: unknown transaction '2000000000000001' (see 'iapctl queue' or 'iapctl dump')\n")
        let clear = h.run(["clear"])
        #expect(clear.code == 64)
        #expect(
            clear.stderr
                == "error: clearing deletes every transaction and cannot be undone; add --yes to confirm (see 'iapctl help clear')\n"
        )
        #expect(h.run(["clear", "--yes"]).stdout == "cleared 1 transaction\n")
        #expect(h.run(["dump"]).stdout == "[]\n")
        #expect(h.run(["queue"]).stdout == "the queue is empty\n")
        #expect(h.run(["doctor"]).code == 0)
        // The tombstones survive a reopen: the journal keeps them, dump keeps hiding them.
        _ = h.runInProcess(["buy", "com.x.noads"])
        #expect(h.run(["dump"]).json?.arrayValue?.map { $0["transactionIdentifier"]?.stringValue } == ["2000000000000003"])
    }

    @Test("an upgrade through the CLI: the old period is marked upgraded, the new one carries the credit")
    func upgrade() {
        let h = CLIHarness()
        _ = h.runInProcess(["buy", "com.x.vip2"])
        _ = h.runInProcess(["clock", "advance", "P1M"])
        // 12.99 for 90 days, 59 days less a second left: 8.5159... credited, rounded down to the cent.
        let pro = h.run(["buy", "com.x.vippro", "--json"])
        #expect(pro.code == 0)
        #expect(pro.json?["productIdentifier"]?.stringValue == "com.x.vippro")
        #expect(pro.json?["upgradeCredit"]?.stringValue == "8.51")
        #expect(h.run(["show", "2000000000000001", "--json"]).json?["isUpgraded"]?.boolValue == true)
    }
}
