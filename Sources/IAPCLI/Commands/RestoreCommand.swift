import IAPKit

/// `iapctl restore`: `restoreCompletedTransactions`.
enum RestoreCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "restore",
            summary: "Restore completed transactions (non-consumables, auto-renewables)",
            discussion: """
                Each owned product gets a new transaction in state restored, with a new id and the original \
                purchase's id and date. Consumables and non-renewing subscriptions are never restored. \
                --user is the applicationUsername passed along (StoreKit does not filter by it).
                """,
            options: [
                .value("user", "id", help: "applicationUsername for the restore request"),
                .value("account", "name", help: "An account name; the user id becomes its SHA-256"),
            ],
            exclusive: [["user", "account"]],
            examples: ["iapctl restore", "iapctl restore --account 'Handsome Jon' --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let user = try UserArgument.user(from: c.invocation)
        let delivery = try c.write { s throws(StoreError) -> Delivery in
            let effects = try s.apply(.restore(user: user))
            // Only the restored transactions: renewals that fell due before the restore are not.
            guard case .restore(let restored, let failure) = effects.outcome else {
                return Delivery(ExitCode(effects.outcome), [])
            }
            if c.json {
                c.printTransactions(restored)
            } else {
                for line in EventText.faultLines(effects) { c.stdout.line(line) }
                for t in restored { c.stdout.line(TransactionText.line(t)) }
                if let failure {
                    c.stdout.line("restore failed: \(failure)")
                } else {
                    c.stdout.line("restore finished: \(restored.count) transaction\(restored.count == 1 ? "" : "s") restored")
                }
            }
            return Delivery(ExitCode(effects.outcome), restored)
        }
        return try c.afterDelivery(delivery)
    }
}
