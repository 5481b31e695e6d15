import IAPKit
import IAPRuntime

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

    func yieldStore() { store.release() }

    func report(_ report: DeliveryReport) {
        let display = json ? nil : ProgressDisplay(console: stdout)
        switch report {
        case .pipelineStep(let effects):
            guard !json else { return }
            for e in effects.events {
                if case .download(.updated, _, _, _) = e.kind { continue }
                if let line = VerifiedFinish.line(e) ?? EventText.line(e) { stdout.line("auto-finish: " + line) }
            }
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
            for e in effects.events {
                switch e.kind {
                case .transactionFinished, .transactionDeliveryFailed: EventText.line(e).map { stdout.line($0) }
                default: break
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
}
