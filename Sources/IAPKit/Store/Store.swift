import IAPCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store directory: where one simulated App Store account's purchases live.
///
/// Files (all mode 0600, directory 0700):
/// - `state`: the working state and the committed journal length; replaced atomically, and
///   replacing it is the commit point of a command;
/// - `journal`: every transaction version and event, append-only, checksummed per record;
/// - `transactions.idx`: where each transaction's latest version is (derived, rebuildable);
/// - `catalog`: the catalog the store was created with (checksummed copy);
/// - `lock`: `flock`ed exclusively by writers and shared by readers.
///
/// A command writes its records to the journal and syncs them, then writes the new state to a
/// temporary file, syncs it, renames it over `state` and syncs the directory. A command killed
/// at any point leaves either the old state (its journal tail is ignored and later cut) or the
/// new one.
public final class Store {
    public let path: String
    public var lockTimeout: Double
    /// Non-fatal findings while loading (an index rebuilt from the journal), for stderr.
    public private(set) var warnings: [String] = []

    var statePath: String { path + "/state" }
    var journalPath: String { path + "/journal" }
    var indexPath: String { path + "/transactions.idx" }
    var catalogPath: String { path + "/catalog" }
    var lockPath: String { path + "/lock" }
    var contentPath: String { path + "/catalog-content" }
    var signingPath: String { path + "/signing" }

