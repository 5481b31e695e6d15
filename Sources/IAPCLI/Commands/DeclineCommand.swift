import IAPKit

/// `iapctl decline TXID`: Ask to Buy, declined.
enum DeclineCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "decline",
            summary: "Decline a deferred (Ask to Buy) transaction: it fails",
            discussion: """
                The parent declined the request (Xcode's declineAskToBuyTransaction): the deferred transaction \
                becomes failed with --error (default SKError paymentCancelled, which DYFStoreKit reports as \
                Cancelled) and stays in the queue until finished. Exit 0 when declined; only deferred \
                transactions can be declined (exit 4 otherwise); an unknown id exits 3.
                """,
            arguments: [ArgumentSpec("TXID", help: "The deferred transaction")],
            options: [.value("error", "error", help: "The failure: \(TransactionError.specHelp) (default: paymentCancelled)")],
            examples: ["iapctl decline 2000000000000001", "iapctl decline 2000000000000001 --error unknown --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try TransactionArgument.id(i.positional("TXID"), in: i)
        var error = TransactionError(.paymentCancelled)
        if let text = i.value("error") {
            guard let parsed = TransactionError(spec: text) else { throw i.usageError(TransactionError.specProblem(text)) }
            error = parsed
        }
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.decline(id, error: error))
            guard case .declined(let t) = effects.outcome else { return ExitCode(effects.outcome) }
            if c.json {
                c.printJSON { TransactionJSON.write(t, into: &$0) }
            } else {
                c.stdout.line(TransactionText.line(t))
            }
            return ExitCode(effects.outcome)
        }
    }
}
