import IAPKit

/// The `Store` objects of many command lines run in one process (`iapctl run`), one per path, so
/// each keeps its loaded session from line to line (`Store.keepsSession`) instead of loading the
/// catalog and the checkpoint again for every line.
public final class StoreRegistry {
    private var stores: [String: Store] = [:]
    /// Whether the stores' commits are synced (`Store.syncs`): false for a temporary store that
    /// is deleted at the end.
    let syncs: Bool
    /// Whether each store's lock is taken once and held until `release()` (`Store.holdsLock`):
    /// for a temporary store no other process knows.
    let holdsLocks: Bool

    /// Command lines already bound to a leaf command, by their words: what `run(arguments:...)`
    /// reuses when a scenario repeats a line (`buy com.x.coin42`, `finish --all`). At most
    /// `boundLineLimit` are kept, so lines that differ every time (a new id each) do not pile up.
    private(set) var boundLines: [[String]: (invocation: ParsedInvocation, run: (CommandContext) throws -> ExitCode)] = [:]
    static let boundLineLimit = 256

    public init(syncs: Bool = true, holdsLocks: Bool = false) {
        self.syncs = syncs
        self.holdsLocks = holdsLocks
    }

    func store(path: String, lockTimeout: Double) -> Store {
        if let s = stores[path] {
            s.lockTimeout = lockTimeout
            return s
        }
        let s = Store(path: path, lockTimeout: lockTimeout)
        s.keepsSession = true
        s.syncs = syncs
        s.holdsLock = holdsLocks
        stores[path] = s
        return s
    }

    /// Keeps what `arguments` bound to, for the next time a line has these words.
    func remember(_ arguments: [String], invocation: ParsedInvocation, run: @escaping (CommandContext) throws -> ExitCode) {
        guard boundLines.count < Self.boundLineLimit else { return }
        boundLines[arguments] = (invocation, run)
    }

    /// Lets go of every held lock and kept session: the run is over.
    func release() {
        for store in stores.values { store.release() }
    }
}
