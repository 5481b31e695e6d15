import IAPKit

/// `iapctl resolve ID`: the user resolved what was waiting outside the app.
enum ResolveCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "resolve",
            summary: "Resolve an interrupted purchase: a new purchased transaction completes it",
            discussion: """
                With interrupted-purchases on, buy fails (SKError paymentCancelled) until the user acts outside \
                the app (new terms, a payment method). resolve ID, the failed transaction's id, is that action: \
                a new transaction arrives purchased (interruptedPurchaseResolved, transactionPurchased) and the \
                failed one stays as it was, finished or not. Exit 4 when ID has nothing to resolve (or was \
                resolved already), 3 when it is unknown.
                """,
            arguments: [ArgumentSpec("ID", help: "The interrupted (failed) transaction's identifier")],
            examples: [
                "iapctl config set interrupted-purchases true && iapctl buy com.x.noads",
                "iapctl resolve 2000000000000001 --json",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let word = i.positional("ID") ?? ""
        guard let id = TransactionID(parsing: word) else {
            throw i.usageError("bad id '\(word)'; give the interrupted transaction's identifier, such as 2000000000000001")
        }
        let (code, delivered) = try c.write { s throws(StoreError) -> (ExitCode, [Transaction]) in
            let effects = try s.apply(.resolve(id))
            guard let t = effects.transactions.last else { return (.success, []) }
            if c.json {
                c.printJSON { TransactionJSON.write(t, into: &$0) }
            } else {
                for e in effects.events { EventText.line(e).map { c.stdout.line($0) } }
                c.stdout.line(TransactionText.line(t))
            }
            return (ExitCode(for: t), [t])
        }
        return try DeliveryFollowUp.after(code, delivered: delivered, c)
    }
}
