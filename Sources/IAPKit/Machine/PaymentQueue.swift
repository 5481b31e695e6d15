/// The payment queue: unfinished transactions, oldest (lowest id) first.
///
/// Loading a store must not grow with the queue, so the queue read from the checkpoint keeps
/// each transaction as its stored record and decodes it only when it is read: a `buy` on a store
/// with 10,000 unfinished transactions looks at the ids (a binary search) and decodes none. The
/// transactions a command changes are held decoded. Value semantics throughout: the stored
/// records are shared, immutable bytes.
public struct PaymentQueue: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
    /// One entry: decoded, or a record in `records` (its range).
    enum Entry: Sendable {
        case decoded(Transaction)
        case stored(Range<Int>)
    }

    /// Encoded transactions the checkpoint held, shared by every copy of the queue.
    final class Records: Sendable {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    public private(set) var ids: [TransactionID] = []
    private var entries: [Entry] = []
    private let records: Records?

    public init() { records = nil }

    public init(arrayLiteral elements: Transaction...) { self.init(elements) }

    /// A queue of these transactions, sorted by id.
    public init(_ transactions: [Transaction]) {
        records = nil
        for t in transactions.sorted(by: { $0.id < $1.id }) {
            ids.append(t.id)
            entries.append(.decoded(t))
        }
    }

    /// A queue over stored records: `ranges[i]` is where transaction `ids[i]`'s record is.
    init(ids: [TransactionID], records: [UInt8], ranges: [Range<Int>]) {
        self.ids = ids
        self.records = Records(records)
        entries = ranges.map(Entry.stored)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ids.count }

    public subscript(i: Int) -> Transaction {
        switch entries[i] {
        case .decoded(let t): return t
        case .stored(let range):
            // The checkpoint's CRC vouched for these bytes when the store was loaded.
            let t = records!.bytes.withUnsafeBytes { raw in
                TransactionRecordCodec.decode(UnsafeRawBufferPointer(rebasing: raw[range]))
            }
            return t!
        }
    }

    /// The stored record of entry `i` (for the checkpoint: unchanged records are copied, not
    /// decoded and encoded again), or nil when it is held decoded.
    func storedRecord(_ i: Int) -> ArraySlice<UInt8>? {
        if case .stored(let range) = entries[i] { return records!.bytes[range] }
        return nil
    }

    /// The index of `id`, by binary search.
    func index(of id: TransactionID) -> Int? {
        var low = 0
        var high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }

    /// Puts a transaction in the queue, or replaces the queued version; one that left the queue
    /// (finished or deleted) is removed.
    mutating func upsert(_ t: Transaction) {
        if let i = index(of: t.id) {
            if t.isInQueue {
                entries[i] = .decoded(t)
            } else {
                ids.remove(at: i)
                entries.remove(at: i)
            }
            return
        }
        guard t.isInQueue else { return }
        var low = ids.count
        if let last = ids.last, last > t.id {
            low = 0
            var high = ids.count
            while low < high {
                let mid = (low + high) / 2
                if ids[mid] < t.id { low = mid + 1 } else { high = mid }
            }
        }
        ids.insert(t.id, at: low)
        entries.insert(.decoded(t), at: low)
    }

    public static func == (a: PaymentQueue, b: PaymentQueue) -> Bool {
        a.ids == b.ids && a.elementsEqual(b)
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
