import IAPKit

/// `iapctl resolve ID`: the user resolved what was waiting outside the app.
enum ResolveCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "resolve",
            summary: "Resolve an interrupted purchase, or a subscription's billing issue",
            discussion: """
                Interrupted purchases: with interrupted-purchases on, buy fails (SKError paymentCancelled) \
                until the user acts outside the app (new terms, a payment method). resolve ID, the failed \
                transaction's id, is that action: a new transaction arrives purchased \
                (interruptedPurchaseResolved, transactionPurchased) and the failed one stays as it was. \
                Billing issues (Xcode's "Resolve Billing Issue"): for a subscription (its product id or original \
                transaction id) in its grace period or billing retry, the renewal is charged now (DID_RENEW, \
                BILLING_RECOVERY); in the grace period the renewal dates are kept, from billing retry a new \
                period starts now. Exit 4 when ID has nothing to resolve, 3 when it is unknown.
                """,
            arguments: [
                ArgumentSpec(
                    "ID", help: "An interrupted transaction's id, or a subscription's product id or original transaction id")
            ],
            examples: [
                "iapctl config set interrupted-purchases true && iapctl buy com.x.noads",
                "iapctl resolve 2000000000000001 --json",
                "iapctl resolve com.x.vip2",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let word = i.positional("ID") ?? ""
        // One command, two issues: an interrupted purchase is named by its failed transaction's
        // id; anything else is a subscription with a billing issue.
        guard let id = TransactionID(parsing: word) else { return try ResolveBillingCommand.runBilling(c) }
        let subscription = try c.read { s throws(StoreError) in
            s.state.subscriptions[id] != nil && !s.state.interruptedPurchases.contains { $0.transactionID == id }
        }
        if subscription { return try ResolveBillingCommand.runBilling(c) }
        let delivery = try c.write { s throws(StoreError) -> Delivery in
            let effects = try s.apply(.resolve(id))
            guard case .resolved(let original, let payment, let family) = effects.outcome else {
                return Delivery(ExitCode(effects.outcome), [])
            }
            let t = payment.transaction
            if c.json {
                c.printJSON { TransactionJSON.write(t, into: &$0) }
            } else {
                c.stdout.line(EventText.resolved(original, by: t.id))
                for change in family { c.stdout.line(EventText.family(change)) }
                c.stdout.line(TransactionText.line(t))
            }
            return Delivery(ExitCode(effects.outcome), [t])
        }
        return try c.afterDelivery(delivery)
    }
}
