import IAPCrypto

/// `iapctl doctor`: checks every file of a store, and salvages what is valid into a new store.
///
/// The check reads everything (unlike ordinary commands, which read only what they touch), so it
/// finds damage in history that no command has looked at yet.
public enum Doctor {
    /// One finding: a file and what was found, good or bad.
    public struct Finding: Sendable, Equatable {
        public let file: String
        public let ok: Bool
        public let message: String
    }

    public struct Report: Sendable {
        public var findings: [Finding] = []
        public var isClean: Bool { findings.allSatisfy(\.ok) }

        mutating func ok(_ file: String, _ message: String) { findings.append(Finding(file: file, ok: true, message: message)) }
        mutating func bad(_ file: String, _ message: String) { findings.append(Finding(file: file, ok: false, message: message)) }
    }

    /// What a full scan of a journal found.
    struct Scan {
        var latest: [UInt64: Transaction] = [:]
        /// Format 2: where each latest version is (what the index must say).
        var locations: [UInt64: TransactionIndex.Location] = [:]
        var events: [SessionEvent] = []
        var frames = 0
        /// The end of the valid frames (format 2) or records (format 1) before any damage.
        var validEnd: UInt64 = Journal.headerSize
        /// Where frames start (a checkpoint must cover a whole number of them).
        var frameStarts: Set<UInt64> = []
        var problem: String?
        var skippedBytes: UInt64 = 0
        var tornTail: UInt64 = 0
        /// The state folded from `StateDeltaCodec.base` over every frame (format 2, no damage).
        var folded: StoreState?
        /// Frames that could be folded, in order, with their offset (for salvage).
        var foldable: [(offset: UInt64, fold: (inout StoreState) -> Bool)] = []
    }

    typealias SessionEvent = StoreSession.LoggedEvent

    /// Reads every frame of a format-2 journal; with `resync`, skips damaged bytes looking for
    /// the next valid frame instead of stopping.
    static func scan(_ journal: Journal, size: UInt64, resync: Bool) -> Scan {
        var scan = Scan()
        var reader = JournalReader(journal: journal, size: size)
        var offset = Journal.headerSize
        var state: StoreState? = StateDeltaCodec.base
        while offset < size {
            do {
                switch try reader.step(at: offset) {
                case .end: break
                case .tornTail:
                    scan.tornTail = size - offset
                    offset = size
                    continue
                case .frame(let frame):
                    let layout = try reader.layout(frame)
                    let ok = try reader.withPayload(frame) { raw -> Bool in
                        guard let events = CommitRecord.events(raw, layout: layout),
                            let legacy = CommitRecord.legacyEvents(raw, layout: layout)
                        else { return false }
                        var latest: [(Transaction, Int)] = []
                        for i in layout.finals {
                            guard let t = CommitRecord.transaction(raw, layout: layout, version: i) else { return false }
                            latest.append((t, layout.versionPrefix(i)))
                        }
                        for e in legacy { scan.events.append(.legacy(seq: e.seq, json: e.json)) }
                        for e in events { scan.events.append(.event(e)) }
                        for (t, position) in latest {
                            scan.latest[t.id.rawValue] = t
                            scan.locations[t.id.rawValue] = .init(frame: offset, position: UInt32(position))
                        }
                        if state != nil, !CommitRecord.fold(raw, layout: layout, into: &state!) { return false }
                        return true
                    }
                    guard ok else {
                        throw StoreError.damaged(path: journal.path, problem: "frame at byte \(offset): malformed commit record")
                    }
                    scan.frames += 1
                    scan.frameStarts.insert(offset)
                    offset = frame.next
                    if scan.problem == nil { scan.validEnd = offset }
                }
                if offset >= size { break }
            } catch {
                if scan.problem == nil { scan.problem = problem(error, file: journal.path) }
                state = nil
                guard resync else { break }
                offset += 1
                scan.skippedBytes += 1
            }
        }
        scan.folded = state
        return scan
    }

