import IAPKit

/// `iapctl finish TXID... | --all`: `finishTransaction`.
enum FinishCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "finish",
            summary: "Finish transactions, removing them from the queue",
            discussion: """
                All or nothing: if one id cannot be finished nothing is. A purchasing or deferred \
                transaction cannot be finished, nor one already finished (exit 4); an unknown id exits 3. \
                --all finishes every purchased, failed and restored transaction in the queue.
                """,
            arguments: [ArgumentSpec("TXID", help: "Transaction identifiers", optional: true, variadic: true)],
            options: [.flag("all", help: "Finish every finishable transaction in the queue")],
            exclusive: [["TXID", "all"]],
            requiresOneOf: [["TXID", "all"]],
            examples: ["iapctl finish 2000000000000001", "iapctl finish --all --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let ids = try TransactionArgument.ids(i.positionals("TXID"), in: i)
        let command: Command = i.flag("all") ? .finishAll : .finish(ids)
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(command)
            let finished = effects.transactions
            if c.json {
                c.printTransactions(finished)
            } else if finished.isEmpty {
                c.stdout.line("nothing to finish")
            } else {
                for t in finished { c.stdout.line("finished  \(t.id)  \(t.productID)  (\(t.state.name))") }
            }
            return .success
        }
    }
}

/// Parsing transaction ids given on the command line.
enum TransactionArgument {
    static func ids(_ words: [String], in i: ParsedInvocation) throws -> [TransactionID] {
        try words.map { word in
            guard let id = TransactionID(parsing: word) else {
                throw i.usageError("bad transaction id '\(word)'; ids are decimal numbers such as 2000000000000001")
            }
            return id
        }
    }

    static func id(_ word: String?, in i: ParsedInvocation) throws -> TransactionID {
        try ids([word ?? ""], in: i)[0]
    }
}
