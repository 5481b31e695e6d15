/// How a request handler reads the store: inside one consistent view, under the store's shared
/// lock, so a handler never sees a half-committed command of a CLI writer.
///
/// `iapctl serve` implements it with a pool of `StoreSnapshotReader`s, one per busy thread.
public protocol StoreReading: Sendable {
    func read<R>(_ body: (StoreSession) throws -> R) throws -> R
}
