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
/// steps leaves the transaction in the queue and `launch` runs the pipeline again. Every change
/// goes through `StoreSession.apply`; the copies of Apple-hosted content are written through
/// the session's `contentCopy`, and a failed one is removed by the session's effect interpreter
/// (`StoreEffect.removeDownloadCopy`) inside the commit that records the failure.
public enum DeliveryPipeline {
    public static func run(_ code: ExitCode, ids: [TransactionID], _ host: some DeliveryHost) throws -> ExitCode {
        var result = code
        var verified: [TransactionID] = []
        try host.write { s throws(StoreError) in
            for id in ids {
                guard let t = s.state.queued(id), t.isDelivered else { continue }
                let (effects, outcome) = try verifyAndFinish(id, s, thenFinish: false)
                host.report(.pipelineStep(effects))
                if outcome == .success && s.state.queued(id) != nil { verified.append(id) } else { result = .declined }
            }
        }
        guard !verified.isEmpty else { return result }
        if try !SelfHostedDownloader.deliver(host, only: verified) { result = .declined }
        try host.write { s throws(StoreError) in
            for id in verified {
                guard let t = s.state.queued(id) else { continue }
                if try !download(t, s, host) { result = .declined }
                guard s.state.queued(id) != nil else { continue }
                let effects = try s.apply(.finish([id]))
                host.report(.pipelineStep(effects))
                if ExitCode(effects.outcome) == .declined { result = .declined }
            }
        }
        return result
    }

    /// Verifies one transaction (purchased or restored; a failed one is only finished, as RMStore
    /// finishes failed transactions without verifying) and applies the verdict.
    public static func verifyAndFinish(_ id: TransactionID, _ s: StoreSession, thenFinish: Bool) throws(StoreError) -> (
        Effects, ExitCode
    ) {
        guard let t = s.state.queued(id), t.isDelivered else {
            // Unknown, finished, purchasing, deferred or failed: the plain finish says what is wrong or does it.
            let effects = try s.apply(.finish([id]))
            return (effects, .success)
        }
        let verdict = try TransactionVerification.verdict(for: t, session: s)
        let effects = try s.apply(.receipt(.verifyTransaction(id, failure: verdict, thenFinish: thenFinish)))
        return (effects, ExitCode(effects.outcome))
    }

    /// Starts the transaction's waiting downloads and copies every active one to the end, each
    /// in one step; false when one failed (an armed download fault).
    static func download(_ t: Transaction, _ s: StoreSession, _ host: some DeliveryHost) throws(StoreError) -> Bool {
        guard !t.downloads.isEmpty else { return true }
        if t.downloads.contains(where: { $0.state == .waiting }) {
            host.report(.pipelineStep(try s.apply(.download(.start, t.id, content: nil))))
        }
        guard let current = s.state.queued(t.id) else { return true }
        var succeeded = true
        for d in current.downloads where d.state == .active {
            let copy = try s.contentCopy(transaction: current, download: d)
            try copy.write(from: d.downloadedBytes, to: d.contentLength)
            host.report(
                .pipelineStep(
                    try s.apply(
                        .recordDownloadProgress(t.id, content: d.contentIdentifier, downloadedBytes: d.contentLength))))
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
}
