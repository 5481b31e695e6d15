import IAPKit
import IAPRuntime

/// `iapctl finish --verify TXID...`: RMStore's `didPurchaseTransaction:` with a receipt verifier,
/// for transactions the app delivers by hand. Each transaction is committed on its own (a
/// verification is a request to a verifier, not part of an all-or-nothing finish).
enum VerifiedFinish {
    static func run(_ c: CommandContext, ids: [TransactionID]?) throws -> ExitCode {
        try c.write { s throws(StoreError) in
            let queued = ids == nil ? try s.queuedTransactions() : []
            let targets = ids ?? queued.filter { $0.state.isFinishable }.map(\.id)
            var finished: [Transaction] = []
            var code = ExitCode.success
            var lines: [String] = []
            for id in targets {
                let (effects, outcome) = try DeliveryPipeline.verifyAndFinish(id, s, thenFinish: true)
                FinishCommand.warnAboutCancelledDownloads(effects.finish, c)
                finished += effects.finish.finished
                lines += effects.events.compactMap(line)
                if outcome != .success { code = outcome }
            }
            if c.json {
                c.printTransactions(finished)
            } else if lines.isEmpty {
                c.stdout.line("nothing to finish")
            } else {
                for l in lines { c.stdout.line(l) }
            }
            return code
        }
    }

    static func line(_ e: Event) -> String? {
        switch e.kind {
        case .receipt(.verified(let r)):
            return
                "verified  \(r.transactionID.map(\.description) ?? "")  \(r.productID.map(\.rawValue) ?? "")  (the receipt holds the product)"
        case .receipt(.transactionVerificationFailed), .faultFired, .transactionFinished, .transactionDeliveryFailed,
            .transactionFinishPostponed:
            return EventText.line(e)
        default:
            return nil
        }
    }
}
