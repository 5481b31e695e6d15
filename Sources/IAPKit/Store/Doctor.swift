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

    /// What a full scan of the journal found.
    struct Scan {
        var latest: [UInt64: Transaction] = [:]
        var latestOffset: [UInt64: UInt64] = [:]
        var events: [(seq: UInt64, json: [UInt8])] = []
        var validEnd: UInt64 = Journal.headerSize
        var problem: String?
        var skippedBytes: UInt64 = 0
    }

    /// Reads records from the header up to `limit`; with `resync`, skips damaged bytes looking
    /// for the next valid record instead of stopping.
    static func scan(_ journal: Journal, limit: UInt64, resync: Bool) -> Scan {
        var scan = Scan()
        var reader = JournalReader(journal: journal, limit: limit)
        var offset = Journal.headerSize
        while offset < limit {
            do {
                let r = try reader.record(at: offset)
                switch r.type {
                case .transaction:
                    guard let t = reader.withPayload(r, TransactionRecordCodec.decode) else {
                        throw StoreError.damaged(path: journal.path, problem: "record at byte \(offset): malformed transaction")
                    }
                    scan.latest[t.id.rawValue] = t
                    scan.latestOffset[t.id.rawValue] = offset
                case .event:
                    let payload = Array(reader.payload(r))
                    guard payload.count > 8 else {
                        throw StoreError.damaged(path: journal.path, problem: "record at byte \(offset): malformed event")
                    }
                    var seq: UInt64 = 0
                    for i in 0..<8 { seq |= UInt64(payload[i]) << UInt64(8 * i) }
                    scan.events.append((seq, Array(payload[8...])))
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
        do {
            guard let f = try PosixFile.openForReading(store.statePath) else {
                report.bad(store.statePath, "missing: this is not an iapctl store (create one with 'iapctl init')")
                return report
            }
            stateFile = try StateFile.decode(try f.readAll(), path: store.statePath)
            report.ok(store.statePath, "state is intact (format v\(StateFile.version), \(stateFile!.state.queue.count) in queue)")
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
            }
        } catch {
            report.bad(store.catalogPath, problem(error, file: store.catalogPath))
        }
        guard let journalFile = try? PosixFile.openForReading(store.journalPath) else {
            report.bad(store.journalPath, "missing")
            return report
        }
        let journal = Journal(file: journalFile)
        let size = (try? journalFile.size()) ?? 0
        do {
            try journal.validate(committedLength: min(stateFile?.journalLength ?? 0, size))
        } catch {
            report.bad(store.journalPath, problem(error, file: store.journalPath))
            return report
        }
        let committed = stateFile?.journalLength ?? size
        if size < committed {
            report.bad(store.journalPath, "truncated: the store committed \(committed) bytes but the file has \(size)")
        }
        let scan = scan(journal, limit: min(size, committed), resync: false)
        if let problem = scan.problem {
            report.bad(store.journalPath, problem)
        } else {
            report.ok(store.journalPath, "\(scan.latest.count) transactions and \(scan.events.count) events, every record checks")
        }
        if size > committed {
            report.ok(
                store.journalPath,
                "\(size - committed) bytes past the committed end (a command that did not commit); ignored, and cut at the next write"
            )
        }
        if let stateFile { StoreSigning.check(store, sha256: stateFile.state.signingSHA256, into: &report) }
        guard let stateFile, scan.problem == nil else { return report }
        let state = stateFile.state
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
        if unfinished != state.queue {
            report.bad(
                store.statePath,
                "the queue (\(state.queue.count)) differs from the journal's unfinished transactions (\(unfinished.count))")
            consistent = false
        }
        if consistent { report.ok(store.statePath, "state agrees with the journal") }
        do {
            let index = try TransactionIndex(path: store.indexPath, journal: journal, committedLength: committed)
            var stale = 0
            for (id, offset) in scan.latestOffset where try index.offset(of: TransactionID(id), mustExist: true) != offset {
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
        return report
    }

    /// What `salvage` recovered.
    public struct SalvageReport: Sendable {
        public var transactions = 0
        public var events = 0
        public var notes: [String] = []
    }

    /// Writes a new store at `destination` from every valid part of `store`: the catalog copy (or
    /// the built-in catalog when it is damaged), the latest valid version of each transaction,
    /// the valid events, and the state (rebuilt from the journal when the state file is damaged).
    public static func salvage(_ store: Store, into destination: Store) throws(StoreError) -> SalvageReport {
        var report = SalvageReport()
        guard !destination.exists else {
            throw .notAllowed("a store already exists at \(destination.path); salvage into a new directory")
        }
        let stateFile = (try? PosixFile.openForReading(store.statePath)).flatMap { $0 }.flatMap { f in
            (try? f.readAll()).flatMap { try? StateFile.decode($0, path: store.statePath) }
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
        if let f = try PosixFile.openForReading(store.journalPath) {
            let journal = Journal(file: f)
            scan = Doctor.scan(journal, limit: try f.size(), resync: true)
            if let problem = scan.problem {
                report.notes.append("journal: \(problem); skipped \(scan.skippedBytes) damaged bytes")
            }
        } else {
            report.notes.append("journal missing: no history to recover")
        }
        // Rebuild the working state.
        var state = stateFile?.state ?? StoreState()
        let transactions = scan.latest.values.sorted { $0.id < $1.id }
        var seenSeq = Set<UInt64>()
        let events = scan.events.filter { seenSeq.insert($0.seq).inserted }.sorted { $0.seq < $1.seq }
        if let maxID = transactions.last?.id, maxID >= state.nextTransactionID { state.nextTransactionID = maxID.next }
        if let maxSeq = events.last?.seq, maxSeq >= state.nextEventSeq { state.nextEventSeq = maxSeq + 1 }
        if stateFile == nil {
            if let last = transactions.map(\.date).max(), last > state.clock { state.clock = last }
            for t in transactions where t.charged && t.productType.isRestorable && state.ownership[t.productID] == nil {
                state.ownership[t.productID] = .init(originalID: t.originalID, originalDate: t.originalDate, userID: t.userID)
            }
        }
        state.replaceQueue(with: transactions.filter { $0.isInQueue })
        // Write the new store: catalog, journal, then state (the commit).
        try PosixFile.makeDirectory(destination.path)
        state.signingSHA256 = try StoreSigning.salvage(
            from: store, into: destination, sha256: state.signingSHA256, notes: &report.notes)
        try PosixFile.replaceAtomically(
            destination.catalogPath, with: ChecksummedFile.encode(kind: "catalog", version: 1, body: source.bytes),
            directory: destination.path)
        var frames = Journal.headerBytes()
        var w = ByteWriter(capacity: 256)
        for t in transactions {
            w.bytes.removeAll(keepingCapacity: true)
            TransactionRecordCodec.encode(t, into: &w)
            Journal.frame(.transaction, payload: w.bytes, into: &frames)
        }
        for e in events {
            w.bytes.removeAll(keepingCapacity: true)
            w.u64(e.seq)
            w.raw(e.json)
            Journal.frame(.event, payload: w.bytes, into: &frames)
        }
        let journal = try PosixFile.openForWriting(destination.journalPath, truncate: true)
        try journal.write(frames, at: 0)
        try journal.sync()
        let newState = StateFile(
            journalLength: UInt64(frames.count), catalogName: source.name, catalogSHA256: SHA256.hexDigest(source.bytes),
            state: state)
        try PosixFile.replaceAtomically(destination.statePath, with: newState.encoded(), directory: destination.path)
        report.transactions = transactions.count
        report.events = events.count
        return report
    }
}
