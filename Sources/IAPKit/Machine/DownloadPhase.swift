/// Where a download (hosted or self-hosted) is in its lifecycle. A failed download carries its
/// error, so there is no error without a failure and no failure without an error: StoreKit's
/// `SKDownload.error` is set exactly when `state` is `.failed` (REFERENCE section 2).
public enum DownloadPhase: Hashable, Sendable {
    case waiting, active, paused, finished
    case failed(TransactionError)
    case cancelled

    /// The phase of a download in `state`: nil for `.failed`, which needs its error.
    public init?(_ state: DownloadState) {
        switch state {
        case .waiting: self = .waiting
        case .active: self = .active
        case .paused: self = .paused
        case .finished: self = .finished
        case .failed: return nil
        case .cancelled: self = .cancelled
        }
    }

    /// The phase records and format-1 state files describe as a state and an optional error. A
    /// failure recorded without an error reads as `unknown`, what RMStore reports for it.
    init(_ state: DownloadState, error: TransactionError?) {
        self = DownloadPhase(state) ?? .failed(error ?? TransactionError(.unknown))
    }

    /// The `SKDownloadState` this phase is.
    public var state: DownloadState {
        switch self {
        case .waiting: return .waiting
        case .active: return .active
        case .paused: return .paused
        case .finished: return .finished
        case .failed: return .failed
        case .cancelled: return .cancelled
        }
    }

    /// The error of a failed download; nil in every other phase.
    public var error: TransactionError? {
        switch self {
        case .failed(let error): return error
        case .waiting, .active, .paused, .finished, .cancelled: return nil
        }
    }
}
