import IAPKit

/// `iapctl delete TXID --yes`: Xcode's deleteTransaction.
enum DeleteCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "delete",
            summary: "Delete a transaction from history, as if it never happened (needs --yes)",
            discussion: """
                The transaction leaves the queue and disappears from dump, show and restore. What it gave goes \
                with it: a non-consumable it bought is no longer owned; deleting a subscription's first or \
                current-period transaction removes the subscription. It cannot be undone, hence --yes.
                """,
            arguments: [ArgumentSpec("TXID", help: "The transaction to delete")],
            options: [.flag("yes", help: "Confirm: deleting cannot be undone")],
            examples: ["iapctl delete 2000000000000003 --yes"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try TransactionArgument.id(i.positional("TXID"), in: i)
        guard i.flag("yes") else {
            throw i.usageError("deleting transaction \(id) cannot be undone; add --yes to confirm")
        }
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.deleteTransaction(id))
            guard case .deleted(let t, let copies) = effects.outcome else { return ExitCode(effects.outcome) }
            if c.json {
                c.printJSON { TransactionJSON.write(t, into: &$0) }
            } else {
                c.stdout.line("deleted: " + TransactionText.line(t))
                // The family members' copies of it went too (docs/family.md).
                for copy in copies { c.stdout.line(EventText.family(.transactionDeleted(copy))) }
            }
            return ExitCode(effects.outcome)
        }
    }
}
