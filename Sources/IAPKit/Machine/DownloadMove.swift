/// A move a person (or the app) asks of a download: `SKPaymentQueue.start/pause/resume/cancel`
/// (REFERENCE section 2).
///
/// start: waiting -> active; pause: active -> paused; resume: paused -> active; cancel: any
/// non-terminal state -> cancelled. Any other move is refused (exit 4).
public enum DownloadMove: String, CaseIterable, Sendable, Hashable {
    case start, pause, resume, cancel

    /// Whether the move applies to a download in `state`.
    public func applies(to state: DownloadState) -> Bool {
        switch self {
        case .start: return state == .waiting
        case .pause: return state == .active
        case .resume: return state == .paused
        case .cancel: return !state.isTerminal
        }
    }

    public var target: DownloadPhase {
        switch self {
        case .start, .resume: return .active
        case .pause: return .paused
        case .cancel: return .cancelled
        }
    }

    public var change: DownloadChange {
        switch self {
        case .start: return .started
        case .pause: return .paused
        case .resume: return .resumed
        case .cancel: return .cancelled
        }
    }

    /// The states the move starts from, for messages.
    public var from: String {
        switch self {
        case .start: return "waiting"
        case .pause: return "active"
        case .resume: return "paused"
        case .cancel: return "waiting, active or paused"
        }
    }
}

/// How a download changed; download events are named after it (`downloadStarted`, and
/// `contentDownloadStarted` for self-hosted content).
public enum DownloadChange: String, Sendable, Hashable, CaseIterable {
    case started, paused, resumed
    /// A progress step.
    case updated
    case finished, failed, cancelled

    var capitalized: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
