/// The process exit codes of `iapctl` (SPEC section 5), in one place. Errors in IAPKit map to
/// one of these so the CLI never invents a code.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Done as asked.
    case success = 0
    /// The simulated store said no: payment failed or cancelled, verification failed, download
    /// failed, payments not allowed.
    case declined = 1
    /// Unknown product, transaction, download.
    case notFound = 3
    /// Not allowed in this state (finishing a purchasing, deferred or finished transaction).
    case notAllowed = 4
    /// The request is not complete yet (a deferred purchase).
    case pending = 5
    /// Unknown command or option, missing or malformed argument (EX_USAGE).
    case usage = 64
    /// Malformed catalog, receipt, or a store file that fails its checks (EX_DATAERR).
    case badData = 65
    /// A named input file does not exist or cannot be read (EX_NOINPUT).
    case noInput = 66
    /// A service cannot start: the port is in use or not permitted (EX_UNAVAILABLE).
    case unavailable = 69
    /// An output file the user named cannot be created or written (EX_CANTCREAT).
    case cannotCreate = 73
    /// I/O error writing the store (EX_IOERR).
    case ioError = 74
    /// The store is busy: the lock was not acquired within the timeout (EX_TEMPFAIL).
    case busy = 75

    public var meaning: String {
        switch self {
        case .success: return "done as asked"
        case .declined:
            return
                "the simulated store said no: payment failed or cancelled, verification failed, download failed, payments not allowed"
        case .notFound: return "not found: unknown product, transaction, download"
        case .notAllowed:
            return "not allowed in this state: finishing a purchasing/deferred/finished transaction, approving a non-deferred one"
        case .pending: return "pending: the request is not complete yet (a deferred purchase)"
        case .usage: return "usage: unknown command or option, missing or malformed argument"
        case .badData: return "bad data: malformed catalog, receipt, or a store file that fails its checks"
        case .noInput: return "a named input file does not exist or cannot be read"
        case .unavailable: return "a service cannot start: the port is in use or not permitted"
        case .cannotCreate: return "an output file the user named cannot be created or written"
        case .ioError: return "I/O error writing the store"
        case .busy: return "the store is busy (lock not acquired within the timeout)"
        }
    }
}
