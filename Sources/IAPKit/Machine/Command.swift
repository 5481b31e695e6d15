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
    /// `SKPaymentQueue.start/pause/resume/cancel(_ downloads:)` for one download of a transaction,
    /// or for every download of it the move applies to (`content` nil).
    case download(DownloadMove, TransactionID, content: String?)
    /// A hosted download of an active transaction reached `downloadedBytes` (the CLI copied them).
    case recordDownloadProgress(TransactionID, content: String, downloadedBytes: Int64)
    /// What the self-hosted content downloader did for a transaction (the CLI ran it).
    case recordContentDownload(TransactionID, ContentDownloadStep)
    /// The App Store starts a purchase of a promoted product (`shouldAddStorePayment`).
    case promote(ProductID, user: UserID?)
    /// RMStore's `acceptStoredStorePayments`: every stored payment joins the queue.
    case acceptStoredPayments
    /// Ask to Buy: the parent approves a deferred transaction.
    case approve(TransactionID)
    /// Ask to Buy: the parent declines a deferred transaction, which fails with `error`.
    case decline(TransactionID, error: TransactionError)
    /// The user resolved what interrupted a purchase (or, later, another resolvable issue).
    case resolve(TransactionID)
    /// Arm a fault: the next `count` requests at `point` (for `product`, or any) fail with `error`.
    case addFault(FaultPoint, TransactionError, count: Int, product: ProductID?)
    /// Disarm every fault.
    case clearFaults
    /// RMStore's `consumeProductOfIdentifier:`, `count` times.
    case consume(ProductID, count: Int)
    /// A receipt refresh or verification (issue 5).
    case receipt(ReceiptRequest)
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
