import IAPKit

/// `iapctl downloads [TXID]`: the downloads of unfinished transactions, or of one transaction.
enum DownloadsCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "downloads",
            summary: "List downloads: hosted content (state, progress, bytes, version) and self-hosted content",
            discussion: """
                Purchased and restored transactions of products with hosted content carry one download per \
                content, waiting until started (REFERENCE section 2: waiting, active, paused, finished, failed, \
                cancelled). Products marked selfHosted get one self-hosted row, fetched by the 'downloader' \
                setting's command. Without TXID: every download of the unfinished transactions. With TXID: that \
                transaction's, finished or not. Progress goes from 0 to 1 (DYFStoreKit shows it x100). A \
                finished download's files are in <store>/content/<TXID>/<CONTENT>/ (contentPath in JSON, \
                relative to the store).
                """,
            arguments: [ArgumentSpec("TXID", help: "Only this transaction's downloads", optional: true)],
            examples: ["iapctl downloads", "iapctl downloads 2000000000000001 --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try i.positional("TXID").map { try TransactionArgument.id($0, in: i) }
        return try c.read { s throws(StoreError) in
            var rows: [DownloadRow] = []
            if let id {
                guard let t = try s.transaction(id) else { throw .unknownTransaction(id) }
                rows = DownloadRow.rows(of: t, content: s.machine.contentDownload(of: id))
                if c.json {
                    DownloadRow.printJSON(rows, c)
                } else if rows.isEmpty {
                    c.stdout.line("transaction \(id) (\(t.productID), \(t.state.name)) has no downloads")
                } else {
                    c.stdout.write(DownloadRow.table(rows))
                }
                return .success
            }
            let content = s.state.contentDownloads
            for t in try s.queuedTransactions() {
                let record = content.first { $0.transactionID == t.id }
                rows += DownloadRow.rows(of: t, content: record)
            }
            if c.json {
                DownloadRow.printJSON(rows, c)
            } else if rows.isEmpty {
                c.stdout.line("no downloads: no unfinished transaction has hosted or self-hosted content")
            } else {
                c.stdout.write(DownloadRow.table(rows))
            }
            return .success
        }
    }
}
