/// The `TransactionArchive` of a store: finished transactions looked up through the index and
/// read from the journal.
final class StoreArchive: TransactionArchive {
    let journal: Journal
    let index: TransactionIndex
    private var reader: JournalReader

    /// Every id below this was committed with its record.
    let nextID: TransactionID

    init(journal: Journal, index: TransactionIndex, committedLength: UInt64, nextID: TransactionID) {
        self.journal = journal
        self.index = index
        self.nextID = nextID
        reader = JournalReader(journal: journal, limit: committedLength, windowSize: 64 << 10)
    }

    func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? {
        guard let offset = try index.offset(of: id, mustExist: id < nextID) else { return nil }
        let t = try reader.transaction(at: offset)
        guard t.id == id else {
            throw .damaged(path: journal.path, problem: "record at byte \(offset) holds transaction \(t.id), expected \(id)")
        }
        // A deleted transaction (a tombstone) is as if the store never had it.
        return t.isDeleted ? nil : t
    }
}