    /// Reads the records of a format-1 journal (iapctl 0.1.0); with `resync`, skips damage.
    static func legacyScan(_ journal: LegacyJournal, limit: UInt64, resync: Bool) -> Scan {
        var scan = Scan()
        scan.validEnd = LegacyJournal.headerSize
        var reader = LegacyJournalReader(journal: journal, limit: limit)
        var offset = LegacyJournal.headerSize
        while offset < limit {
            do {
                let r = try reader.record(at: offset)
                switch r.type {
                case .transaction:
                    guard let t = reader.withPayload(r, TransactionRecordCodec.decode) else {
                        throw StoreError.damaged(path: journal.path, problem: "record at byte \(offset): malformed transaction")
                    }
                    scan.latest[t.id.rawValue] = t
                case .event:
                    let payload = Array(reader.payload(r))
                    guard payload.count > 8 else {
                        throw StoreError.damaged(path: journal.path, problem: "record at byte \(offset): malformed event")
                    }
                    var seq: UInt64 = 0
                    for i in 0..<8 { seq |= UInt64(payload[i]) << UInt64(8 * i) }
                    scan.events.append(.legacy(seq: seq, json: Array(payload[8...])))
                }
                offset = r.next
                if scan.problem == nil { scan.validEnd = offset }
            } catch {
                if scan.problem == nil { scan.problem = problem(error, file: journal.path) }
                guard resync else { break }
                offset += 1
                scan.skippedBytes += 1
            }
        }
        return scan
    }

    /// Checks the store at `path` without changing it.
    public static func check(_ store: Store) -> Report {
        var report = Report()
        var stateFile: StateFile?
        var format = 2
        do {
            guard let f = try PosixFile.openForReading(store.statePath) else {
                report.bad(store.statePath, "missing: this is not an iapctl store (create one with 'iapctl init')")
                return report
            }
            let bytes = try f.readAll()
            format = try StateFile.format(of: bytes, path: store.statePath)
            if format == 1 {
                stateFile = try LegacyStore.decodeState(bytes, path: store.statePath)
                report.ok(
                    store.statePath,
                    "state is intact (store format 1, written by iapctl 0.1.0; the next write migrates it to format 2; \(stateFile!.state.queue.count) in queue)"
                )
            } else {
                stateFile = try StateFile.decode(bytes, path: store.statePath)
                report.ok(
                    store.statePath,
                    "state is intact (store format 2, checkpoint at journal byte \(stateFile!.journalLength), \(stateFile!.state.queue.count) in queue)"
                )
            }
        } catch {
            report.bad(store.statePath, problem(error, file: store.statePath))
        }
        do {
            guard let f = try PosixFile.openForReading(store.catalogPath) else {
                throw StoreError.damaged(path: store.catalogPath, problem: "missing")
            }
            let bytes = try ChecksummedFile.decode(try f.readAll(), kind: "catalog", maximumVersion: 1, path: store.catalogPath)
            if let stateFile, SHA256.hexDigest(bytes) != stateFile.catalogSHA256 {
                report.bad(store.catalogPath, "is not the catalog this store was created with")
            } else {
                let catalog = try StoreCatalog.Source(name: stateFile?.catalogName ?? "catalog", bytes: bytes, contentRoot: nil)
                    .parse()
                report.ok(store.catalogPath, "catalog is intact (\(catalog.products.count) products)")
                checkCatalogRecord(store, catalog: catalog, sourceSHA256: SHA256.hexDigest(bytes), into: &report)
            }
        } catch {
            report.bad(store.catalogPath, problem(error, file: store.catalogPath))
        }
        if format == 1 {
            checkLegacyJournal(store, stateFile, into: &report)
        } else {
            checkJournal(store, stateFile, into: &report)
        }
        return report
    }

    /// `catalog.bin` must decode and hold exactly the catalog its JSON copy holds; a store
    /// without one (format 1, or older) gets it from its next write.
    private static func checkCatalogRecord(_ store: Store, catalog: Catalog, sourceSHA256: String, into report: inout Report) {
        let path = store.catalogRecordPath
        do {
            guard let f = try PosixFile.openForReading(path) else {
                report.ok(path, "no catalog record yet (the next write makes it from the catalog)")
                return
            }
            let (record, sha) = try CatalogRecord.decode(try f.readAll(), path: path)
            if sha != sourceSHA256 || record.products != catalog.products
                || record.settings.map({ [$0.key, $0.value] }) != catalog.settings.map({ [$0.key, $0.value] })
                || record.offerKeys != catalog.offerKeys
            {
                report.bad(path, "does not hold the store's catalog")
            } else {
                report.ok(path, "catalog record is intact")
            }
        } catch {
            report.bad(path, problem(error, file: path))
        }
    }

