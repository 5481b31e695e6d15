/// An imperative request to the store. `Machine.apply` is the only way state changes, and it
/// takes one of these.
public enum Command: Hashable, Sendable {
    /// `SKProductsRequest` for these ids; empty means the whole catalog.
    case requestProducts([ProductID])
    /// `SKPaymentQueue.add(_:)`.
    case buy(ProductID, user: UserID?, quantity: Int)
    /// `finishTransaction` for each id, all or nothing.
    case finish([TransactionID])
    /// `finishTransaction` for every finishable transaction in the queue.
    case finishAll
    /// `restoreCompletedTransactions(withApplicationUsername:)`.
    case restore(user: UserID?)
    /// The app launched: redeliver every unfinished transaction.
    case launch
    /// Change one setting.
    case setSetting(key: String, value: String)
}

/// What one `apply` did: the events to record and the latest version of every transaction it
/// created or changed, for the store to persist.
public struct Effects: Sendable {
    public internal(set) var events: [Event] = []
    public internal(set) var transactions: [Transaction] = []

    public init() {}

    /// Appends a later apply's effects, keeping one (the latest) version of each transaction.
    public mutating func merge(_ later: Effects) {
        events += later.events
        for t in later.transactions { record(t) }
    }

    mutating func record(_ transaction: Transaction) {
        if let i = transactions.lastIndex(where: { $0.id == transaction.id }) {
            transactions[i] = transaction
        } else {
            transactions.append(transaction)
        }
    }
}
