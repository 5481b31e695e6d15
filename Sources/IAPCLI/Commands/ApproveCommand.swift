import IAPKit

/// `iapctl approve TXID`: Ask to Buy, approved.
enum ApproveCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "approve",
            summary: "Approve a deferred (Ask to Buy) transaction: it becomes purchased",
            discussion: """
                The parent approved the request (Xcode's approveAskToBuyTransaction): the deferred transaction \
                becomes purchased, dated now, and the user is charged. Only deferred transactions can be approved \
                (exit 4 otherwise, also for finished ones); an unknown id exits 3.
                """,
            arguments: [ArgumentSpec("TXID", help: "The deferred transaction")],
            examples: ["iapctl config set ask-to-buy true && iapctl buy com.x.noads", "iapctl approve 2000000000000001"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let id = try TransactionArgument.id(c.invocation.positional("TXID"), in: c.invocation)
        let delivery = try c.write { s throws(StoreError) -> Delivery in
            let effects = try s.apply(.approve(id))
            guard case .payment(let payment) = effects.outcome else { return Delivery(ExitCode(effects.outcome), []) }
            let t = payment.transaction
            if c.json {
                c.printJSON { TransactionJSON.write(t, into: &$0) }
            } else {
                c.stdout.line(TransactionText.line(t))
            }
            return Delivery(ExitCode(effects.outcome), [t])
        }
        return try c.afterDelivery(delivery)
    }
}