    private static func checkLegacyJournal(_ store: Store, _ stateFile: StateFile?, into report: inout Report) {
        guard let journalFile = try? PosixFile.openForReading(store.journalPath) else {
            report.bad(store.journalPath, "missing")
            return
        }
        let journal = LegacyJournal(file: journalFile)
        let size = (try? journalFile.size()) ?? 0
        do {
            try journal.validate(committedLength: min(stateFile?.journalLength ?? 0, size))
        } catch {
            report.bad(store.journalPath, problem(error, file: store.journalPath))
            return
        }
        let committed = stateFile?.journalLength ?? size
        if size < committed {
            report.bad(store.journalPath, "truncated: the store committed \(committed) bytes but the file has \(size)")
        }
        let scan = legacyScan(journal, limit: min(size, committed), resync: false)
        if let problem = scan.problem {
            report.bad(store.journalPath, problem)
        } else {
            report.ok(store.journalPath, "\(scan.latest.count) transactions and \(scan.events.count) events, every record checks")
        }
        if let stateFile { StoreSigning.check(store, sha256: stateFile.state.signingSHA256, into: &report) }
        guard let stateFile, scan.problem == nil else { return }
        consistency(store, stateFile.state, scan, into: &report)
    }

    private static func checkJournal(_ store: Store, _ stateFile: StateFile?, into report: inout Report) {
        let journalPath = PosixFile.exists(store.migratedJournalPath) ? store.migratedJournalPath : store.journalPath
        guard let journalFile = try? PosixFile.openForReading(journalPath) else {
            report.bad(journalPath, "missing")
            return
        }
        let journal = Journal(file: journalFile)
        let size = (try? journalFile.size()) ?? 0
        do {
            try journal.validateHeader()
        } catch {
            report.bad(journalPath, problem(error, file: journalPath))
            return
        }
        let scan = scan(journal, size: size, resync: false)
        if let problem = scan.problem {
            report.bad(journalPath, problem)
        } else {
            report.ok(
                journalPath,
                "\(scan.frames) commits: \(scan.latest.count) transactions and \(scan.events.count) events, every frame checks")
        }
        if scan.tornTail > 0 {
            report.ok(
                journalPath,
                "\(scan.tornTail) bytes past the last commit (a command that did not commit); ignored, and cut at the next write")
        }
        if let stateFile { StoreSigning.check(store, sha256: stateFile.state.signingSHA256, into: &report) }
        guard let stateFile, scan.problem == nil else { return }
        if !scan.frameStarts.contains(stateFile.journalLength) && stateFile.journalLength != scan.validEnd {
            report.bad(
                store.statePath,
                "the checkpoint covers \(stateFile.journalLength) bytes of journal, which is not the end of a commit")
            return
        }
        // The state as a command loads it: the checkpoint and the frames after it. The queued
        // transactions it names by id are the journal's latest versions.
        var loaded = stateFile.state
        let latest = scan.latest
        loaded.attachQueueSource(PaymentQueue.Source { id in latest[id.rawValue] })
        var reader = JournalReader(journal: journal, size: scan.validEnd)
        var offset = stateFile.journalLength
        do {
            while offset < scan.validEnd {
                let frame = try reader.frame(at: offset)
                let layout = try reader.layout(frame)
                _ = try reader.withPayload(frame) { CommitRecord.fold($0, layout: layout, into: &loaded) }
                offset = frame.next
            }
        } catch {
            report.bad(journalPath, problem(error, file: journalPath))
            return
        }
        var consistent = consistency(store, loaded, scan, into: &report, quiet: true)
        if let folded = scan.folded, folded != loaded {
            report.bad(store.statePath, "the checkpoint differs from the state the whole journal folds to")
            consistent = false
        }
        if consistent { report.ok(store.statePath, "state agrees with the journal") }
        do {
            let index = try TransactionIndex(path: store.indexPath, journal: journal, committedLength: scan.validEnd)
            var stale = 0
            for (id, location) in scan.locations where try index.offset(of: TransactionID(id), mustExist: true) != location {
                stale += 1
            }
            if index.rebuilt || stale > 0 {
                report.ok(store.indexPath, "index was damaged or stale (\(stale) slots); it is derived and rebuilt automatically")
            } else {
                report.ok(store.indexPath, "index agrees with the journal")
            }
        } catch {
            report.ok(
                store.indexPath,
                "index unreadable (\(problem(error, file: store.indexPath))); it is derived and rebuilt automatically")
        }
    }