    public init(path: String, lockTimeout: Double = 10) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.lockTimeout = lockTimeout
    }

    /// Whether a store has been created here.
    public var exists: Bool { PosixFile.exists(statePath) }

    // MARK: - Creating

    /// Creates the store; with `force`, replaces an existing one. Without it, an existing store
    /// is an error: a store is never replaced silently.
    public func create(_ options: StoreCreation, force: Bool) throws(StoreError) {
        try PosixFile.makeDirectory(path)
        let lock = try FileLock.acquire(lockPath, mode: .exclusive, timeout: lockTimeout, storePath: path)
        defer { withExtendedLifetime(lock) {} }
        if exists {
            guard force else {
                throw .notAllowed("a store already exists at \(path); pass --force to replace it (its transactions will be lost)")
            }
            // Removing the state first makes the old store uninitialized, never half-replaced.
            guard unlink(statePath) == 0 else { throw .io(path: statePath, reason: PosixFile.errnoText()) }
            try PosixFile.syncDirectory(path)
        }
        try initialize(options)
    }

    /// Writes a fresh store: catalog, empty journal, empty index, and last the state (commit).
    private func initialize(_ options: StoreCreation) throws(StoreError) {
        let source = try StoreCatalog.Source.read(options.catalogFile)
        var catalog = try source.parse()
        var state = StoreState(bundleID: options.bundleID, appVersion: options.appVersion, start: options.start)
        try StoreCatalog.apply(catalog.settings, to: &state, catalogName: source.name)
        if let storefront = options.storefront {
            try SettingKey.storefront.set(storefront, in: &state.settings)
        }
        if source.contentRoot != nil {
            try StoreCatalog.copyContent(of: catalog, from: source, into: contentPath)
        }
        catalog = StoreCatalog.measure(catalog, source: source, contentPath: contentPath)
        _ = catalog
        try PosixFile.replaceAtomically(
            catalogPath, with: ChecksummedFile.encode(kind: "catalog", version: 1, body: source.bytes), directory: path)
        state.signingSHA256 = try StoreSigning.install(options.signing, in: self)
        unlink(indexPath)
        let journal = try PosixFile.openForWriting(journalPath, truncate: true)
        try journal.write(Journal.headerBytes(), at: 0)
        try journal.sync()
        let stateFile = StateFile(
            journalLength: Journal.headerSize, catalogName: source.name, catalogSHA256: SHA256.hexDigest(source.bytes),
            state: state)
        try PosixFile.replaceAtomically(statePath, with: stateFile.encoded(), directory: path)
    }

    // MARK: - Sessions

    /// Runs `body` with the store loaded under a shared lock: many readers at once, never while a
    /// writer is between its first write and its commit. Creates the store on first use.
    public func read<R>(creating options: StoreCreation = StoreCreation(), _ body: (StoreSession) throws(StoreError) -> R)
        throws(StoreError) -> R
    {
        if !exists { try ensureCreated(options) }
        let lock = try FileLock.acquire(lockPath, mode: .shared, timeout: lockTimeout, storePath: path)
        defer { withExtendedLifetime(lock) {} }
        let session = try load(writable: false, options: options)
        defer { warnings += session.warnings }
        return try body(session)
    }

    /// Runs `body` with the store loaded under the exclusive lock; each `session.apply` commits.
    public func write<R>(creating options: StoreCreation = StoreCreation(), _ body: (StoreSession) throws(StoreError) -> R)
        throws(StoreError) -> R
    {
        try PosixFile.makeDirectory(path)
        let lock = try FileLock.acquire(lockPath, mode: .exclusive, timeout: lockTimeout, storePath: path)
        defer { withExtendedLifetime(lock) {} }
        if !exists { try initialize(options) }
        let session = try load(writable: true, options: options)
        defer { warnings += session.warnings }
        return try body(session)
    }

    private func ensureCreated(_ options: StoreCreation) throws(StoreError) {
        try PosixFile.makeDirectory(path)
        let lock = try FileLock.acquire(lockPath, mode: .exclusive, timeout: lockTimeout, storePath: path)
        defer { withExtendedLifetime(lock) {} }
        if !exists { try initialize(options) }
    }

    func load(writable: Bool, options: StoreCreation) throws(StoreError) -> StoreSession {
        guard let stateHandle = try PosixFile.openForReading(statePath) else {
            throw .damaged(path: statePath, problem: "missing")
        }
        let stateFile = try StateFile.decode(try stateHandle.readAll(), path: statePath)
        guard let catalogHandle = try PosixFile.openForReading(catalogPath) else {
            throw .damaged(path: catalogPath, problem: "missing; the store cannot know its products")
        }
        let catalogBytes = try ChecksummedFile.decode(
            try catalogHandle.readAll(), kind: "catalog", maximumVersion: 1, path: catalogPath)
        guard SHA256.hexDigest(catalogBytes) == stateFile.catalogSHA256 else {
            throw .damaged(path: catalogPath, problem: "is not the catalog this store was created with")
        }
        if let wanted = options.catalogFile {
            let given = try StoreCatalog.Source.read(wanted)
            guard SHA256.hexDigest(given.bytes) == stateFile.catalogSHA256 else {
                // Suggest a new store only with a catalog that a new store would accept.
                var scratch = StoreState()
                try StoreCatalog.apply(try given.parse().settings, to: &scratch, catalogName: given.name)
                let command = ["iapctl", "--store", path, "init", "--force", "--catalog", wanted].map(ShellWord.quoted)
                throw .usage(
                    "store \(path) is bound to catalog '\(stateFile.catalogName)', not \(wanted); drop --catalog to use the store as it is, or replace it with '\(command.joined(separator: " "))' (its transactions are lost)"
                )
            }
        }
        let source = StoreCatalog.Source(name: stateFile.catalogName, bytes: catalogBytes, contentRoot: nil)
        let catalog = StoreCatalog.measure(
            try source.parse(file: "\(catalogPath) (from \(stateFile.catalogName))"), source: source, contentPath: contentPath)
        let journalFile: PosixFile
        if writable {
            journalFile = try PosixFile.openForWriting(journalPath)
        } else {
            guard let f = try PosixFile.openForReading(journalPath) else { throw .damaged(path: journalPath, problem: "missing") }
            journalFile = f
        }
        let journal = Journal(file: journalFile)
        try journal.validate(committedLength: stateFile.journalLength)
        return try StoreSession(store: self, stateFile: stateFile, catalog: catalog, journal: journal, writable: writable)
    }
}
