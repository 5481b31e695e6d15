import IAPKit
import IAPRuntime

/// `StoreWriting` for `iapctl serve`'s request threads: one writing session at a time, each under
/// the store's exclusive lock (`Store.write`), so an App Store Server API request that changes
/// the store commits exactly as a CLI command does and the CLI, the webhook and the readers see
/// it at once.
final class StoreWriterGate: StoreWriting, @unchecked Sendable {
    private let store: Store
    private let lock = Lock()

    init(path: String, lockTimeout: Double) {
        store = Store(path: path, lockTimeout: lockTimeout)
    }

    func write<R>(_ body: (StoreSession) throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        // Store.write takes a body that throws only StoreError; any other error is carried out.
        var other: (any Error)?
        let result: R? = try store.write { s throws(StoreError) -> R? in
            do {
                return try body(s)
            } catch let error as StoreError {
                throw error
            } catch {
                other = error
                return nil
            }
        }
        if let other { throw other }
        guard let result else { throw StoreError.damaged(path: store.path, problem: "a write produced no result") }
        _ = store.takeWarnings()
        return result
    }
}
