/// Repeated consistent reads of one store, reusing the loaded session while nothing committed.
///
/// Each `read` takes the store's lock shared, exactly as `Store.read` does, so it never sees a
/// half-committed command. Loading a session (state, catalog, index) costs far more than a
/// lookup, so a reader keeps the last session and reuses it when the `state` file still holds
/// the same bytes: every commit replaces that file, and its bytes name the journal length and the
/// catalog, so equal bytes under the lock mean the same committed store. A long-running reader
/// (`iapctl serve`) then pays for a load once per commit instead of once per request, and holds
/// the lock for microseconds, which leaves room for CLI writers.
///
/// Not thread-safe: give each thread its own reader.
public final class StoreSnapshotReader {
    public let store: Store
    private var cached: (stateBytes: [UInt8], session: StoreSession)?

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
        if let cached, cached.stateBytes == bytes {
            return try body(cached.session)
        }
        cached = nil
        let session = try store.load(writable: false, options: StoreCreation())
        cached = (bytes, session)
        return try body(session)
    }
}
