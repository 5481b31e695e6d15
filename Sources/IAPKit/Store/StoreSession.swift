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
    /// The store format read: 2, or 1 for a store iapctl 0.1.0 wrote that no command has
    /// written since (its first write migrates it), or 0 where no store exists yet (a reading
    /// command sees the empty store it would be).
    public let format: Int
    /// Non-fatal findings (an index rebuilt from the journal), for the CLI to print as warnings.
    public private(set) var warnings: [String] = []
    /// Whether commits are synced (`Store.syncs`).
    private let syncs: Bool

    private let statePath: String
    private let indexPath: String
    /// The checkpoint as last read or written, and its size in bytes (`Store.checkpointBound`).
    private var stateFile: StateFile
    private var stateSize: Int
    /// Format 2: the journal, where its committed frames end, the index and the archive.
    private let journal: Journal?
    private var end: UInt64
    private var index: TransactionIndex?
    private var archive: StoreArchive?
    /// Format 1: the whole store, in memory.
    let legacy: LegacyStore?
    /// A group commit in progress (`group`): the committed state it started from and what its
    /// applies have done since, not yet in the journal.
    private var grouped: GroupCommit?

    /// A struct, not a tuple: an optional tuple's metadata is built at run time, and every
    /// session (a one-line `buy` too) would build it (issue 12).
    private struct GroupCommit {
        var start: Machine
        var pending: Effects
    }

    init(store: Store, stateFile: StateFile, stateSize: Int, catalog: Catalog, journal: Journal, writable: Bool)
        throws(StoreError)
    {
        storePath = store.path
        self.stateSize = stateSize
        statePath = store.statePath
        indexPath = store.indexPath
        self.journal = journal
        self.writable = writable
        syncs = store.syncs
        format = 2
        legacy = nil
        // The checkpoint, then every frame after it (a torn tail past the last one is ignored).
        let size = try journal.file.size()
        guard size >= stateFile.journalLength else {
            throw .damaged(
                path: journal.path,
                problem: "truncated: the store's checkpoint covers \(stateFile.journalLength) bytes but the file has \(size)")
        }
        var state = stateFile.state
        var reader = JournalReader(journal: journal, size: size)
        var offset = stateFile.journalLength
        var tailVersions: [Int] = []
        scan: while true {
            switch try reader.step(at: offset) {
            case .frame(let frame):
                let layout = try reader.layout(frame)
                guard
                    try reader.withPayload(
                        frame,
                        { CommitRecord.foldQueue($0, layout: layout, frame: offset, into: &state, versions: &tailVersions) })
                else {
                    throw .damaged(path: journal.path, problem: "frame at byte \(offset): malformed commit record")
                }
                offset = frame.next
            case .tornTail, .end: break scan
            }
        }
        end = offset
        let index = try TransactionIndex(path: store.indexPath, journal: journal, committedLength: end)
        index.syncs = syncs
        index.seedTailVersions(tailVersions)
        self.index = index
        let archive = StoreArchive(journal: journal, index: index, committedLength: end, nextID: state.nextTransactionID)
        self.archive = archive
        // Queued transactions the checkpoint names by id are read from the journal when asked for.
        // One source for both copies, so a failed read through either is seen (`queueReadFailure`).
        let journalPath = journal.path
        let source = PaymentQueue.Source { id throws(StoreError) in
            guard let t = try archive.stored(id) else {
                throw .damaged(
                    path: journalPath,
                    problem: "transaction \(id) of the payment queue is not in the journal")
            }
            return t
        }
        state.attachQueueSource(source)
        var checkpointed = stateFile
        checkpointed.state.attachQueueSource(source)
        self.stateFile = checkpointed
        machine = Machine(catalog: catalog, state: state)
    }

    /// A session over a store held in memory: a format-1 store (`format` 1), or the empty store
    /// a missing one would be (`format` 0, never writable).
    init(store: Store, legacy: LegacyStore, catalog: Catalog, writable: Bool, format: Int = 1) throws(StoreError) {
        storePath = store.path
        statePath = store.statePath
        indexPath = store.indexPath
        self.legacy = legacy
        self.writable = writable
        syncs = store.syncs
        self.format = format
        journal = nil
        end = legacy.stateFile.journalLength
        stateFile = legacy.stateFile
        stateSize = 0
        machine = Machine(catalog: catalog, state: legacy.stateFile.state)
    }

    /// The warnings so far, handed over once (a kept session reports each only once).
    func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    /// Where the committed journal ends: grows with every commit (for `serve`'s webhook, tests
    /// and `doctor`).
    public var journalLength: UInt64 { end }

    // MARK: - Changing

    /// Applies `command` and commits it: one journal frame appended and synced. On any error
    /// nothing is committed and the session keeps its previous state.
    /// Inside `group`, the command is applied but not committed: the group's one frame commits it.
    @discardableResult
    public func apply(_ command: Command) throws(StoreError) -> Effects {
        precondition(writable && journal != nil, "apply needs a writing session on a format-2 store")
        if var group = grouped {
            var next = machine
            let effects = try Self.apply(
                command, to: &next, archive: BatchArchive(base: self, pending: group.pending.transactions))
            if let failure = next.state.queue.readFailure ?? next.catalog.readFailure { throw failure }
            group.pending.merge(effects)
            grouped = group
            machine = next
            return effects
        }
        var next = machine
        let effects = try Self.apply(command, to: &next, archive: HistoryArchive(base: self))
        if let failure = next.state.queue.readFailure ?? next.catalog.readFailure { throw failure }
        try commit(machine.state, next.state, effects)
        // Swapped in, not assigned: no second copy of the machine, and one destroyed, not two.
        swap(&machine, &next)
        interpret(effects.storeEffects)
        return effects
    }

    /// `machine.apply`, except that when a catalog product did not decode on the way (a forged
    /// record, `Catalog.readFailure`) that damage is the error: the command failed because of
    /// it, whatever the stand-in product then made the machine refuse.
    private static func apply(_ command: Command, to machine: inout Machine, archive: some TransactionArchive)
        throws(StoreError) -> Effects
    {
        do {
            return try machine.apply(command, archive: archive)
        } catch {
            throw machine.catalog.readFailure ?? error
        }
    }

    /// Applies several commands and commits them once, all or nothing: for bulk loads (benchmarks,
    /// imports) where one sync per command would dominate.
    @discardableResult
    public func apply(batch commands: [Command]) throws(StoreError) -> Effects {
        precondition(writable && journal != nil, "apply needs a writing session on a format-2 store")
        var next = machine
        var all = Effects()
        for command in commands {
            let effects = try Self.apply(command, to: &next, archive: BatchArchive(base: self, pending: all.transactions))
            all.merge(effects)
        }
        if let failure = next.state.queue.readFailure ?? next.catalog.readFailure { throw failure }
        try commit(machine.state, next.state, all)
        machine = next
        interpret(all.storeEffects)
        return all
    }

    /// Group commit (`iapctl serve`'s writes, docs/serve.md): runs `bodies` in order in this one
    /// session, then commits everything they applied in one journal frame (one append, one
    /// `fdatasync`) and returns what each body returned. Each body sees the state the bodies
    /// before it left (`state`, `transaction`, `forEachTransaction` read their uncommitted
    /// changes; `forEachEvent` streams committed events only). A body that throws is undone
    /// alone: the machine and the pending effects go back to where they were before it, so the
    /// others commit as if it had never run. When nothing changed (every body refused) nothing
    /// is written or synced. If the commit fails, the session is back at the group's start and
    /// the error is thrown: no body's change is on disk, and none is answered as done.
    public func group<R>(_ bodies: [(StoreSession) throws -> R]) throws(StoreError) -> [Result<R, any Error>] {
        precondition(writable && journal != nil, "a group commit needs a writing session on a format-2 store")
        precondition(grouped == nil, "group commits do not nest")
        let start = machine
        grouped = GroupCommit(start: start, pending: Effects())
        var results: [Result<R, any Error>] = []
        results.reserveCapacity(bodies.count)
        for body in bodies {
            let before = grouped!
            let machineBefore = machine
            do {
                let value = try body(self)
                // A queued transaction that could not be read (a damaged journal) fails this
                // body, as `Store.write` fails a command that read one.
                if let failure = queueReadFailure { throw failure }
                results.append(.success(value))
            } catch {
                machine = machineBefore
                grouped = before
                results.append(.failure(error))
            }
        }
        let pending = grouped!.pending
        grouped = nil
        do {
            try commit(start.state, machine.state, pending)
        } catch {
            machine = start
            throw error
        }
        interpret(pending.storeEffects)
        return results
    }

    private func commit(_ old: StoreState, _ new: StoreState, _ effects: Effects) throws(StoreError) {
        guard let journal, let index, let archive else { return }
        if effects.events.isEmpty && effects.transactions.isEmpty && old == new { return }
        let (payload, finals) = CommitRecord.encode(effects: effects, changesFrom: old, to: new)
        let frame = Journal.frame(payload: payload)
        try journal.append(frame, at: end, sync: syncs)
        let frameOffset = end
        end += UInt64(frame.count)
        // The command is committed. The checkpoint and the index are derived from the journal:
        // failing to write them is only a warning.
        index.absorb(frame: frameOffset, finals: finals, newLength: end)
        archive.grew(to: end, nextID: new.nextTransactionID)
        if end - stateFile.journalLength >= Store.checkpointBound(stateSize: stateSize) {
            do {
                try checkpoint(new)
            } catch {
                warnings.append("could not write the checkpoint \(statePath) (\(error)); the journal holds everything")
            }
        }
        do {
            try index.checkpointIfNeeded()
        } catch {
            warnings.append("could not update \(indexPath) (\(error)); it will be rebuilt from the journal")
        }
    }

    /// Carries out what the committed apply asked of the store directory. Each is idempotent
    /// and only removes what the journal no longer needs, so a crash between the commit and
    /// here leaves at most a stale copy that the next cancel or download run replaces.
    private func interpret(_ storeEffects: [StoreEffect]) {
        for effect in storeEffects {
            switch effect {
            case .removeDownloadCopy(let id, let content): removeDownloadCopy(transaction: id, content: content)
            }
        }
    }

    /// Rewrites the `state` checkpoint to cover the whole journal now (commits do it on their own
    /// every `Store.checkpointBound(stateSize:)` bytes); a writing session only.
    public func checkpoint() throws(StoreError) {
        precondition(writable && journal != nil, "a checkpoint needs a writing session on a format-2 store")
        try checkpoint(machine.state)
    }

    private func checkpoint(_ state: StoreState) throws(StoreError) {
        var next = stateFile
        next.journalLength = end
        next.state = state
        let bytes = next.encoded()
        if syncs {
            try PosixFile.replaceAtomically(statePath, with: bytes, directory: storePath)
        } else {
            // A store whose commits are not synced is `iapctl run`'s temporary one: no other
            // process reads it, and a run that dies leaves it behind unused, so its checkpoint is
            // rewritten in place over the same blocks, then cut to length. On ext4 a temporary
            // file and a rename, or an O_TRUNC open, cost about 150 microseconds each (the blocks
            // are freed and allocated again), this about 3: 20,000 lines make some 650.
            let file = try PosixFile.openForWriting(statePath)
            try file.write(bytes, at: 0)
            try file.truncate(to: UInt64(bytes.count))
        }
        stateFile = next
        stateSize = bytes.count
    }

    /// History alone (not the queue: the machine has its own, changing, copy of it).
    private struct HistoryArchive: TransactionArchive {
        let base: StoreSession

        func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? { try base.historical(id) }
    }

    /// History as seen in the middle of a batch: transactions the batch changed, then the store.
    private struct BatchArchive: TransactionArchive {
        let base: StoreSession
        let pending: [Transaction]

        func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? {
            if let t = pending.last(where: { $0.id == id }) { return t }
            return try base.historical(id)
        }
    }

    // MARK: - Reading

    /// The latest stored version of a transaction from history, tombstones hidden.
    private func historical(_ id: TransactionID) throws(StoreError) -> Transaction? {
        if let t = grouped?.pending.recorded(id) { return t.isDeleted ? nil : t }
        if let legacy { return legacy.transactions[id.rawValue].flatMap { $0.isDeleted ? nil : $0 } }
        return try archive?.transaction(id)
    }

    /// The payment queue's transactions, oldest first, each read from the journal when it is not
    /// held decoded; a read failure (a damaged journal) is thrown, never trapped.
    public func queuedTransactions() throws(StoreError) -> [Transaction] {
        var out: [Transaction] = []
        out.reserveCapacity(state.queue.count)
        for id in state.queue.ids {
            if let t = try state.queue.transaction(id) { out.append(t) }
        }
        return out
    }

    /// Why a read through the payment queue's subscript, or the first decode of one of the
    /// catalog record's products, failed during this session, if one did: `Store.read`/`write`
    /// throw it after their body, so what was computed from the stand-in is never the
    /// command's result.
    var queueReadFailure: StoreError? { state.queue.readFailure ?? catalog.readFailure }

    /// The latest version of a transaction, from the queue or history; nil if unknown.
    public func transaction(_ id: TransactionID) throws(StoreError) -> Transaction? {
        if let t = try state.queue.transaction(id) { return t }
        return try historical(id)
    }

    /// Every transaction the filter accepts, oldest first, calling `body` for each; history is
    /// read through a bounded window so memory stays flat however large the store is.
    public func forEachTransaction(
        _ filter: TransactionFilter = TransactionFilter(), _ body: (Transaction) throws(StoreError) -> Void
    ) throws(StoreError) {
        if filter.unfinishedOnly {
            // Read with errors thrown: a queued transaction comes from the journal.
            for id in state.queue.ids {
                guard let t = try state.queue.transaction(id) else { continue }
                if filter.matches(t) { try body(t) }
            }
            return
        }
        let end = state.nextTransactionID
        var id = TransactionID.first
        if let legacy {
            while id < end {
                guard let t = legacy.transactions[id.rawValue] else {
                    throw .damaged(
                        path: storePath + "/journal",
                        problem:
                            "transaction \(id) is missing (the state counts \(end.rawValue - TransactionID.first.rawValue) transactions)"
                    )
                }
                if filter.matches(t) { try body(t) }
                id = id.next
            }
            return
        }
        guard let archive, let index else { return }
        while id < end {
            // Every id below the counter was committed with its record: one missing from the
            // whole journal is damage, never a transaction to skip quietly.
            var found = grouped?.pending.recorded(id)
            if found == nil { found = try archive.stored(id) }
            guard let t = found else {
                throw .damaged(
                    path: archive.journal.path,
                    problem:
                        "transaction \(id) is missing (the state counts \(end.rawValue - TransactionID.first.rawValue) transactions)"
                )
            }
            if filter.matches(t) { try body(t) }
            id = id.next
        }
        warnings += index.warnings
    }

    /// One entry of the event log: a typed event, or one a format-1 store wrote as JSON.
    public enum LoggedEvent {
        case event(Event)
        case legacy(seq: UInt64, json: [UInt8])

        public var seq: UInt64 {
            switch self {
            case .event(let e): return e.seq
            case .legacy(let seq, _): return seq
            }
        }
    }

    /// Every event with `seq` greater than `since`, oldest first.
    public func forEachEvent(since: UInt64, _ body: (LoggedEvent) throws(StoreError) -> Void) throws(StoreError) {
        if let legacy {
            for e in legacy.events where e.seq > since { try body(.legacy(seq: e.seq, json: e.json)) }
            return
        }
        guard let journal else { return }
        var reader = JournalReader(journal: journal, size: end)
        var offset = Journal.headerSize
        while offset < end {
            let frame = try reader.frame(at: offset)
            let layout = try reader.layout(frame)
            if layout.legacyEvents != nil {
                guard let legacyEvents = try reader.withPayload(frame, { CommitRecord.legacyEvents($0, layout: layout) }) else {
                    throw .damaged(path: journal.path, problem: "frame at byte \(offset): malformed events")
                }
                for e in legacyEvents where e.seq > since { try body(.legacy(seq: e.seq, json: e.json)) }
            }
            // A frame whose events all come at or before `since` is not decoded: following the
            // log (`events --follow`, the Transaction Manager's stream) reads only the news.
            let seqs = layout.events == nil ? nil : try reader.withPayload(frame) { CommitRecord.eventSeqs($0, layout: layout) }
            if layout.events != nil, seqs.map({ $0.upperBound > since + 1 }) ?? true {
                guard let events = try reader.withPayload(frame, { CommitRecord.events($0, layout: layout) }) else {
                    throw .damaged(path: journal.path, problem: "frame at byte \(offset): malformed events")
                }
                for e in events where e.seq > since { try body(.event(e)) }
            }
            offset = frame.next
        }
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
        var w = JSONWriter(capacity: 80 << 10)
        try forEachEvent(since: since) { e throws(StoreError) in
            switch e {
            case .event(let event): EventJSON.write(event, into: &w)
            case .legacy(_, let json): w.bytes.append(contentsOf: json)
            }
            w.bytes.append(0x0A)
            if w.bytes.count >= 64 << 10 {
                try sink.write(w.bytes)
                w.reset()
            }
        }
        try sink.write(w.bytes)
    }
}
