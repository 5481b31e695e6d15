/// Self-hosted content of one purchased or restored transaction: what RMStore's
/// `contentDownloader` fetches for the app (`downloadContentForTransaction:success:progress:failure:`).
///
/// The store creates it `waiting` when the transaction is delivered; the CLI runs the `downloader`
/// setting's command and reports what it printed and how it ended, as `recordContentDownload`
/// commands. It is kept while its transaction is unfinished.
public struct ContentDownload: Hashable, Sendable {
    public let transactionID: TransactionID
    public let productID: ProductID
    /// waiting, active, finished or failed with its error (self-hosted content is never paused or
    /// cancelled by StoreKit; a finish before it ended cancels it).
    public var phase: DownloadPhase
    /// Progress in ten-thousandths, so the state never holds a floating-point value.
    public var progressBasisPoints: Int

    public init(
        transactionID: TransactionID, productID: ProductID, phase: DownloadPhase = .waiting, progressBasisPoints: Int = 0
    ) {
        self.transactionID = transactionID
        self.productID = productID
        self.phase = phase
        self.progressBasisPoints = progressBasisPoints
    }

    public var state: DownloadState { phase.state }

    /// The error of failed content.
    public var error: TransactionError? { phase.error }

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

/// The format-1 state file (JSON) spelled self-hosted content as a state and an optional error;
/// these keys are kept so such a store still opens.
extension ContentDownload: Codable {
    private enum CodingKeys: String, CodingKey {
        case transactionID, productID, state, progressBasisPoints, error
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            transactionID: try c.decode(TransactionID.self, forKey: .transactionID),
            productID: try c.decode(ProductID.self, forKey: .productID),
            phase: DownloadPhase(
                try c.decode(DownloadState.self, forKey: .state),
                error: try c.decodeIfPresent(TransactionError.self, forKey: .error)),
            progressBasisPoints: try c.decode(Int.self, forKey: .progressBasisPoints))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transactionID, forKey: .transactionID)
        try c.encode(productID, forKey: .productID)
        try c.encode(state, forKey: .state)
        try c.encode(progressBasisPoints, forKey: .progressBasisPoints)
        try c.encodeIfPresent(error, forKey: .error)
    }
}
