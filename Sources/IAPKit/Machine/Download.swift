/// `SKDownloadState` (REFERENCE section 2). Finished, failed and cancelled are terminal.
public enum DownloadState: String, Hashable, Sendable, CaseIterable, Codable {
    case waiting, active, paused, finished, failed, cancelled

    public var rawCode: Int {
        switch self {
        case .waiting: return 0
        case .active: return 1
        case .paused: return 2
        case .finished: return 3
        case .failed: return 4
        case .cancelled: return 5
        }
    }

    public var isTerminal: Bool {
        switch self {
        case .finished, .failed, .cancelled: return true
        case .waiting, .active, .paused: return false
        }
    }
}

/// One Apple-hosted download of a transaction (`SKDownload`).
public struct Download: Hashable, Sendable, Codable {
    public let contentIdentifier: String
    public let contentVersion: String
    public var state: DownloadState
    public var downloadedBytes: Int64
    public let contentLength: Int64
    /// The error of a failed download.
    public var error: TransactionError?

    public init(
        contentIdentifier: String, contentVersion: String, state: DownloadState = .waiting, downloadedBytes: Int64 = 0,
        contentLength: Int64, error: TransactionError? = nil
    ) {
        self.contentIdentifier = contentIdentifier
        self.contentVersion = contentVersion
        self.state = state
        self.downloadedBytes = downloadedBytes
        self.contentLength = contentLength
        self.error = error
    }

    /// Progress from 0 to 1, as `SKDownload.progress` (RMStore); DYFStoreKit reports it x100.
    public var progress: Double {
        if state == .finished { return 1 }
        return contentLength == 0 ? 0 : Double(downloadedBytes) / Double(contentLength)
    }
}
