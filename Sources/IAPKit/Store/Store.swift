import IAPCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store directory: where one simulated App Store account's purchases live.
///
/// Files (all mode 0600, directory 0700), store format 2 (docs/store.md):
/// - `journal`: one checksummed frame per commit, append-only: the transaction versions, events
///   and state changes of the command. Appending a frame and syncing it is the commit point;
/// - `state`: a checkpoint, the working state as of some length of the journal; rewritten
///   atomically when the journal has grown `checkpointBound(stateSize:)` bytes past it;
/// - `transactions.idx`: where each transaction's latest version is (derived, rebuildable);
/// - `catalog`: the catalog the store was created with (checksummed copy);
/// - `catalog.bin`: that catalog as a binary record (`CatalogRecord`), what commands load;
/// - `lock`: `flock`ed exclusively by writers and shared by readers.
///
/// Loading reads the checkpoint and folds the frames after it. A command killed at any point
/// leaves its frame whole (committed) or short (a torn tail: ignored, and cut by the next
/// writer). A format-1 store (iapctl 0.1.0) is read as it is and migrated by its first write.
public final class Store {
    public let path: String
    public var lockTimeout: Double
    /// Non-fatal findings while loading (an index rebuilt from the journal), for stderr.
    public private(set) var warnings: [String] = []
    /// Keep the last writing session and reuse it for the next read or write on this object, as
    /// long as the files show that nothing else committed since (`iapctl run`: one process runs
    /// many command lines, and loading the catalog and the checkpoint for each would dominate).
    /// The lock is still taken for every command, so other processes may use the store between
    /// lines (unless `holdsLock`).
    public var keepsSession = false
    /// False: commits are appended but not `fdatasync`ed, nor checkpoints made durable. Only for
    /// a temporary store deleted at the end (`iapctl run` without `--store`), whose result has to
    /// be right but need not survive a crash.
    public var syncs = true
    /// Take the exclusive lock at the first command and hold it until `release()`, trusting the
    /// kept session without looking at the files between commands: for a store no other process
    /// uses (`iapctl run`'s temporary store, which only the run knows), so none can commit between
    /// lines. Every read and write of this object then runs under that one lock.
    public var holdsLock = false
    private var heldLock: FileLock?
    /// The kept session and the files as it left them (no stamp under a held lock).
    private var kept: (session: StoreSession, stamp: FileStamp?)?

    /// Lets go of the held lock and the kept session (the end of `iapctl run`); the next command
    /// on this object loads the store again.
    public func release() {
        kept = nil
        heldLock = nil
    }

    /// The lock for one command: a new one (held by the caller for the command), or nil when this
    /// object holds the store's lock already, or now takes it to hold (`holdsLock`: exclusive,
    /// for reads too, since a shared `flock` on another descriptor would wait for our own).
    private func lock(_ mode: FileLock.Mode) throws(StoreError) -> FileLock? {
        if heldLock != nil { return nil }
        let lock = try FileLock.acquire(lockPath, mode: holdsLock ? .exclusive : mode, timeout: lockTimeout, storePath: path)
        guard holdsLock else { return lock }
        heldLock = lock
        return nil
    }

    /// The warnings not yet reported, handed over once (a `Store` used for many commands reports
    /// each only after the command that caused it).
    public func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    /// What says a kept session is still the store: the checkpoint file's identity and the
    /// journal's length (every commit appends; a checkpoint replaces `state`).
    private struct FileStamp: Equatable {
        var stateInode: UInt64
        var stateSize: Int64
        var stateModified: Int64
        var journalSize: Int64
    }

