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
                --all finishes every purchased, failed and restored transaction in the queue. Finishing a \
                transaction whose downloads have not ended cancels them, as StoreKit does, with a warning. With \
                'iapctl config set finish-after-downloads true' (RMStore) the finish waits instead (exit 5, \
                transactionFinishPostponed) and happens when the last download ends; a cancelled download then \
                reports the transaction failed with error 300 (exit 1 here when it happens now). A delivered \
                purchased or restored transaction counts in the ledger ('iapctl ledger'). With --verify, each \
                purchased or restored transaction is first verified against the store's receipt (RMStore's app \
                receipt verifier, see 'iapctl help verify'), one at a time: verified, it is finished; rejected, \
                it is finished without delivery and reported failed (transactionVerificationFailed, exit 1); if \
                verification could not be completed (error 200, e.g. 'iapctl fault add verification 200'), it \
                stays in the queue and comes back at the next 'iapctl launch' (exit 1).
                """,
            arguments: [ArgumentSpec("TXID", help: "Transaction identifiers", optional: true, variadic: true)],
            options: [
                .flag("all", help: "Finish every finishable transaction in the queue"),
                .flag("verify", help: "Verify each transaction's receipt first, with RMStore's rules"),
            ],
            exclusive: [["TXID", "all"]],
            requiresOneOf: [["TXID", "all"]],
            examples: ["iapctl finish 2000000000000001", "iapctl finish --all --json", "iapctl finish --verify 2000000000000001"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let ids = try TransactionArgument.ids(i.positionals("TXID"), in: i)
        if i.flag("verify") { return try VerifiedFinish.run(c, ids: i.flag("all") ? nil : ids) }
        let command: Command = i.flag("all") ? .finishAll : .finish(ids)
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(command)
            let finish = effects.finish
            warnAboutCancelledDownloads(finish, c)
            if c.json {
                c.printTransactions(finish.finished)
            } else if finish.steps.isEmpty {
                c.stdout.line("nothing to finish")
            } else {
                for line in EventText.lines(finish) { c.stdout.line(line) }
            }
            return ExitCode(effects.outcome)
        }
    }
}

extension FinishCommand {
    /// StoreKit cancels the downloads of a transaction finished before they ended: say so.
    static func warnAboutCancelledDownloads(_ finish: Finish, _ c: CommandContext) {
        for cancelled in finish.cancelledDownloads {
            let id = cancelled.transaction
            let names = cancelled.contents.map(\.name)
            c.warn(
                "finishing transaction \(id) cancelled downloads that had not ended: \(names.joined(separator: ", ")) (StoreKit); "
                    + "run 'iapctl download run \(id)' before finishing, "
                    + "or 'iapctl config set finish-after-downloads true' to wait for them")
        }
    }
}

/// Parsing transaction ids given on the command line.
enum TransactionArgument {
    /// The ids, in order; an id given twice is refused rather than merged, since it is usually
    /// a copy-paste slip that hides the id that was meant.
    static func ids(_ words: [String], in i: ParsedInvocation) throws -> [TransactionID] {
        var seen: Set<TransactionID> = []
        return try words.map { word in
            guard let id = TransactionID(parsing: word) else {
                throw i.usageError("bad transaction id '\(word)'; ids are decimal numbers such as 2000000000000001")
            }
            guard seen.insert(id).inserted else {
                throw i.usageError("transaction \(id) given twice; give each id once")
            }
            return id
        }
    }

    static func id(_ word: String?, in i: ParsedInvocation) throws -> TransactionID {
        try ids([word ?? ""], in: i)[0]
    }
}
