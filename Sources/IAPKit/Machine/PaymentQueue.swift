import IAPTime
import Synchronization

/// The payment queue: unfinished transactions, oldest (lowest id) first.
///
/// Loading a store and committing to it must not grow with the queue, so the checkpoint holds
/// only the queue's ids (a byte or two each) and the queue reads a transaction it does not hold
/// from the journal, through the index (`Source`), when it is asked for it: a `buy` on a store
/// with 10,000 unfinished transactions reads 10,000 ids and decodes none. The transactions a
/// command changed are held decoded. Copying the queue (every `apply` works on a copy of the
/// state) copies an array of ids and a small dictionary, never the transactions.
public struct PaymentQueue: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
    /// Where queued transactions that are not held decoded are read: the store's journal.
    final class Source: @unchecked Sendable {
        /// The latest version of a transaction, or why it cannot be read.
        private let read: (TransactionID) throws(StoreError) -> Transaction?
        /// Copies of a state may be read from several threads; the journal reader is not shared.
        private let lock = Mutex<StoreError?>(nil)

        init(_ read: @escaping (TransactionID) throws(StoreError) -> Transaction?) { self.read = read }

        func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? {
            try lock.withLock { _ throws(StoreError) in try read(id) }
        }

        /// The first read through the queue's subscript that failed (a journal damaged since the
        /// checkpoint vouched for the id). The subscript cannot throw, so it records the failure
        /// here and hands back a stand-in; the session throws this before committing or
        /// returning what was computed from it (exit 65, naming the journal and `iapctl doctor`).
        var failure: StoreError? { lock.withLock { $0 } }

        fileprivate func fail(_ error: StoreError) {
            lock.withLock { if case .none = $0 { $0 = error } }
        }
    }

    public private(set) var ids: [TransactionID] = []
    /// Transactions held decoded: each one changed since the checkpoint (all of them in a queue
    /// built from transactions).
    private var decoded = Held()
    private var source: Source?

    public init() {}

    public init(arrayLiteral elements: Transaction...) { self.init(elements) }

    /// A queue of these transactions, sorted by id.
    public init(_ transactions: [Transaction]) {
        for t in transactions.sorted(by: { $0.id < $1.id }) {
            ids.append(t.id)
            decoded.set(t)
        }
    }

    /// A queue of the transactions `ids` names (a checkpoint's), read from `source` when asked.
    init(ids: [TransactionID], source: Source? = nil) {
        self.ids = ids
        self.source = source
    }

    /// Where the transactions not held decoded are read (the session attaches its journal).
    mutating func attach(_ source: Source) { self.source = source }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ids.count }

    public subscript(i: Int) -> Transaction {
        let id = ids[i]
        if let t = decoded[id] { return t }
        // The checkpoint's CRC vouched for the id, and every committed transaction's latest version
        // is in the journal; a journal damaged since then is recorded in the source (the session
        // throws it: exit 65) and a stand-in is returned, never a trap.
        guard let source else { return Self.standIn(id) }
        do throws(StoreError) {
            if let t = try source.transaction(id) { return t }
            source.fail(
                .damaged(
                    path: "journal",
                    problem: "transaction \(id) of the payment queue is not in the journal"))
        } catch {
            source.fail(error)
        }
        return Self.standIn(id)
    }

    /// What the subscript returns for a transaction it could not read: never committed nor
    /// shown, since the session throws the recorded failure first.
    private static func standIn(_ id: TransactionID) -> Transaction {
        Transaction(
            id: id, originalID: id, productID: ProductID(""), productType: .consumable, quantity: 1, userID: nil,
            state: .purchasing, date: Timestamp(milliseconds: 0), originalDate: Timestamp(milliseconds: 0), storefront: "",
            price: .zero, currency: "", charged: false)
    }

    /// Why a read through the subscript failed, if one did (see `Source.failure`).
    var readFailure: StoreError? { source?.failure }

    /// The queued transaction `id`, read from the journal when it is not held decoded; a read
    /// failure is thrown (the subscript cannot throw).
    func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? {
        guard index(of: id) != nil else { return nil }
        if let t = decoded[id] { return t }
        return try source?.transaction(id)
    }

    /// Whether every transaction is held decoded (nothing to read from a journal).
    var isDecoded: Bool { decoded.count == ids.count }

    /// The index of `id`, by binary search.
    func index(of id: TransactionID) -> Int? {
        let low = insertionPoint(of: id)
        return low < ids.count && ids[low] == id ? low : nil
    }

    private func insertionPoint(of id: TransactionID) -> Int {
        // New transactions have the highest id: appending is the common case.
        if let last = ids.last, last < id { return ids.count }
        var low = 0
        var high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Puts a transaction in the queue, or replaces the queued version; one that left the queue
    /// (finished or deleted) is removed.
    mutating func upsert(_ t: Transaction) {
        let i = insertionPoint(of: t.id)
        let present = i < ids.count && ids[i] == t.id
        if t.isInQueue {
            if !present { ids.insert(t.id, at: i) }
            decoded.set(t)
        } else if present {
            remove(at: i, t.id)
        }
    }

    /// Records that the latest version of `id`, as stored in the journal, is (or is not) in the
    /// queue, without holding it decoded: it is read from the source when asked for (a load's
    /// replay of the journal's tail, `CommitRecord.foldQueue`). A version held decoded is an
    /// older one and is dropped.
    mutating func upsertStored(_ id: TransactionID, inQueue: Bool) {
        let i = insertionPoint(of: id)
        let present = i < ids.count && ids[i] == id
        if inQueue {
            if !present { ids.insert(id, at: i) }
            decoded.remove(id)
        } else if present {
            remove(at: i, id)
        }
    }

    /// Takes `id` out of the queue, so that the caller's copy of it is the only one left and
    /// changing it (a finish) changes it in place instead of copying its fields.
    mutating func remove(_ id: TransactionID) {
        let i = insertionPoint(of: id)
        guard i < ids.count && ids[i] == id else { return }
        remove(at: i, id)
    }

    private mutating func remove(at i: Int, _ id: TransactionID) {
        ids.remove(at: i)
        decoded.remove(id)
    }

    /// Equal when they hold the same transactions in the same order. Two copies of one loaded
    /// queue (a commit compares the state before and after) read the same journal, so only the
    /// transactions either holds decoded are compared, not the whole queue.
    public static func == (a: PaymentQueue, b: PaymentQueue) -> Bool {
        guard a.ids == b.ids else { return false }
        guard let source = a.source, source === b.source else { return a.elementsEqual(b) }
        // Either side's held ids (one held by both is compared twice: cheaper than a set).
        for key in a.decoded.ids + b.decoded.ids {
            guard let i = a.index(of: key) else { continue }
            if a[i] != b[i] { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ids)
    }
}

extension PaymentQueue: Codable {
    /// A format-1 state file held the queue as an array of transactions.
    public init(from decoder: any Decoder) throws {
        self.init(try [Transaction](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try Array(self).encode(to: encoder)
    }
}

extension Array where Element == Transaction {
    /// A list of transactions equals a queue holding the same, in the same order.
    public static func == (a: [Transaction], b: PaymentQueue) -> Bool { a.elementsEqual(b) }
    public static func != (a: [Transaction], b: PaymentQueue) -> Bool { !(a == b) }
}

extension PaymentQueue {
    /// The transactions a queue holds decoded, by id: a short list searched in order while a
    /// command has changed only a few (the common case: a purchase and its finish), a dictionary
    /// once there are many (a queue built from many transactions). Comparing a few ids costs
    /// less than hashing one, and a purchase + finish cycle does three such lookups.
    struct Held: Sendable {
        private var few: [Transaction] = []
        /// Keyed by the id's number: the store's index already keys by `UInt64`, so the runtime's
        /// first lookup of a key type's hashing is paid once, not again for `TransactionID`.
        private var many: [UInt64: Transaction]?
        private static let fewCount = 16

        var count: Int { many?.count ?? few.count }

        var ids: [TransactionID] { many.map { $0.keys.map { TransactionID($0) } } ?? few.map(\.id) }

        subscript(id: TransactionID) -> Transaction? {
            if let many { return many[id.rawValue] }
            return few.withUnsafeBufferPointer { all in all.first { $0.id == id } }
        }

        mutating func set(_ t: Transaction) {
            if many != nil {
                many![t.id.rawValue] = t
                return
            }
            if let i = few.firstIndex(where: { $0.id == t.id }) {
                few[i] = t
            } else if few.count < Self.fewCount {
                few.append(t)
            } else {
                var all = [UInt64: Transaction](minimumCapacity: Self.fewCount * 2)
                for x in few { all[x.id.rawValue] = x }
                all[t.id.rawValue] = t
                many = all
                few = []
            }
        }

        mutating func remove(_ id: TransactionID) {
            if many != nil {
                many![id.rawValue] = nil
            } else if let i = few.firstIndex(where: { $0.id == id }) {
                few.remove(at: i)
            }
        }
    }
}
