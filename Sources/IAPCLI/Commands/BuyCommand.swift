import IAPKit

/// `iapctl buy ID`: add a payment to the queue and let the store process it.
enum BuyCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "buy",
            summary: "Buy a product: purchasing, then purchased (or failed, deferred)",
            discussion: """
                The transaction stays in the queue until finished. Exit 0 when purchased, 1 when it \
                failed (payments not allowed, an injected fault, fail-transactions, interrupted-purchases), 5 \
                when deferred (Ask to Buy). Buying a non-consumable the account owns succeeds without a new \
                charge, pointing at the first purchase. A purchased product with hosted content carries waiting \
                downloads ('iapctl downloads'); a self-hosted one runs the 'downloader' setting's command, and \
                exits 1 if it fails.
                """,
            arguments: [ArgumentSpec("ID", help: "The product identifier")],
            options: [
                .value("user", "id", help: "The payment's applicationUsername (an opaque account id)"),
                .value("account", "name", help: "An account name; the user id becomes its SHA-256 (DYFStoreKit)"),
                .value(
                    "quantity", "n",
                    help: "How many, \(PurchaseQuantity.text); above 1 only for consumables (default: 1)"),
            ],
            exclusive: [["user", "account"]],
            examples: ["iapctl buy com.x.coin42 --quantity 3", "iapctl buy com.x.noads --account 'Handsome Jon'"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = ProductID(i.positional("ID") ?? "")
        guard !id.rawValue.isEmpty else { throw i.usageError("empty product identifier; give one such as com.x.coin42") }
        let user = try UserArgument.user(from: i)
        let quantity = try i.int("quantity", in: PurchaseQuantity.range) ?? 1
        let (code, delivered) = try c.write { s throws(StoreError) -> (ExitCode, [Transaction]) in
            let effects = try s.apply(.buy(id, user: user, quantity: quantity))
            guard case .payment(let payment) = effects.outcome else { return (ExitCode(effects.outcome), []) }
            let t = payment.transaction
            if c.json {
                c.printJSON { TransactionJSON.write(t, into: &$0) }
            } else {
                for line in EventText.faultLines(effects) { c.stdout.line(line) }
                c.stdout.line(TransactionText.line(t))
                if case .purchased = t.state, !s.state.settings.autoFinish {
                    c.stdout.line("deliver it, then run 'iapctl finish \(t.id)'")
                }
            }
            return (ExitCode(effects.outcome), [t])
        }
        return try DeliveryFollowUp.after(code, delivered: delivered, c)
    }
}

/// `--user ID` or `--account NAME` (hashed with SHA-256, as DYFStoreKit does).
enum UserArgument {
    static func user(from i: ParsedInvocation) throws -> UserID? {
        if let account = i.value("account") {
            guard !account.isEmpty else { throw i.usageError("empty --account; give the account name to hash") }
            return UserID.forAccount(account)
        }
        if let user = i.value("user") {
            guard !user.isEmpty, user.count <= 256, !user.contains("\n") else {
                throw i.usageError("bad --user '\(user)'; give a non-empty id of at most 256 characters on one line")
            }
            return UserID(user)
        }
        return nil
    }
}
