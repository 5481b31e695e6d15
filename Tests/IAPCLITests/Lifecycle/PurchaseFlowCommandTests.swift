import Foundation
import IAPKit
import Testing

@Suite("Promoted purchases, Ask to Buy and interrupted purchases, end to end")
struct PurchaseFlowCommandTests {
    @Test("promote with store-payments accept, defer and decline; stored-payments; accept-stored")
    func promote() {
        let h = CLIHarness("iapctl-promote")
        let accepted = h.run(["promote", "com.x.noads", "--json"])
        #expect(accepted.code == 0)
        #expect(accepted.json?["decision"]?.stringValue == "accepted")
        #expect(accepted.json?["transaction"]?["state"]?.stringValue == "purchased")

        h.ok(["config", "set", "store-payments", "defer"])
        let deferred = h.run(["promote", "com.x.vip2", "--user", "u1"])
        #expect(deferred.code == 5)
        #expect(deferred.stdout == "store payment for com.x.vip2 deferred: kept until 'iapctl accept-stored'\n")
        #expect(
            h.ok(["stored-payments"]) == """
                PRODUCT     QTY  DATE                  USER
                com.x.vip2  1    2026-01-01T00:00:02Z  u1

                """)
        let all = h.run(["accept-stored", "--json"])
        #expect(all.code == 0)
        #expect(all.json?.arrayValue?.map { $0["productIdentifier"]?.stringValue } == ["com.x.vip2"])
        #expect(h.ok(["stored-payments"]) == "no stored payments\n")
        #expect(h.ok(["accept-stored"]) == "no stored payments to accept\n")

        h.ok(["config", "set", "store-payments", "decline"])
        let declined = h.run(["promote", "com.x.coin42"])
        #expect(declined.code == 0)
        #expect(declined.stdout.hasPrefix("store payment for com.x.coin42 declined: the app buys the product itself\n"))
        h.ok(["config", "set", "payments-allowed", "false"])
        let dropped = h.run(["promote", "com.x.coin42", "--json"])
        #expect(dropped.code == 1)
        #expect(dropped.json?["transaction"] == .null && dropped.json?["decision"]?.stringValue == "declined")
        #expect(h.eventNames().contains("storedPaymentAccepted"))
    }

    @Test("promote refuses unknown products and bad store-payments values")
    func promoteRefusals() {
        let h = CLIHarness("iapctl-promote")
        h.ok(["init"])
        h.expectRefused(
            ["promote", "com.x.nope"], code: 3,
            "unknown product 'com.x.nope'; closest known: com.x.noads, com.x.vip1, com.x.vip2 (see 'iapctl products')")
        h.expectRefused(
            ["config", "set", "store-payments", "later"], code: 64,
            "bad value 'later' for setting store-payments; expected accept, defer or decline")
        h.expectRefused(
            ["promote", "com.x.noads", "--user", "a", "--account", "b"], code: 64,
            "'--user' and '--account' cannot be used together")
        h.expectRefused(
            ["promote", ""], code: 64, "empty product identifier; give one such as com.x.noads (see 'iapctl help promote')")
    }

    @Test("Ask to Buy: buy exits 5 deferred; approve purchases; decline fails; approving anything not deferred exits 4")
    func askToBuy() {
        let h = CLIHarness("iapctl-asktobuy")
        h.ok(["config", "set", "ask-to-buy", "true"])
        let bought = h.run(["buy", "com.x.noads"])
        #expect(bought.code == 5)
        #expect(bought.stdout == "deferred  2000000000000001  com.x.noads  $1.99 (not charged)\n")
        h.expectRefused(
            ["finish", "2000000000000001"], code: 4,
            "cannot finish transaction 2000000000000001: it is deferred; a deferred transaction is waiting for approval; approve or decline it first"
        )
        #expect(h.ok(["approve", "2000000000000001"]) == "purchased  2000000000000001  com.x.noads  $1.99\n")
        h.expectRefused(
            ["approve", "2000000000000001"], code: 4,
            "cannot approve transaction 2000000000000001: it is purchased; only deferred (Ask to Buy) transactions can be approved or declined"
        )
        h.ok(["buy", "com.x.coin42"], code: 5)
        h.expectRefused(
            ["decline", "2000000000000002", "--error", "nope"], code: 64,
            "unknown error 'nope'; give an SKError name or code 0-20 (paymentCancelled or 2) or a seed code 100, 136, 200, 300 (see 'iapctl help decline')"
        )
        let declined = h.run(["decline", "2000000000000002", "--json"])
        #expect(declined.code == 0)
        #expect(declined.json?["error"]?["name"]?.stringValue == "paymentCancelled")
        h.expectRefused(
            ["approve", "2000000000000099"], code: 3,
            "unknown transaction '2000000000000099' (see 'iapctl queue' or 'iapctl dump')")
        #expect(h.eventNames().filter { $0 == "transactionDeferred" }.count == 2)
    }

    @Test("interrupted purchases: buy fails (exit 1); resolve completes it with a new purchased transaction")
    func interrupted() {
        let h = CLIHarness("iapctl-interrupted")
        h.ok(["config", "set", "interrupted-purchases", "true"])
        let failed = h.run(["buy", "com.x.noads"])
        #expect(failed.code == 1)
        #expect(
            failed.stdout
                == "failed  2000000000000001  com.x.noads  $1.99 (not charged)  SKErrorDomain 2 paymentCancelled: The user cancelled the payment request.\n"
        )
        #expect(
            h.ok(["resolve", "2000000000000001"]) == """
                interrupted purchase 2000000000000001 resolved by transaction 2000000000000002
                purchased  2000000000000002  com.x.noads  $1.99

                """)
        h.expectRefused(
            ["resolve", "2000000000000001"], code: 4,
            "nothing to resolve for transaction 2000000000000001: it is failed (paymentCancelled), not an interrupted purchase waiting to be resolved"
        )
        h.expectRefused(
            ["resolve", "2000000000000005"], code: 3,
            "unknown transaction '2000000000000005' (see 'iapctl queue' or 'iapctl dump')")
        h.expectRefused(
            ["resolve", "com.x.noads"], code: 64,
            "'com.x.noads' is nonConsumable, not an auto-renewable subscription; name a subscription product or an original transaction id"
        )
    }

    @Test("fail-transactions fails every purchase with SKError unknown, or the error given")
    func failTransactions() {
        let h = CLIHarness("iapctl-fail")
        #expect(h.ok(["config", "set", "fail-transactions", "true"]) == "fail-transactions = unknown\n")
        #expect(h.run(["buy", "com.x.coin42", "--json"]).json?["error"]?["code"]?.int64Value == 0)
        h.ok(["config", "set", "fail-transactions", "storeProductNotAvailable"])
        let r = h.run(["buy", "com.x.coin42"])
        #expect(r.code == 1 && r.stdout.contains("SKErrorDomain 5 storeProductNotAvailable"))
        h.expectRefused(
            ["config", "set", "fail-transactions", "maybe"], code: 64,
            "bad value 'maybe' for setting fail-transactions; expected false, true, or an SKError name or code 0-20 (paymentCancelled or 2) or a seed code 100, 136, 200, 300"
        )
    }
}
