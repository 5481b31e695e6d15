import IAPKit

/// What the delivery pipeline needs from whoever runs it (the CLI's command context): sessions
/// on the store it addresses, the environment the content downloader inherits, and a place for
/// its reports. The pipeline decides and commits; the host only renders (`DeliveryReport`).
public protocol DeliveryHost: AnyObject {
    /// Runs `body` in a writing session (one commit), as the command's other steps do.
    func write<R>(_ body: (StoreSession) throws(StoreError) -> R) throws(StoreError) -> R
    /// Runs `body` in a reading session.
    func read<R>(_ body: (StoreSession) throws(StoreError) -> R) throws(StoreError) -> R
    /// Variables added to the downloader's environment (the command's own environment).
    var environment: [String: String] { get }
    /// Lets other processes use the store until the next session: the downloader's command may
    /// call `iapctl` on the same store while it runs. A host that holds the store's lock across
    /// commands (`iapctl run`'s private store, `Store.holdsLock`) lets go of it and of its kept
    /// session here, so the child can take the lock and the next session sees what it wrote.
    func yieldStore()
    /// One step of the pipeline happened; called at the point it happened (inside the session
    /// of the step's commit when it has one), so the host's output keeps the steps' order.
    func report(_ report: DeliveryReport)
}

/// What a step of the delivery pipeline did, for the host to show.
public enum DeliveryReport {
    /// A step of RMStore's pipeline under `auto-finish` (verify, download, finish) was applied.
    case pipelineStep(Effects)
    /// Self-hosted content waits, and no `downloader` setting names a command to fetch it.
    case waitsForDownloader(TransactionID, ProductID)
    /// The content download was asked to start (`recordContentDownload .started`): its effects
    /// (a fault armed for it fires here).
    case contentStartApplied(TransactionID, Effects)
    /// The content download did not start (a fault, or it was not waiting): why.
    case contentNotStarted(TransactionID, reason: String)
    /// The downloader runs; `progress` from 0 to 1.
    case contentProgress(TransactionID, ProductID, progress: Double)
    /// The downloader ended and its end was recorded: nil `failure` is success.
    case contentEnded(TransactionID, failure: TransactionError?, Effects)
    /// After the commit that recorded it: the downloader failed, and why.
    case contentFailed(TransactionID, TransactionError)
    /// The content's end could not be recorded: another iapctl finished the transaction while
    /// its content was downloading.
    case contentNotRecorded(TransactionID, StoreError)
    /// The downloader printed a `progress` line that is not `progress X` with X from 0 to 1.
    case badProgressLine(TransactionID, line: String)
}

/// What runs after a command delivered transactions: RMStore's pipeline under `auto-finish`,
/// else the self-hosted content downloader.
public enum DeliveryFollowUp {
    /// Runs the downloader for the delivered (purchased or restored) transactions among
    /// `transactions`; a content download that fails turns a success into exit 1 ("download
    /// failed", SPEC section 5). `autoFinish` and `catalog` are the store's, as the command's
    /// session saw them, so nothing is reopened when there is nothing to deliver.
    public static func after(
        _ code: ExitCode, delivered transactions: [Transaction], autoFinish: Bool, catalog: Catalog?,
        _ host: some DeliveryHost
    ) throws -> ExitCode {
        let ids = transactions.filter(\.isDelivered).map(\.id)
        guard !ids.isEmpty else { return code }
        // auto-finish: RMStore's whole pipeline instead (it runs the content downloader itself).
        if autoFinish { return try DeliveryPipeline.run(code, ids: ids, host) }
        // Only self-hosted products have content to deliver; skip reopening the store otherwise.
        if let catalog, !transactions.contains(where: { catalog[$0.productID]?.selfHosted == true }) {
            return code
        }
        let succeeded = try SelfHostedDownloader.deliver(host, only: ids)
        return succeeded || code != .success ? code : .declined
    }
}
