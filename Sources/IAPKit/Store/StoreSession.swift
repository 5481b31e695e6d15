import IAPJSON

/// One loaded store, under its lock: the machine, its catalog, and access to history.
///
/// In a writing session every `apply` commits before it returns, so a command that reported
/// success is on disk. A reading session can inspect and stream, never change.
public final class StoreSession {
    public private(set) var machine: Machine
    public var catalog: Catalog { machine.catalog }
    public var state: StoreState { machine.state }
    public let storePath: String
    /// The file the store's catalog came from, or "built-in".
    public var catalogName: String { stateFile.catalogName }
    public let writable: Bool
    /// Non-fatal findings (an index rebuilt from the journal), for the CLI to print as warnings.
    public private(set) var warnings: [String] = []

    private let statePath: String
    private let indexPath: String
    private let journal: Journal
    private var stateFile: StateFile
    private var index: TransactionIndex
    private var archive: StoreArchive

    init(store: Store, stateFile: StateFile, catalog: Catalog, journal: Journal, writable: Bool) throws(StoreError) {
        machine = Machine(catalog: catalog, state: stateFile.state)
        storePath = store.path
        statePath = store.statePath
        indexPath = store.indexPath
        self.journal = journal
        self.stateFile = stateFile
        self.writable = writable
        index = try TransactionIndex(path: store.indexPath, journal: journal, committedLength: stateFile.journalLength)
        archive = StoreArchive(
            journal: journal, index: index, committedLength: stateFile.journalLength, nextID: stateFile.state.nextTransactionID)
    }

    /// How many bytes of journal are committed (for tests and `doctor`).
    public var journalLength: UInt64 { stateFile.journalLength }

    // MARK: - Changing

    /// Applies `command` and commits it: journal records synced, then the state replaced
    /// atomically. On any error nothing is committed and the session keeps its previous state.
    @discardableResult
    public func apply(_ command: Command) throws(StoreError) -> Effects {
        precondition(writable, "apply needs a writing session")
        var next = machine
        let effects = try next.apply(command, archive: archive)
        try commit(next.state, effects)
        machine = next
        return effects
    }

    /// Applies several commands and commits them once, all or nothing: for bulk loads (benchmarks,
    /// imports) where one sync per command would dominate.
    @discardableResult
    public func apply(batch commands: [Command]) throws(StoreError) -> Effects {
        precondition(writable, "apply needs a writing session")
        var next = machine
        var all = Effects()
        for command in commands {
            let effects = try next.apply(command, archive: BatchArchive(base: archive, pending: all.transactions))
            all.merge(effects)
        }
        try commit(next.state, all)
        machine = next
        return all
    }

    private func commit(_ state: StoreState, _ effects: Effects) throws(StoreError) {
        var frames: [UInt8] = []
        frames.reserveCapacity(1024 * (effects.transactions.count + effects.events.count))
        var record = ByteWriter(capacity: 256)
        for t in effects.transactions {
            record.bytes.removeAll(keepingCapacity: true)
            TransactionRecordCodec.encode(t, into: &record)
            Journal.frame(.transaction, payload: record.bytes, into: &frames)
        }
        for e in effects.events {
            record.bytes.removeAll(keepingCapacity: true)
            record.u64(e.seq)
            record.raw(EventJSON.bytes(e))
            Journal.frame(.event, payload: record.bytes, into: &frames)
        }
        if frames.isEmpty && state == stateFile.state { return }
        if !frames.isEmpty { try journal.append(frames, at: stateFile.journalLength) }
        var next = stateFile
        next.journalLength += UInt64(frames.count)
        next.state = state
        try PosixFile.replaceAtomically(statePath, with: next.encoded(), directory: storePath)
        stateFile = next
        // The command is committed. The index is derived: failing to fold it is only a warning.
        do {
            index = try TransactionIndex(path: indexPath, journal: journal, committedLength: next.journalLength)
            try index.checkpointIfNeeded()
        } catch {
            warnings.append("could not update \(indexPath) (\(error)); it will be rebuilt from the journal")
        }
        archive = StoreArchive(
            journal: journal, index: index, committedLength: next.journalLength, nextID: next.state.nextTransactionID)
    }

