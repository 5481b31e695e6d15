import Foundation
import IAPKit
import Testing

@Suite("fault, ledger, consume and owned, end to end")
struct FaultLedgerCommandTests {
    @Test("fault add, list and clear; faults fail purchases, products requests and restores in order")
    func faults() {
        let h = CLIHarness("iapctl-faults")
        #expect(
            h.ok(["fault", "add", "purchase", "2", "--count", "2"])
                == "fault #1 armed: purchase fails 2 times with SKErrorDomain 2 (paymentCancelled): The user cancelled the payment request.\n"
        )
        let added = h.run(["fault", "add", "products", "100", "--json"]).json
        #expect(added?["id"]?.int64Value == 2 && added?["error"]?["domain"]?.stringValue == "net.robotmedia.store")
        h.ok(["fault", "add", "restore", "unknown", "--product", "com.x.noads"])
        #expect(
            h.ok(["fault", "list"]) == """
                ID  POINT     PRODUCT      REMAINING  ERROR
                1   purchase  any          2          SKErrorDomain 2 (paymentCancelled): The user cancelled the payment request.
                2   products  any          1          net.robotmedia.store 100 (unknownProductIdentifier): Unknown product identifier
                3   restore   com.x.noads  1          SKErrorDomain 0 (unknown): An unknown error occurred.

                """)
        let products = h.run(["products", "--json"])
        #expect(products.code == 1 && products.stdout.isEmpty)
        #expect(
            products.stderr
                == "error: the products request failed: net.robotmedia.store 100 (unknownProductIdentifier): Unknown product identifier (an armed fault; see 'iapctl fault list')\n"
        )
        #expect(h.run(["products"]).code == 0, "the fault was spent")
        #expect(h.run(["buy", "com.x.noads"]).code == 1)
        #expect(h.run(["buy", "com.x.noads"]).code == 1)
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        h.ok(["finish", "--all"])
        let restore = h.run(["restore"])
        #expect(restore.code == 1)
        #expect(
            restore.stdout == """
                fault #3 fired at restore: SKErrorDomain 0 (unknown): An unknown error occurred. (0 left)
                restore failed: SKErrorDomain 0 (unknown): An unknown error occurred.

                """)
        #expect(h.ok(["fault", "list", "--json"]) == "[]\n")
        h.ok(["fault", "add", "verification", "200"])
        #expect(h.ok(["fault", "clear"]) == "1 fault cleared\n")
        let names = h.eventNames()
        #expect(names.filter { $0 == "faultFired" }.count == 4)
        #expect(names.filter { $0 == "faultAdded" }.count == 4 && names.last == "faultsCleared")
    }

    @Test("bad fault arguments: exit 64 with a did-you-mean, unknown products exit 3, nothing armed")
    func faultRefusals() {
        let h = CLIHarness("iapctl-faults")
        h.ok(["init"])
        h.expectRefused(
            ["fault", "add", "purchse", "2"], code: 64,
            "<POINT> expects one of: products, purchase, restore, refresh-receipt, download, verification, subscription-status, app-transaction, manage-subscriptions, refund-request, offer-code-redeem, got 'purchse'; did you mean 'purchase'?"
        )
        h.expectRefused(
            ["fault", "add", "purchase", "paymentCanceled"], code: 64,
            "unknown error 'paymentCanceled'; did you mean 'paymentCancelled'? give an SKError name or code 0-20 (paymentCancelled or 2) or a seed code 100, 136, 200, 300 (see 'iapctl help fault add')"
        )
        h.expectRefused(
            ["fault", "add", "purchase", "21"], code: 64,
            "unknown error '21'; give an SKError name or code 0-20 (paymentCancelled or 2) or a seed code 100, 136, 200, 300 (see 'iapctl help fault add')"
        )
        h.expectRefused(
            ["fault", "add", "download", "7", "--count", "1001"], code: 64,
            "'--count' expects an integer from 1 to 1000, got '1001'")
        h.expectRefused(
            ["fault", "add", "download", "7", "--product", "com.x.levelpak"], code: 3,
            "unknown product 'com.x.levelpak'; closest known: com.x.levelpack (see 'iapctl products')")
        #expect(h.ok(["fault", "list"]) == "no faults armed\n")
    }

    @Test("ledger counts at finish; consume never goes below zero; owned exits 0 or 1")
    func ledger() {
        let h = CLIHarness("iapctl-ledger")
        h.ok(["buy", "com.x.coin42", "--quantity", "3"])
        h.ok(["buy", "com.x.noads"])
        #expect(h.ok(["ledger"]) == "the ledger is empty: nothing delivered yet (transactions count when finished)\n")
        #expect(h.run(["owned", "com.x.noads"]).code == 1)
        h.ok(["finish", "--all"])
        #expect(
            h.ok(["ledger"]) == """
                PRODUCT       TYPE           PURCHASES  BALANCE  OWNED
                com.x.coin42  consumable     1          3        yes
                com.x.noads   nonConsumable  1          -        yes

                """)
        #expect(h.ok(["owned", "com.x.noads"]) == "com.x.noads: owned (1 delivered)\n")
        #expect(h.ok(["consume", "com.x.coin42", "--count", "2"]) == "consumed 2 of com.x.coin42; balance 1\n")
        h.expectRefused(
            ["consume", "com.x.coin42", "--count", "2"], code: 4,
            "cannot consume 2 of 'com.x.coin42': its balance is 1 (see 'iapctl ledger')")
        h.expectRefused(
            ["consume", "com.x.noads"], code: 4,
            "cannot consume 'com.x.noads': it is nonConsumable; only consumables are consumed")
        h.expectRefused(
            ["consume", "com.x.coin"], code: 3,
            "unknown product 'com.x.coin'; closest known: com.x.coin42, com.x.coin210, com.x.coin686 (see 'iapctl products')")
        h.expectRefused(
            ["consume", "com.x.coin42", "--count", "0"], code: 64, "'--count' expects an integer from 1 to 1000000, got '0'")
        let json = h.run(["consume", "com.x.coin42", "--json"]).json
        #expect(json?["balance"]?.int64Value == 0 && json?["owned"]?.boolValue == false && json?["purchases"]?.int64Value == 1)
        let notOwned = h.run(["owned", "com.x.coin42"])
        #expect(notOwned.code == 1 && notOwned.stdout == "com.x.coin42: not owned (balance 0)\n")
        h.expectRefused(
            ["owned", "com.x.nope"], code: 3,
            "unknown product 'com.x.nope'; closest known: com.x.noads, com.x.vip1, com.x.vip2 (see 'iapctl products')")
        #expect(h.eventNames().filter { $0 == "productConsumed" }.count == 2)
    }
}
