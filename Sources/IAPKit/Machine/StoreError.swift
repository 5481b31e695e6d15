import IAPTime

/// Everything IAPKit refuses, with the value at fault and how to fix it. `description` is the one
/// line the CLI prints after `error: `; `exitCode` is the documented code.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A product id the catalog lacks, with the ids close to it (none when nothing is close).
    case unknownProduct(ProductID, closest: [ProductID])
    case productNotInStorefront(ProductID, storefront: String, available: [String])
    case unknownTransaction(TransactionID)
    case cannotFinish(TransactionID, state: String)
    case alreadyFinished(TransactionID)
    case quantityOutOfRange(Int)
    case quantityNotAllowed(ProductID, ProductType)
    case unknownSetting(String, suggestion: String?)
    case badSettingValue(key: String, value: String, expected: String)
    /// A state change the lifecycle forbids (exit 4).
    case refused(Refusal)
    /// Something named does not exist (exit 3).
    case missing(Missing)
    /// A malformed argument caught by IAPKit (exit 64).
    case badArgument(ArgumentProblem)
    /// Bad data other than the store's own files (exit 65): a receipt, a key, a signed value.
    case badInput(InputProblem)
    /// A damaged, foreign or too-new store file (exit 65).
    case damaged(path: String, problem: String)
    /// A catalog that fails validation (exit 65).
    case badCatalog(CatalogError)
    /// An input file that is missing or unreadable (exit 66).
    case unreadable(path: String, reason: String)
    /// Writing the store failed (exit 74); the store is as it was.
    case io(path: String, reason: String)
    /// An output file the user named (`receipt --der FILE`, `catalog convert --output FILE`)
    /// cannot be created or written (exit 73); `path` is as the user wrote it, `reason` says
    /// what went wrong and what to do.
    case cannotCreate(path: String, reason: String)
    /// A service cannot start (exit 69), described in full: a port in use or not permitted.
    case unavailable(String)
    /// Another process holds the store's lock (exit 75).
    case busy(path: String, seconds: Double)
    /// The store path cannot be a store (exit 64, or 65 for a link inside the store).
    case storePath(StorePathProblem)
    /// Family Sharing (`iapctl family`, `--member`) refused something.
    case family(FamilyError)
    /// A backdated purchase (`buy --purchase-date`) with a date it cannot have.
    case backdate(BackdateError)

    public var exitCode: ExitCode {
        switch self {
        case .unknownProduct, .productNotInStorefront, .unknownTransaction, .missing: return .notFound
        case .cannotFinish, .alreadyFinished, .refused: return .notAllowed
        case .quantityOutOfRange, .quantityNotAllowed, .unknownSetting, .badSettingValue, .badArgument: return .usage
        case .damaged, .badCatalog, .badInput: return .badData
        case .unreadable: return .noInput
        case .io: return .ioError
        case .cannotCreate: return .cannotCreate
        case .unavailable: return .unavailable
        case .busy: return .busy
        case .storePath(let problem): return problem.exitCode
        case .family(let error): return error.exitCode
        case .backdate: return .usage
        }
    }

    public var description: String {
        switch self {
        case .unknownProduct(let id, let closest):
            guard !closest.isEmpty else { return "unknown product '\(id)' (see 'iapctl products' for the catalog)" }
            let list = closest.map(\.rawValue).joined(separator: ", ")
            return "unknown product '\(id)'; closest known: \(list) (see 'iapctl products')"
        case .productNotInStorefront(let id, let storefront, let available):
            return
                "product '\(id)' is not sold in storefront \(storefront); it is priced in \(available.joined(separator: ", ")) (change with 'iapctl config set storefront CODE')"
        case .unknownTransaction(let id):
            return "unknown transaction '\(id)' (see 'iapctl queue' or 'iapctl dump')"
        case .cannotFinish(let id, let state):
            let why =
                state == "purchasing"
                ? "a purchasing transaction cannot be finished"
                : "a deferred transaction is waiting for approval; approve or decline it first"
            return "cannot finish transaction \(id): it is \(state); \(why)"
        case .alreadyFinished(let id):
            return "cannot finish transaction \(id): it is already finished (see 'iapctl queue' for unfinished ones)"
        case .quantityOutOfRange(let n):
            return "quantity \(n) is out of range; use \(PurchaseQuantity.text)"
        case .quantityNotAllowed(let id, let type):
            return "quantity above 1 is only for consumables; '\(id)' is \(type.rawValue) (drop --quantity)"
        case .unknownSetting(let key, let suggestion):
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "unknown setting '\(key)'\(hint) (list them with 'iapctl config get', no key)"
        case .badSettingValue(let key, let value, let expected):
            return "bad value '\(value)' for setting \(key); expected \(expected)"
        case .unavailable(let text):
            return text
        case .refused(let refusal): return refusal.description
        case .missing(let missing): return missing.description
        case .badArgument(let problem): return problem.description
        case .badInput(let problem): return problem.description
        case .damaged(let path, let problem):
            return "\(path): \(problem) (run 'iapctl doctor' to inspect and salvage)"
        case .badCatalog(let error):
            return error.description
        case .unreadable(let path, let reason):
            return "cannot read '\(path)': \(reason)"
        case .io(let path, let reason):
            return "cannot write '\(path)': \(reason); the store is unchanged"
        case .cannotCreate(let path, let reason):
            return "cannot write '\(path)': \(reason)"
        case .busy(let path, let seconds):
            return "store \(path) is busy: another iapctl holds its lock after \(seconds)s (retry, or raise --lock-timeout)"
        case .storePath(let problem):
            return problem.description
        case .family(let error):
            return error.description
        case .backdate(let error):
            return error.description
        }
    }
}

/// Why `buy --purchase-date` was refused (exit 64).
public enum BackdateError: Hashable, Sendable, CustomStringConvertible {
    case inFuture(Timestamp, clock: Timestamp)
    case beforeEpoch(Timestamp)
    case overlaps(Timestamp, group: String, until: Timestamp)

    public var description: String {
        switch self {
        case .inFuture(let date, let clock):
            return
                "purchase date \(date.rfc3339) is in the future: the store's clock is \(clock.rfc3339); give a date at or before it (or move the clock with 'iapctl clock set')"
        case .beforeEpoch(let date):
            return "purchase date \(date.rfc3339) is before 1970-01-01T00:00:00Z, the earliest date a transaction can carry"
        case .overlaps(let date, let group, let until):
            return
                "purchase date \(date.rfc3339) overlaps the subscription of group \(group), which runs until \(until.rfc3339); give a date at or after it"
        }
    }
}