    private func stamp() -> FileStamp? {
        var s = stat()
        var j = stat()
        guard stat(statePath, &s) == 0, stat(journalPath, &j) == 0 else { return nil }
        return FileStamp(
            stateInode: UInt64(s.st_ino), stateSize: Int64(s.st_size),
            stateModified: Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec), journalSize: Int64(j.st_size))
    }

    /// The kept session, if it is still the committed store.
    private func keptSession(_ options: StoreCreation) -> StoreSession? {
        guard keepsSession, options.catalogFile == nil, let kept else {
            kept = nil
            return nil
        }
        // Under a held lock nobody else can have committed: no files to look at.
        if heldLock != nil { return kept.session }
        guard let now = stamp(), now == kept.stamp else {
            self.kept = nil
            return nil
        }
        return kept.session
    }

    // The store's files, joined to `path` once: a command names each several times (its
    // checks, its opens, its messages), and every join was a string allocated and freed.
    let statePath: String
    let journalPath: String
    let indexPath: String
    let catalogPath: String
    let catalogRecordPath: String
    let lockPath: String
    /// A migration's new journal, until it is renamed over `journal` (see `migrate`).
    let migratedJournalPath: String

    /// The journal grows at most this far past the checkpoint before `state` is rewritten: twice
    /// the checkpoint's own size, at least 4 KB and at most 32 KB. Every command replays the tail
    /// (about five thousand instructions a commit: each frame checked, its state delta applied,
    /// its transactions' queue membership read, `CommitRecord.foldQueue`), and a checkpoint
    /// costs about its size, so a small state is rewritten often (a `buy` on a young store
    /// replays at most some 25 commits instead of 200) and a large one, whose queue is kept by
    /// id, waits for 32 KB.
    static func checkpointBound(stateSize: Int) -> UInt64 {
        min(32 << 10, max(4 << 10, 2 * UInt64(max(stateSize, 0))))
    }
    let contentPath: String
    let signingPath: String

    public init(path: String, lockTimeout: Double = 10) {
        let path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.path = path
        self.lockTimeout = lockTimeout
        statePath = path + "/state"
        journalPath = path + "/journal"
        indexPath = path + "/transactions.idx"
        catalogPath = path + "/catalog"
        catalogRecordPath = path + "/catalog.bin"
        lockPath = path + "/lock"
        migratedJournalPath = path + "/journal.v2"
        contentPath = path + "/catalog-content"
        signingPath = path + "/signing"
    }

    /// Whether a store has been created here.
    public var exists: Bool { PosixFile.exists(statePath) }

    /// The files a store directory may hold; anything else means the directory is not a store.
    static let storeFiles: Set<String> = [
        "state", "state.tmp", "journal", "journal.v2", "transactions.idx", "catalog", "catalog.tmp", "catalog.bin",
        "catalog.bin.tmp", "lock", "signing", "signing.tmp", "catalog-content", "content",
    ]

    /// What is at the store's path: a store, or nothing yet (missing, or a directory with no
    /// files but a store's own). Throws for a path that cannot be a store: empty, not a
    /// directory, a directory of other files, a store file that is a link. Changes nothing.
    public func presence() throws(StoreError) -> Presence {
        try examine().presence
    }

    /// `presence()`, and the mode of the directory when there is one (a writer that finds a
    /// store in a 0700 directory has nothing to create or fix: `PosixFile.makeStoreDirectory`).
    private func examine() throws(StoreError) -> (presence: Presence, directoryMode: mode_t?) {
        guard !path.isEmpty else { throw .storePath(.empty) }
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT { return (.missing, nil) }
            if errno == ENOTDIR { throw .storePath(.notADirectory(path)) }
            throw .unreadable(path: path, reason: PosixFile.errnoText())
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .storePath(.notADirectory(path)) }
        for file in [
            statePath, journalPath, migratedJournalPath, catalogPath, catalogRecordPath, lockPath, indexPath, signingPath,
        ] {
            var l = stat()
            if lstat(file, &l) == 0, (l.st_mode & S_IFMT) != S_IFREG { throw .storePath(.notARegularFile(file)) }
        }
        if exists { return (.store, st.st_mode) }
        if let other = PosixFile.entries(of: path).first(where: { !Store.storeFiles.contains($0) }) {
            throw .storePath(.notAStore(path, entry: other))
        }
        return (.missing, st.st_mode)
    }

    public enum Presence: Sendable {
        case store
        /// No store yet: no directory, or one holding no files but a store's own.
        case missing
    }

    // MARK: - Creating

    /// Creates the store; with `force`, replaces an existing one. Without it, an existing store
    /// is an error: a store is never replaced silently.
    public func create(_ options: StoreCreation, force: Bool) throws(StoreError) {
        _ = try presence()
        try PosixFile.makeStoreDirectory(path)
        let lock = try lock(.exclusive)
        defer { withExtendedLifetime(lock) {} }
        // Whatever session was kept is of the store being replaced.
        kept = nil
        if exists {
            guard force else {
                throw .refused(.storeExists(path: path))
            }
            // Removing the state first makes the old store uninitialized, never half-replaced.
            guard unlink(statePath) == 0 else { throw .io(path: statePath, reason: PosixFile.errnoText()) }
            try PosixFile.syncDirectory(path)
        }
        try initialize(options)
    }

    /// A new store, in memory: its catalog source and catalog, and the state and effects of its
    /// first commands, applied through the machine as any change is: `createStore` (the app,
    /// the clock, the signing chain), `applyCatalogSettings` (the catalog's settings and
    /// faults), `init --storefront` as `config set storefront`, and the catalog's subscription
    /// offer keys (Xcode's subscriptionOffersKeyPair) as `offer-key add` adds them. Every check
    /// runs here, before a file is written.
    private func creation(_ options: StoreCreation) throws(StoreError) -> (StoreCatalog.Source, Catalog, StoreState, Effects) {
        let source = try StoreCatalog.Source.read(options.catalogFile)
        let catalog = StoreCatalog.measure(try source.parse(), source: source, contentPath: contentPath)
        let origin = StoreOrigin(
            catalog: source.name, catalogSHA256: SHA256.hexDigest(source.bytes), bundleID: options.bundleID,
            appVersion: options.appVersion, start: options.start,
            signingSHA256: options.signing.map { SHA256.hexDigest($0.storeFileBody) })
        var commands: [Command] = [
            .createStore(origin),
            .applyCatalogSettings(catalog.settings, catalog: source.name),
        ]
        if let storefront = options.storefront {
            commands.append(.setSetting(key: SettingKey.storefront.rawValue, value: storefront))
        }
        for key in catalog.offerKeys { commands.append(.addOfferKey(OfferKeyRecord(key, origin: .catalog))) }
        var machine = Machine(catalog: catalog, state: StoreState())
        var effects = Effects()
        for command in commands { effects.merge(try machine.apply(command, archive: MemoryArchive())) }
        return (source, catalog, machine.state, effects)
    }

    /// Writes a fresh store: catalog, signing chain, empty index, and last its first commit
    /// (`writeFirstCommit`) and the checkpoint of it.
    private func initialize(_ options: StoreCreation) throws(StoreError) {
        let (source, catalog, state, effects) = try creation(options)
        if source.contentRoot != nil {
            try StoreCatalog.copyContent(of: catalog, from: source, into: contentPath)
        }
        try PosixFile.replaceAtomically(
            catalogPath, with: ChecksummedFile.encode(kind: "catalog", version: 1, body: source.bytes), directory: path)
        try writeCatalogRecord(catalog, sourceSHA256: SHA256.hexDigest(source.bytes))
        // The digest `creation` gave `createStore` (the state's signingSHA256) is this one.
        _ = try StoreSigning.install(options.signing, in: self)
        unlink(indexPath)
        unlink(migratedJournalPath)
        let length = try writeFirstCommit(effects, to: journalPath, state: state)
        let stateFile = StateFile(
            journalLength: length, catalogName: source.name, catalogSHA256: SHA256.hexDigest(source.bytes), state: state)
        try PosixFile.replaceAtomically(statePath, with: stateFile.encoded(), directory: path)
    }

    /// The one way a journal begins, for a new store, a migrated one and a salvaged one: the
    /// header and one commit frame (`CommitRecord`) of `effects` (and format-1 events) with every
    /// field of `state`, so folding the whole journal from the base state gives the store's
    /// state; written and synced. Returns the journal's length, for the checkpoint that follows.
    func writeFirstCommit(
        _ effects: Effects, legacyEvents: [(seq: UInt64, json: [UInt8])] = [], to journalPath: String, state: StoreState
    ) throws(StoreError) -> UInt64 {
        let (payload, _) = CommitRecord.encode(effects: effects, legacyEvents: legacyEvents, from: nil, to: state)
        let bytes = Journal.headerBytes() + Journal.frame(payload: payload)
        let journal = try PosixFile.openForWriting(journalPath, truncate: true)
        try journal.write(bytes, at: 0)
        try journal.sync()
        return UInt64(bytes.count)
    }

    // MARK: - Format 1

    /// Turns a format-1 store into format 2, under the exclusive lock: a new journal whose one
    /// frame holds every latest transaction version, every event (as the JSON 0.1.0 wrote) and
    /// the whole state, then a checkpoint of it over `state` (the commit point of the
    /// migration), then the new journal renamed over the old one. Killed before the checkpoint,
    /// the store is still format 1 (the half-written `journal.v2` is ignored and rewritten);
    /// killed after it, loading finishes the rename.
    func migrate(_ legacy: LegacyStore) throws(StoreError) {
        var effects = Effects()
        for key in legacy.transactions.keys.sorted() { effects.record(legacy.transactions[key]!) }
        let length = try writeFirstCommit(
            effects, legacyEvents: legacy.events, to: migratedJournalPath, state: legacy.stateFile.state)
        unlink(indexPath)
        var checkpoint = legacy.stateFile
        checkpoint.journalLength = length
        try PosixFile.replaceAtomically(statePath, with: checkpoint.encoded(), directory: path)
        try finishMigration()
    }

    /// The last step of `migrate`: the new journal takes the old one's name.
    func finishMigration() throws(StoreError) {
        CrashInjection.step()
        guard rename(migratedJournalPath, journalPath) == 0 else {
            throw .io(path: journalPath, reason: PosixFile.errnoText())
        }
        try PosixFile.syncDirectory(path)
    }

    // MARK: - Sessions

    /// Runs `body` with the store loaded under a shared lock: many readers at once, never while a
    /// writer is between its first write and its commit. Reading never creates or changes a
    /// file: where no store exists yet, `body` sees the empty store that `options` would create
    /// (in memory), and a warning says so.
    public func read<R>(creating options: StoreCreation = StoreCreation(), _ body: (StoreSession) throws(StoreError) -> R)
        throws(StoreError) -> R
    {
        if try presence() == .missing {
            let session = try emptySession(options)
            warnings.append(
                "no store at \(path): showing the empty store it would be, on catalog \(session.catalogName) (create it with 'iapctl init' or any command that writes)"
            )
            return try Self.run(body, session)
        }
        let lock = try lock(.shared)
        defer { withExtendedLifetime(lock) {} }
        if let session = keptSession(options) { return try Self.run(body, session) }
        let session = try load(writable: false, options: options)
        defer { warnings += session.warnings }
        return try Self.run(body, session)
    }

    /// Runs `body` with the store loaded under the exclusive lock; each `session.apply` commits.
    public func write<R>(creating options: StoreCreation = StoreCreation(), _ body: (StoreSession) throws(StoreError) -> R)
        throws(StoreError) -> R
    {
        // A temporary store nobody else knows (`syncs` false: `iapctl run`'s own) that this
        // object already holds a session for was checked when it was made: skip the path checks.
        let privateAndKept = (!syncs || heldLock != nil) && kept != nil
        if !privateAndKept {
            let found = try examine()
            if found.presence == .missing || found.directoryMode.map({ $0 & 0o777 != 0o700 }) ?? true {
                try PosixFile.makeStoreDirectory(path)
            }
        }
        let lock = try lock(.exclusive)
        defer { withExtendedLifetime(lock) {} }
        if !privateAndKept && !exists { try initialize(options) }
        if let session = keptSession(options) {
            defer { keep(session) }
            return try Self.run(body, session)
        }
        let session = try load(writable: true, options: options)
        if keepsSession && session.format == 2 {
            defer { keep(session) }
            return try Self.run(body, session)
        }
        if session.format == 1, let legacy = session.legacy {
            try migrate(legacy)
            let migrated = try load(writable: true, options: options)
            defer { warnings += migrated.warnings }
            return try Self.run(body, migrated)
        }
        defer { warnings += session.warnings }
        return try Self.run(body, session)
    }

    /// Runs `body`, then throws a failed read of a queued transaction (`PaymentQueue`'s
    /// subscript records it instead of trapping), so a result computed from it is never returned.
    private static func run<R>(_ body: (StoreSession) throws(StoreError) -> R, _ session: StoreSession) throws(StoreError)
        -> R
    {
        let result: R
        do {
            result = try body(session)
        } catch {
            // A failure the stand-in caused is reported as the damage behind it.
            throw session.queueReadFailure ?? error
        }
        if let failure = session.queueReadFailure { throw failure }
        return result
    }

    /// Keeps `session` for the next command, stamped with the files as it left them.
    /// A session that failed to read a queued transaction (a damaged journal) is not kept: the
    /// next command loads afresh and meets the damage itself.
    private func keep(_ session: StoreSession) {
        warnings += session.takeWarnings()
        guard session.queueReadFailure == nil else {
            kept = nil
            return
        }
        if heldLock != nil {
            kept = (session, nil)
        } else {
            kept = stamp().map { (session, $0) }
        }
    }

    /// The store `options` would create, in memory only.
    private func emptySession(_ options: StoreCreation) throws(StoreError) -> StoreSession {
        let (source, catalog, state, _) = try creation(options)
        let stateFile = StateFile(
            journalLength: 0, catalogName: source.name, catalogSHA256: SHA256.hexDigest(source.bytes), state: state)
        return try StoreSession(
            store: self, legacy: LegacyStore(stateFile: stateFile), catalog: catalog, writable: false, format: 0)
    }

    func load(writable: Bool, options: StoreCreation) throws(StoreError) -> StoreSession {
        guard let stateHandle = try PosixFile.openForReading(statePath) else {
            throw .damaged(path: statePath, problem: "missing")
        }
        let stateBytes = try stateHandle.readAll()
        // A format-1 store (the first release's) is read whole, by its own path.
        if try StateFile.format(of: stateBytes, path: statePath) == 1 {
            let legacy = try LegacyStore.load(stateBytes: stateBytes, statePath: statePath, journalPath: journalPath)
            let catalog = try loadCatalog(for: legacy.stateFile, writable: writable, options: options)
            return try StoreSession(store: self, legacy: legacy, catalog: catalog, writable: writable)
        }
        let stateFile = try StateFile.decode(stateBytes, path: statePath)
        let catalog = try loadCatalog(for: stateFile, writable: writable, options: options)
        if PosixFile.exists(migratedJournalPath) {
            // A migration committed its checkpoint and was stopped before renaming its journal.
            if writable {
                try finishMigration()
            } else {
                return try open(
                    journalPath: migratedJournalPath, stateFile: stateFile, stateSize: stateBytes.count, catalog: catalog,
                    writable: false)
            }
        }
        return try open(
            journalPath: journalPath, stateFile: stateFile, stateSize: stateBytes.count, catalog: catalog, writable: writable)
    }

    /// The catalog a store's checkpoint names, checked against `options.catalogFile` when one is
    /// given (a store is bound to the catalog it was made with).
    private func loadCatalog(for stateFile: StateFile, writable: Bool, options: StoreCreation) throws(StoreError) -> Catalog {
        guard let catalogHandle = try PosixFile.openForReading(catalogPath) else {
            throw .damaged(path: catalogPath, problem: "missing; the store cannot know its products")
        }
        // The JSON copy is checked (its CRC, a few thousand instructions) but neither copied
        // out, parsed nor hashed when the binary record is there: a damaged copy is still
        // refused (SPEC 6).
        let catalogFile = try catalogHandle.readAll()
        let catalogBody = try ChecksummedFile.body(of: catalogFile, kind: "catalog", maximumVersion: 1, path: catalogPath)
        if let wanted = options.catalogFile {
            let given = try StoreCatalog.Source.read(wanted)
            guard SHA256.hexDigest(given.bytes) == stateFile.catalogSHA256 else {
                // Suggest a new store only with a catalog that a new store would accept.
                var scratch = Machine(catalog: try given.parse(), state: StoreState())
                _ = try scratch.apply(
                    .applyCatalogSettings(
                        scratch.catalog.settings, catalog: given.name),
                    archive: MemoryArchive())
                let command = ["iapctl", "--store", path, "init", "--force", "--catalog", wanted].map(ShellWord.quoted)
                throw .badArgument(
                    .otherCatalog(
                        store: path, bound: stateFile.catalogName, given: wanted, replace: command.joined(separator: " ")))
            }
        }
        return StoreCatalog.measure(
            try loadCatalog(stateFile, catalogFile: catalogFile, body: catalogBody, writable: writable),
            source: StoreCatalog.Source(name: stateFile.catalogName, bytes: [], contentRoot: nil), contentPath: contentPath)
    }

    /// The store's catalog: from its binary record (`catalog.bin`: no JSON parsed, nothing
    /// hashed), or, for a store that has none yet (format 1, or made before the record), from
    /// the checksummed JSON copy, writing the record when the session may write. A record that is
    /// damaged or made from another catalog is refused (exit 65, naming it).
    private func loadCatalog(_ stateFile: StateFile, catalogFile: [UInt8], body: Range<Int>, writable: Bool)
        throws(StoreError) -> Catalog
    {
        if let handle = try PosixFile.openForReading(catalogRecordPath) {
            let record = try handle.readAll()
            let (catalog, sha) = try CatalogRecord.decode(record, path: catalogRecordPath, lazily: true)
            guard sha == stateFile.catalogSHA256 else {
                throw .damaged(path: catalogRecordPath, problem: "is not the record of this store's catalog")
            }
            // A version-1 record (older iapctl) is decoded whole; rewritten, it loads lazily.
            if writable,
                try ChecksummedFile.version(
                    of: record, kind: CatalogRecord.kind, maximumVersion: CatalogRecord.version, path: catalogRecordPath)
                    < CatalogRecord.version
            {
                try writeCatalogRecord(catalog, sourceSHA256: sha)
            }
            return catalog
        }
        let catalogBytes = Array(catalogFile[body])
        guard SHA256.hexDigest(catalogBytes) == stateFile.catalogSHA256 else {
            throw .damaged(path: catalogPath, problem: "is not the catalog this store was created with")
        }
        let source = StoreCatalog.Source(name: stateFile.catalogName, bytes: catalogBytes, contentRoot: nil)
        let catalog = try source.parse(file: "\(catalogPath) (from \(stateFile.catalogName))")
        if writable { try writeCatalogRecord(catalog, sourceSHA256: stateFile.catalogSHA256) }
        return catalog
    }

    /// Writes `catalog.bin` for the catalog whose JSON copy has digest `sourceSHA256`.
    func writeCatalogRecord(_ catalog: Catalog, sourceSHA256: String) throws(StoreError) {
        try PosixFile.replaceAtomically(
            catalogRecordPath, with: CatalogRecord.encode(catalog, sourceSHA256: sourceSHA256), directory: path,
            sync: syncs)
    }

    private func open(journalPath: String, stateFile: StateFile, stateSize: Int, catalog: Catalog, writable: Bool)
        throws(StoreError)
        -> StoreSession
    {
        let journalFile: PosixFile
        if writable {
            journalFile = try PosixFile.openForWriting(journalPath)
        } else {
            guard let f = try PosixFile.openForReading(journalPath) else { throw .damaged(path: journalPath, problem: "missing") }
            journalFile = f
        }
        let journal = Journal(file: journalFile)
        try journal.validateHeader()
        return try StoreSession(
            store: self, stateFile: stateFile, stateSize: stateSize, catalog: catalog, journal: journal, writable: writable)
    }
}
