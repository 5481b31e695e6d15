import IAPKit
import IAPRuntime

/// `iapctl launch`: the app starts and attaches its observer; StoreKit redelivers the queue.
enum LaunchCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "launch",
            summary: "Simulate an app launch: redeliver every unfinished transaction",
            discussion:
                "Each unfinished transaction is delivered again as a transactionRedelivered event, as StoreKit does at every launch until the app finishes it. Self-hosted content still waiting, or interrupted while downloading, is fetched again with the 'downloader' setting's command (exit 1 when that fails).",
            examples: ["iapctl launch --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        var pipeline: [TransactionID] = []
        let code = try c.write { s throws(StoreError) in
            let effects = try s.apply(.launch)
            guard case .launch(let redelivered) = effects.outcome else { return ExitCode(effects.outcome) }
            if s.state.settings.autoFinish { pipeline = redelivered.filter(\.isDelivered).map(\.id) }
            if c.json {
                c.printTransactions(redelivered)
            } else {
                c.stdout.line(
                    "launched: \(redelivered.count) unfinished transaction\(redelivered.count == 1 ? "" : "s") redelivered")
                for t in redelivered { c.stdout.line("  " + TransactionText.line(t)) }
            }
            return ExitCode(effects.outcome)
        }
        // auto-finish: StoreKit redelivers, and RMStore runs its pipeline on each transaction again.
        if !pipeline.isEmpty { return try DeliveryPipeline.run(code, ids: pipeline, c) }
        let delivered = try SelfHostedDownloader.deliver(c, only: nil)
        return delivered ? code : .declined
    }
}
