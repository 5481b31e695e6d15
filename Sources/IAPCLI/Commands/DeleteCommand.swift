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
            guard let t = effects.transactions.first(where: { $0.id == id }) else { return .success }
            if c.json {
                c.printJSON { TransactionJSON.write(t, into: &$0) }
            } else {
                c.stdout.line("deleted: " + TransactionText.line(t))
                // The family members' copies of it went too (docs/family.md).
                for e in effects.events {
                    guard case .family = e.kind, let line = EventText.line(e) else { continue }
                    c.stdout.line(line)
                }
            }
            return .success
        }
    }
}
