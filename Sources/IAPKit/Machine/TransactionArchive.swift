/// Read access to transactions that have left the working state (finished ones), which the
/// store keeps in its journal. `Machine.apply` asks it only about ids a command names.
public protocol TransactionArchive {
    /// The latest version of transaction `id`, or nil when the store never had it or it was
    /// deleted (`Transaction.isDeleted`).
    func transaction(_ id: TransactionID) throws(StoreError) -> Transaction?
}

/// An archive that keeps every persisted transaction in memory: for tests and benchmarks that
/// drive a `Machine` without a store directory.
public final class MemoryArchive: TransactionArchive {
    public private(set) var transactions: [TransactionID: Transaction] = [:]
    /// When false, `absorb` drops transactions (a benchmark that must not grow in memory).
    public let keeps: Bool

    public init(keeps: Bool = true) { self.keeps = keeps }

    public func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? {
        transactions[id].flatMap { $0.isDeleted ? nil : $0 }
    }

    /// Records what an `apply` persisted, as the store would.
    public func absorb(_ effects: Effects) {
        guard keeps else { return }
        for t in effects.transactions { transactions[t.id] = t }
    }

    /// Every transaction, by id.
    public var all: [Transaction] { transactions.values.sorted { $0.id < $1.id } }
}