    /// The checks every format shares: events numbered 1 to N, no transaction past the counter,
    /// the queue equal to the unfinished transactions.
    @discardableResult
    private static func consistency(
        _ store: Store, _ state: StoreState, _ scan: Scan, into report: inout Report, quiet: Bool = false
    ) -> Bool {
        var consistent = true
        let seqs = scan.events.map(\.seq)
        if seqs != Array(1..<max(1, state.nextEventSeq)) {
            report.bad(store.journalPath, "events are not numbered 1 to \(state.nextEventSeq - 1) without gaps")
            consistent = false
        }
        if let maxID = scan.latest.keys.max(), maxID >= state.nextTransactionID.rawValue {
            report.bad(store.journalPath, "holds transaction \(maxID), beyond the state's counter \(state.nextTransactionID)")
            consistent = false
        }
        let unfinished = scan.latest.values.filter { $0.isInQueue }.sorted { $0.id < $1.id }
        if unfinished.map(\.id) != state.queue.ids || unfinished != state.queue {
            report.bad(
                store.statePath,
                "the queue (\(state.queue.count)) differs from the journal's unfinished transactions (\(unfinished.count))")
            consistent = false
        }
        if consistent && !quiet { report.ok(store.statePath, "state agrees with the journal") }
        return consistent
    }

    /// What `salvage` recovered.
    public struct SalvageReport: Sendable {
        public var transactions = 0
        public var events = 0
        public var notes: [String] = []
    }