    /// History as seen in the middle of a batch: transactions the batch changed, then the store.
    private struct BatchArchive: TransactionArchive {
        let base: StoreArchive
        let pending: [Transaction]

        func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? {
            if let t = pending.last(where: { $0.id == id }) { return t }
            return try base.transaction(id)
        }
    }

    // MARK: - Reading

    /// The latest version of a transaction, from the queue or history; nil if unknown.
    public func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? {
        if let t = state.queued(id) { return t }
        return try archive.transaction(id)
    }

    /// Every transaction the filter accepts, oldest first, calling `body` for each; history is
    /// read through a bounded window so memory stays flat however large the store is.
    public func forEachTransaction(
        _ filter: TransactionFilter = TransactionFilter(), _ body: (Transaction) throws(StoreError) -> Void
    ) throws(StoreError) {
        var reader = JournalReader(journal: journal, limit: stateFile.journalLength)
        var id = TransactionID.first
        let end = state.nextTransactionID
        if filter.unfinishedOnly {
            for t in state.queue where filter.matches(t) { try body(t) }
            return
        }
        while id < end {
            // Every id below the counter was committed with its record: one missing from the
            // whole journal is damage, never a transaction to skip quietly.
            guard let offset = try index.offset(of: id, mustExist: true) else {
                throw .damaged(
                    path: journal.path,
                    problem:
                        "transaction \(id) is missing (the state counts \(end.rawValue - TransactionID.first.rawValue) transactions)"
                )
            }
            let t = try reader.transaction(at: offset)
            guard t.id == id else {
                throw .damaged(path: journal.path, problem: "record at byte \(offset) holds transaction \(t.id), expected \(id)")
            }
            if filter.matches(t) { try body(t) }
            id = id.next
        }
        warnings += index.warnings
    }

    /// Streams `dump`: a JSON array, one transaction a line, written in 64 KiB pieces.
    public func dump(_ filter: TransactionFilter, into sink: inout some ByteSink) throws(StoreError) {
        var w = JSONWriter(capacity: 80 << 10)
        w.bytes.append(UInt8(ascii: "["))
        var first = true
        try forEachTransaction(filter) { t throws(StoreError) in
            w.bytes.append(contentsOf: first ? [0x0A] : [0x2C, 0x0A])
            first = false
            TransactionJSON.write(t, into: &w)
            if w.bytes.count >= 64 << 10 {
                try sink.write(w.bytes)
                w.reset()
            }
        }
        w.bytes.append(contentsOf: first ? [0x5D, 0x0A] : [0x0A, 0x5D, 0x0A])
        try sink.write(w.bytes)
    }

    /// Streams `events`: one JSON object a line, those with `seq` greater than `since`.
    public func events(since: UInt64, into sink: inout some ByteSink) throws(StoreError) {
        var reader = JournalReader(journal: journal, limit: stateFile.journalLength)
        var offset = Journal.headerSize
        var out: [UInt8] = []
        out.reserveCapacity(64 << 10)
        while offset < stateFile.journalLength {
            let r = try reader.record(at: offset)
            if r.type == .event {
                let payload = reader.payload(r)
                guard payload.count > 8 else {
                    throw .damaged(path: journal.path, problem: "record at byte \(offset): malformed event")
                }
                var seq: UInt64 = 0
                for i in 0..<8 { seq |= UInt64(payload[payload.startIndex + i]) << UInt64(8 * i) }
                if seq > since {
                    out.append(contentsOf: payload.dropFirst(8))
                    out.append(0x0A)
                    if out.count >= 64 << 10 {
                        try sink.write(out)
                        out.removeAll(keepingCapacity: true)
                    }
                }
            }
            offset = r.next
        }
        try sink.write(out)
    }
}
