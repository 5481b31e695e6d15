/// Self-hosted content of one purchased or restored transaction: what RMStore's
/// `contentDownloader` fetches for the app (`downloadContentForTransaction:success:progress:failure:`).
///
/// The store creates it `waiting` when the transaction is delivered; the CLI runs the `downloader`
/// setting's command and reports what it printed and how it ended, as `recordContentDownload`
/// commands. It is kept while its transaction is unfinished.
public struct ContentDownload: Hashable, Sendable, Codable {
    public let transactionID: TransactionID
    public let productID: ProductID
    /// waiting, active, finished or failed (self-hosted content is never paused or cancelled by
    /// StoreKit; a finish before it ended cancels it).
    public var state: DownloadState
    /// Progress in ten-thousandths, so the state never holds a floating-point value.
    public var progressBasisPoints: Int
    public var error: TransactionError?

    public init(
        transactionID: TransactionID, productID: ProductID, state: DownloadState = .waiting, progressBasisPoints: Int = 0,
        error: TransactionError? = nil
    ) {
        self.transactionID = transactionID
        self.productID = productID
        self.state = state
        self.progressBasisPoints = progressBasisPoints
        self.error = error
    }

    /// Progress from 0 to 1, as RMStore's progress block reports it.
    public var progress: Double { state == .finished ? 1 : Double(progressBasisPoints) / 10_000 }
}

/// What the downloader process did, as the CLI reports it to the machine.
public enum ContentDownloadStep: Hashable, Sendable {
    /// The downloader was started.
    case started
    /// It printed `progress 0.25`: 2500 basis points.
    case progress(basisPoints: Int)
    /// It exited with status 0.
    case finished
    /// It exited with another status, or could not be run.
    case failed(TransactionError)
}
