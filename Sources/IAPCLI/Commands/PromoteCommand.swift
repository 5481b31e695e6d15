import IAPKit

/// `iapctl promote ID`: the App Store starts a purchase of a promoted product.
enum PromoteCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "promote",
            summary: "Simulate a purchase started from the App Store (a promoted in-app purchase)",
            discussion: """
                StoreKit asks the app paymentQueue(_:shouldAddStorePayment:for:). The answer is the store-payments \
                setting: accept (StoreKit's default) adds the payment to the queue now, like buy; defer keeps it \
                as a stored payment (RMStore's fork) until 'iapctl accept-stored'; decline drops it and the app \
                buys the product itself (DYFStoreKit), unless payments are not allowed. Events: \
                storePaymentAccepted, storePaymentDeferred or storePaymentDeclined, then the transaction's. Exit as \
                buy for the resulting transaction; 5 when the payment was stored; 1 when it was dropped.
                """,
            arguments: [ArgumentSpec("ID", help: "The product identifier")],
            options: [
                .value("user", "id", help: "The payment's applicationUsername"),
                .value("account", "name", help: "An account name; the user id becomes its SHA-256 (DYFStoreKit)"),
            ],
            exclusive: [["user", "account"]],
            examples: [
                "iapctl promote com.x.noads", "iapctl config set store-payments defer && iapctl promote com.x.vip2 --json",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = ProductID(i.positional("ID") ?? "")
        guard !id.rawValue.isEmpty else { throw i.usageError("empty product identifier; give one such as com.x.noads") }
        let user = try UserArgument.user(from: i)
        let delivery = try c.write { s throws(StoreError) -> Delivery in
            let effects = try s.apply(.promote(id, user: user))
            guard case .promoted(let decision, let payment, let then, let family) = effects.outcome else {
                return Delivery(ExitCode(effects.outcome), [])
            }
            let t = then?.transaction
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("decision")
                    w.string(decision.rawValue)
                    w.key("storePayment")
                    StoredPaymentJSON.write(payment, into: &w)
                    w.key("transaction")
                    if let t { TransactionJSON.write(t, into: &w) } else { w.null() }
                    w.endObject()
                }
            } else {
                c.stdout.line(EventText.storePayment(decision, payment))
                for line in EventText.faultLines(effects) { c.stdout.line(line) }
                for change in family { c.stdout.line(EventText.family(change)) }
                if let t { c.stdout.line(TransactionText.line(t)) }
                if decision == .declined && t == nil { c.stdout.line("payments are not allowed: the app did not buy it") }
            }
            return Delivery(ExitCode(effects.outcome), t.map { [$0] } ?? [])
        }
        return try c.afterDelivery(delivery)
    }
}
