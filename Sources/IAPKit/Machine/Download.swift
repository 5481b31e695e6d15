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
public struct Download: Hashable, Sendable {
    public let contentIdentifier: String
    public let contentVersion: String
    /// The lifecycle; a failed download carries its error.
    public var phase: DownloadPhase
    public var downloadedBytes: Int64
    public let contentLength: Int64

    public init(
        contentIdentifier: String, contentVersion: String, phase: DownloadPhase = .waiting, downloadedBytes: Int64 = 0,
        contentLength: Int64
    ) {
        self.contentIdentifier = contentIdentifier
        self.contentVersion = contentVersion
        self.phase = phase
        self.downloadedBytes = downloadedBytes
        self.contentLength = contentLength
    }

    public var state: DownloadState { phase.state }

    /// The error of a failed download.
    public var error: TransactionError? { phase.error }

    /// Progress from 0 to 1, as `SKDownload.progress` (RMStore); DYFStoreKit reports it x100.
    public var progress: Double {
        if state == .finished { return 1 }
        return contentLength == 0 ? 0 : Double(downloadedBytes) / Double(contentLength)
    }
}
