import IAPKit

/// `iapctl queue`: the payment queue, oldest first.
enum QueueCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "queue",
            summary: "List unfinished transactions (the payment queue), oldest first",
            discussion: "Transactions stay here until finished, failed ones included, as in StoreKit.",
            examples: ["iapctl queue --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        try c.read { s throws(StoreError) in
            let queue = try s.queuedTransactions()
            if c.json {
                c.printTransactions(queue)
            } else if queue.isEmpty {
                c.stdout.line("the queue is empty")
            } else {
                c.stdout.write(TransactionText.table(Array(queue)))
            }
            return .success
        }
    }
}
