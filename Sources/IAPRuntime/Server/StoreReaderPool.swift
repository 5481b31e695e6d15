import IAPKit

/// `StoreReading` for many request threads: a pool of `StoreSnapshotReader`s, one lent to each
/// read, so loaded sessions are reused across requests without two threads sharing one.
package final class StoreReaderPool: StoreReading, @unchecked Sendable {
    private let path: String
    private let lockTimeout: Double
    private let lock = Lock()
    private var idle: [StoreSnapshotReader] = []
    /// Readers kept between requests; each holds a loaded store and its open files, so a burst
    /// of many connections does not leave hundreds of descriptors behind.
    package static let keptReaders = 32

    package init(path: String, lockTimeout: Double) {
        self.path = path
        self.lockTimeout = lockTimeout
    }

    package func read<R>(_ body: (StoreSession) throws -> R) throws -> R {
        lock.lock()
        let reader = idle.popLast() ?? StoreSnapshotReader(store: Store(path: path, lockTimeout: lockTimeout))
        lock.unlock()
        defer {
            lock.lock()
            if idle.count < Self.keptReaders { idle.append(reader) }
            lock.unlock()
        }
        return try reader.read(body)
    }
}
