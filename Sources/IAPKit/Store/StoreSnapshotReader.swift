/// Repeated consistent reads of one store, reusing the loaded session while nothing committed.
///
/// Each `read` takes the store's lock shared, exactly as `Store.read` does, so it never sees a
/// half-committed command. Loading a session (state, catalog, index) costs far more than a
/// lookup, so a reader keeps the last session and reuses it when the `state` checkpoint holds the
/// same bytes and the journal has the same length: every commit appends to the journal, and a
/// checkpoint names the catalog, so both equal under the lock mean the same committed store. A long-running reader
/// (`iapctl serve`) then pays for a load once per commit instead of once per request, and holds
/// the lock for microseconds, which leaves room for CLI writers.
///
/// Not thread-safe: give each thread its own reader.
public final class StoreSnapshotReader {
    public let store: Store
    private var cached: (stateBytes: [UInt8], journalSize: UInt64, session: StoreSession)?

    public init(store: Store) {
        self.store = store
    }

    /// Runs `body` on the committed store, under the shared lock.
    public func read<R>(_ body: (StoreSession) throws -> R) throws -> R {
        let lock = try FileLock.acquire(store.lockPath, mode: .shared, timeout: store.lockTimeout, storePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        guard let handle = try PosixFile.openForReading(store.statePath) else {
            cached = nil
            throw StoreError.damaged(path: store.statePath, problem: "missing (was the store removed while in use?)")
        }
        let bytes = try handle.readAll()
        let journalSize = try PosixFile.openForReading(store.journalPath)?.size() ?? 0
        if let cached, cached.stateBytes == bytes, cached.journalSize == journalSize {
            return try checked(body, cached.session)
        }
        cached = nil
        let session = try store.load(writable: false, options: StoreCreation())
        cached = (bytes, journalSize, session)
        return try checked(body, session)
    }

    /// `body`'s result, unless it met a queued transaction or a catalog product that could not
    /// be read (`StoreSession.queueReadFailure`), as `Store.read` checks: then that damage is
    /// thrown (in place of any error the stand-in caused) and the session is not kept.
    private func checked<R>(_ body: (StoreSession) throws -> R, _ session: StoreSession) throws -> R {
        let result: R
        do {
            result = try body(session)
        } catch {
            if let failure = session.queueReadFailure {
                cached = nil
                throw failure
            }
            throw error
        }
        if let failure = session.queueReadFailure {
            cached = nil
            throw failure
        }
        return result
    }
}
