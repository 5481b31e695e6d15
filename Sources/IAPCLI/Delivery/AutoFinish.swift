import IAPKit

/// The `auto-finish` setting: RMStore's whole pipeline on every delivered purchase or restore
/// (RMStore.m `didPurchaseTransaction:` / `didRestoreTransaction:`), instead of leaving the
/// transaction in the queue for the app to finish:
///
/// 1. verify the store's receipt with the receipt verifier (`TransactionVerification`); a
///    rejected transaction is finished undelivered and reported failed, one whose verification
///    could not be completed (error 200) stays in the queue for the next launch;
/// 2. the content downloader for self-hosted content (`downloader` setting);
/// 3. Apple-hosted downloads: started, and copied into the store to the end;
/// 4. `finishTransaction`, which counts the delivery in the ledger (RMStore's
///    `persistTransaction:`) and posts `storePaymentTransactionFinished`.
///
/// Each step is its own commit, as each is a separate callback in RMStore, so a crash between
/// steps leaves the transaction in the queue and `launch` runs the pipeline again.
enum AutoFinish {
    static func run(_ code: ExitCode, ids: [TransactionID], _ c: CommandContext) throws -> ExitCode {
        var result = code
        var verified: [TransactionID] = []
        try c.write { s throws(StoreError) in
            for id in ids {
                guard let t = s.state.queued(id), t.isDelivered else { continue }
                let (effects, outcome) = try VerifiedFinish.verifyAndFinish(id, s, thenFinish: false)
                report(effects, c)
                if outcome == .success && s.state.queued(id) != nil { verified.append(id) } else { result = .declined }
            }
        }
        guard !verified.isEmpty else { return result }
        if try !SelfHostedDownloader.deliver(c, only: verified) { result = .declined }
        try c.write { s throws(StoreError) in
            for id in verified {
                guard let t = s.state.queued(id) else { continue }
                if try !download(t, s, c) { result = .declined }
                guard s.state.queued(id) != nil else { continue }
                let effects = try s.apply(.finish([id]))
                report(effects, c)
                if ExitCode(effects.outcome) == .declined { result = .declined }
            }
        }
        return result
    }

    /// Starts the transaction's waiting downloads and copies every active one to the end, each
    /// in one step; false when one failed (an armed download fault).
    static func download(_ t: Transaction, _ s: StoreSession, _ c: CommandContext) throws(StoreError) -> Bool {
        guard !t.downloads.isEmpty else { return true }
        if t.downloads.contains(where: { $0.state == .waiting }) {
            report(try s.apply(.download(.start, t.id, content: nil)), c)
        }
        guard let current = s.state.queued(t.id) else { return true }
        var succeeded = true
        for d in current.downloads where d.state == .active {
            let copy = try s.contentCopy(transaction: current, download: d)
            try copy.write(from: d.downloadedBytes, to: d.contentLength)
            report(try s.apply(.recordDownloadProgress(t.id, content: d.contentIdentifier, downloadedBytes: d.contentLength)), c)
            let now = s.state.queued(t.id)?.downloads.first { $0.contentIdentifier == d.contentIdentifier }
            switch now?.state {
            case .finished?: try copy.verify()
            case .failed?:
                // The session removed the partial copy (StoreEffect.removeDownloadCopy).
                succeeded = false
            default: break
            }
        }
        return succeeded
    }

    /// The pipeline's events as text lines (nothing with --json: the command printed its document).
    static func report(_ effects: Effects, _ c: CommandContext) {
        guard !c.json else { return }
        for e in effects.events {
            if case .download(.updated, _, _, _) = e.kind { continue }
            if let line = VerifiedFinish.line(e) ?? EventText.line(e) { c.stdout.line("auto-finish: " + line) }
        }
    }
}