    /// Writes a new store at `destination` from every valid part of `store`: the catalog copy (or
    /// the built-in catalog when it is damaged), the latest valid version of each transaction,
    /// the valid events (numbered again from 1 when some were lost), and the state (the
    /// checkpoint and journal when they agree, else rebuilt from the journal). The new store is
    /// written as any store is: its first commit (`Store.writeFirstCommit`) and a checkpoint of it, so
    /// `doctor` finds it clean.
    public static func salvage(_ store: Store, into destination: Store) throws(StoreError) -> SalvageReport {
        var report = SalvageReport()
        guard !destination.exists else {
            throw .refused(.salvageOverStore(path: destination.path))
        }
        _ = try destination.presence()
        let stateBytes = (try? PosixFile.openForReading(store.statePath)).flatMap { $0 }.flatMap { try? $0.readAll() }
        let format = stateBytes.flatMap { try? StateFile.format(of: $0, path: store.statePath) } ?? 2
        let stateFile = stateBytes.flatMap { bytes in
            format == 1
                ? try? LegacyStore.decodeState(bytes, path: store.statePath) : try? StateFile.decode(bytes, path: store.statePath)
        }
        if stateFile == nil {
            report.notes.append(
                "state file unusable: counters, queue and ownership rebuilt from the journal; settings reset to defaults")
        }
        var source = StoreCatalog.Source.init(name: BuiltinCatalog.name, bytes: BuiltinCatalog.bytes, contentRoot: nil)
        if let f = try? PosixFile.openForReading(store.catalogPath), let raw = try? f.readAll(),
            let bytes = try? ChecksummedFile.decode(raw, kind: "catalog", maximumVersion: 1, path: store.catalogPath),
            (try? StoreCatalog.Source(name: stateFile?.catalogName ?? "salvaged", bytes: bytes, contentRoot: nil).parse()) != nil
        {
            source = StoreCatalog.Source(name: stateFile?.catalogName ?? "salvaged", bytes: bytes, contentRoot: nil)
        } else {
            report.notes.append("catalog copy unusable: the new store uses the built-in catalog")
        }
        var scan = Scan()
        let journalPath =
            PosixFile.exists(store.migratedJournalPath) && format == 2 ? store.migratedJournalPath : store.journalPath
        if let f = try PosixFile.openForReading(journalPath) {
            let header = (try? f.read(at: 0, count: 16)) ?? []
            if Journal.version(ofHeader: header) == 1 {
                scan = Doctor.legacyScan(LegacyJournal(file: f), limit: try f.size(), resync: true)
            } else {
                scan = Doctor.scan(Journal(file: f), size: try f.size(), resync: true)
            }
            if let problem = scan.problem {
                report.notes.append("journal: \(problem); skipped \(scan.skippedBytes) damaged bytes")
            }
        } else {
            report.notes.append("journal missing: no history to recover")
        }
        // The working state: exact when nothing was lost, else the best available, corrected below.
        var state: StoreState
        if let stateFile, format == 1 {
            state = stateFile.state
        } else if let folded = scan.folded {
            state = folded
        } else {
            state = stateFile?.state ?? StoreState()
        }
        let transactions = scan.latest.values.sorted { $0.id < $1.id }
        var seenSeq = Set<UInt64>()
        var events = scan.events.filter { seenSeq.insert($0.seq).inserted }.sorted { $0.seq < $1.seq }
        if events.map(\.seq) != Array(1..<(UInt64(events.count) + 1)) {
            report.notes.append("events renumbered from 1: some were lost with the damaged part of the journal")
            events = events.enumerated().map { i, e in renumbered(e, seq: UInt64(i) + 1) }
        }
        state.nextEventSeq = UInt64(events.count) + 1
        if let maxID = transactions.last?.id, maxID >= state.nextTransactionID { state.nextTransactionID = maxID.next }
        if stateFile == nil && scan.folded == nil {
            if let last = transactions.map(\.date).max(), last > state.clock { state.clock = last }
            for t in transactions where t.charged && t.productType.isRestorable && state.ownership[t.productID] == nil {
                state.ownership[t.productID] = .init(originalID: t.originalID, originalDate: t.originalDate, userID: t.userID)
            }
        }
        state.replaceQueue(with: [])
        // Write the new store: catalog, signing chain, then the journal's one commit and the
        // checkpoint of it.
        try PosixFile.makeStoreDirectory(destination.path)
        state.signingSHA256 = try StoreSigning.salvage(
            from: store, into: destination, sha256: state.signingSHA256, notes: &report.notes)
        try PosixFile.replaceAtomically(
            destination.catalogPath, with: ChecksummedFile.encode(kind: "catalog", version: 1, body: source.bytes),
            directory: destination.path)
        try destination.writeCatalogRecord(try source.parse(), sourceSHA256: SHA256.hexDigest(source.bytes))
        var effects = Effects()
        for t in transactions { effects.record(t) }
        var typed: [Event] = []
        var legacy: [(seq: UInt64, json: [UInt8])] = []
        for e in events {
            switch e {
            case .event(let event): typed.append(event)
            case .legacy(let seq, let json): legacy.append((seq, json))
            }
        }
        effects.appendEvents(typed)
        var withQueue = state
        withQueue.replaceQueue(with: transactions.filter { $0.isInQueue })
        let length = try destination.writeFirstCommit(
            effects, legacyEvents: legacy, to: destination.journalPath, state: state)
        let newState = StateFile(
            journalLength: length, catalogName: source.name, catalogSHA256: SHA256.hexDigest(source.bytes),
            state: withQueue)
        try PosixFile.replaceAtomically(destination.statePath, with: newState.encoded(), directory: destination.path)
        report.transactions = transactions.count
        report.events = events.count
        return report
    }

    /// An event with another `seq`: typed ones are rebuilt; a format-1 event's JSON starts
    /// `{"seq":N,` and only that number changes.
    static func renumbered(_ e: SessionEvent, seq: UInt64) -> SessionEvent {
        switch e {
        case .event(let event): return .event(Event(seq: seq, date: event.date, kind: event.kind))
        case .legacy(_, let json):
            let prefix = Array(#"{"seq":"#.utf8)
            guard json.starts(with: prefix), let comma = json.firstIndex(of: UInt8(ascii: ",")) else {
                return .legacy(seq: seq, json: json)
            }
            return .legacy(seq: seq, json: prefix + Array(String(seq).utf8) + json[comma...])
        }
    }
}
