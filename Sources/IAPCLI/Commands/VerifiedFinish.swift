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
                lines += Self.lines(effects)
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

    /// What one verification (or, for a transaction that is not verified, the plain finish)
    /// came to: the faults that fired, the verdict, and the finish that followed.
    static func lines(_ effects: Effects) -> [String] {
        var lines = EventText.faultLines(effects)
        switch effects.outcome {
        case .transactionVerification(.verified(let r, let finish)):
            lines.append(verifiedLine(r))
            lines += EventText.lines(finish)
        case .transactionVerification(.failed(_, let t, let error, _)):
            lines.append(ReceiptEventText.line(.transactionVerificationFailed(t, error)))
        case .transactionVerification(.notVerified(let finish)), .finish(let finish):
            lines += EventText.lines(finish)
        case .done, .payment, .declined, .promoted, .resolved, .storedPaymentsAccepted, .restore, .launch,
            .receiptRefresh, .receiptVerification, .faultAdded, .faultsCleared, .life, .family, .consumed,
            .productsRequest, .deleted, .subscriptionChanged, .clockMoved, .downloadsMoved, .downloadProgressed, .apiFailed:
            // Not what a verification or a finish comes to.
            break
        }
        return lines
    }

    /// RMStore's verifier accepted the transaction.
    static func verifiedLine(_ r: ReceiptVerificationRecord) -> String {
        "verified  \(r.transactionID.map(\.description) ?? "")  \(r.productID.map(\.rawValue) ?? "")  (the receipt holds the product)"
    }
}
