import IAPKit

/// `iapctl show TXID`: one transaction, finished or not.
enum ShowCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "show",
            summary: "Show one transaction",
            arguments: [ArgumentSpec("TXID", help: "The transaction identifier")],
            examples: ["iapctl show 2000000000000001 --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let id = try TransactionArgument.id(c.invocation.positional("TXID"), in: c.invocation)
        return try c.read { s throws(StoreError) in
            guard let t = try s.transaction(id) else { throw .unknownTransaction(id) }
            if c.json {
                let record = s.state.serverAPIRecords?[id]
                let request = s.state.refundRequests?[id]
                c.printJSON { TransactionJSON.write(t, serverAPI: record, refundRequest: request, into: &$0) }
            } else {
                c.stdout.line(TransactionText.line(t))
                if let q = s.state.refundRequests?[id] {
                    c.stdout.line(LifeText.refundLine(t, q, consumption: s.state.serverAPIRecords?[id]?.consumption.count ?? 0))
                }
            }
            return .success
        }
    }
}
