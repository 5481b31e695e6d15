import IAPKit
import IAPRuntime

/// What a delivering command's session returns: its exit code and the transactions it delivered.
/// A struct, not a tuple: the session's result type is passed to `Store.write` as metadata, and
/// a tuple's is built at run time (issue 12).
struct Delivery {
    let code: ExitCode
    let transactions: [Transaction]

    init(_ code: ExitCode, _ transactions: [Transaction]) {
        self.code = code
        self.transactions = transactions
    }
}

/// A command's context hosts the delivery pipeline (IAPRuntime's `DeliveryFollowUp`,
/// `DeliveryPipeline`, `SelfHostedDownloader`): its sessions are the command's, and its reports
/// are rendered here as the command's text lines (with --json only errors and warnings: the
/// command printed its document).
extension CommandContext: DeliveryHost {
    /// RMStore's pipeline or the content downloader after a command delivered `transactions`,
    /// decided from the settings and catalog the command's session saw.
    func afterDelivery(_ code: ExitCode, delivered transactions: [Transaction]) throws -> ExitCode {
        try DeliveryFollowUp.after(code, delivered: transactions, autoFinish: lastAutoFinish, catalog: lastCatalog, self)
    }

    func afterDelivery(_ delivery: Delivery) throws -> ExitCode {
        try afterDelivery(delivery.code, delivered: delivery.transactions)
    }

    func yieldStore() { store.release() }

    func report(_ report: DeliveryReport) {
        let display = json ? nil : ProgressDisplay(console: stdout)
        switch report {
        case .pipelineStep(let effects):
            guard !json else { return }
            for line in Self.pipelineLines(effects) { stdout.line("auto-finish: " + line) }
        case .waitsForDownloader(let id, let product):
            guard !json else { return }
            stdout.line(
                "self-hosted content of \(id) (\(product)) waits for a downloader ('iapctl config set downloader COMMAND')")
        case .contentStartApplied(_, let effects):
            guard !json else { return }
            for line in EventText.faultLines(effects) { stdout.line(line) }
        case .contentNotStarted(let id, let reason):
            display?.end("content \(id)", "failed: \(reason)")
            stderr.message("error: self-hosted content of transaction \(id) failed: \(reason)")
        case .contentProgress(let id, let product, let progress):
            display?.step("content \(id)", progress: progress, detail: product.rawValue)
        case .contentEnded(let id, let failure, let effects):
            guard let display else { return }
            display.end("content \(id)", failure.map { "failed: \($0)" } ?? "finished")
            // The postponed finish the content's end settled.
            for step in effects.finish.steps {
                switch step {
                case .finished, .deliveryFailed: EventText.line(step).map { stdout.line($0) }
                case .postponed, .undelivered: break
                }
            }
        case .contentFailed(let id, let error):
            stderr.message("error: self-hosted content of transaction \(id) failed: \(error)")
        case .contentNotRecorded(let id, let error):
            warn("self-hosted content of \(id) was not recorded: \(error)")
        case .badProgressLine(let id, let line):
            warn(
                "downloader for transaction \(id) printed '\(line)'; expected 'progress' and a number from 0 to 1 (line ignored)")
        }
    }

    /// One step of the pipeline as its events read, from the step's outcome: a verification, a
    /// finish, downloads started, or a download's copy recorded (its progress is the display's,
    /// not a line).
    static func pipelineLines(_ effects: Effects) -> [String] {
        var lines = EventText.faultLines(effects)
        switch effects.outcome {
        case .transactionVerification(.verified(let r, let finish)):
            lines.append(VerifiedFinish.verifiedLine(r))
            lines += EventText.linesWithCancellations(finish)
        case .transactionVerification(.failed(let r, let t, let error, let finish)):
            lines.append(ReceiptEventText.line(.verificationFailed(r)))
            lines += EventText.cancellationLines(of: t, in: finish)
            lines.append(ReceiptEventText.line(.transactionVerificationFailed(t, error)))
        case .transactionVerification(.notVerified(let finish)), .finish(let finish):
            lines += EventText.linesWithCancellations(finish)
        case .downloadsMoved(let move, let id, let moved, let finish):
            lines += moved.map { EventText.download(move.change, of: id, $0) }
            lines += EventText.linesWithCancellations(finish)
        case .downloadProgressed(let id, let d, let finish):
            switch d.state {
            case .failed: lines.append(EventText.download(.failed, of: id, d))
            case .finished: lines.append(EventText.download(.finished, of: id, d))
            case .waiting, .active, .paused, .cancelled: break
            }
            lines += EventText.linesWithCancellations(finish)
        case .done, .payment, .declined, .promoted, .resolved, .storedPaymentsAccepted, .restore, .launch,
            .receiptRefresh, .receiptVerification, .faultAdded, .faultsCleared, .life, .family, .consumed,
            .productsRequest, .deleted, .subscriptionChanged, .clockMoved, .apiFailed:
            // Not a step the pipeline takes.
            break
        }
        return lines
    }
}
