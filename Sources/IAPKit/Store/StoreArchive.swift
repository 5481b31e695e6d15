/// The `TransactionArchive` of a store: transactions looked up through the index and read from
/// the journal's frames.
final class StoreArchive: TransactionArchive {
    let journal: Journal
    let index: TransactionIndex
    private var reader: JournalReader

    /// Every id below this was committed with its record.
    var nextID: TransactionID

    init(journal: Journal, index: TransactionIndex, committedLength: UInt64, nextID: TransactionID) {
        self.journal = journal
        self.index = index
        self.nextID = nextID
        reader = JournalReader(journal: journal, size: committedLength, windowSize: 64 << 10)
    }

    /// After a commit: the journal grew to `length`.
    func grew(to length: UInt64, nextID: TransactionID) {
        self.nextID = nextID
        reader = JournalReader(journal: journal, size: length, windowSize: 64 << 10)
    }

    /// The latest version, tombstones included (doctor and dump decide what to show).
    func stored(_ id: TransactionID) throws(StoreError) -> Transaction? {
        guard let location = try index.offset(of: id, mustExist: id < nextID) else { return nil }
        let t = try reader.transaction(frame: location.frame, position: Int(location.position))
        guard t.id == id else {
            throw .damaged(
                path: journal.path, problem: "frame at byte \(location.frame) holds transaction \(t.id), expected \(id)")
        }
        return t
    }

    func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? {
        // A deleted transaction (a tombstone) is as if the store never had it.
        try stored(id).flatMap { $0.isDeleted ? nil : $0 }
    }
}
