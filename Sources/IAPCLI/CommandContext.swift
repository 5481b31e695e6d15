import IAPJSON
import IAPKit

/// What a command gets to run: its parsed invocation, the consoles, the environment, and the
/// store it addresses (`--store`, else `$IAPCTL_STORE`, else `./.iapctl`).
final class CommandContext {
    let invocation: ParsedInvocation
    let stdout: Console
    let stderr: Console
    /// The process's environment, read on first use: a command line that names its store with
    /// `--store` and starts no child process never reads it.
    var environment: [String: String] {
        if let environmentRead { return environmentRead }
        let read = readEnvironment?() ?? [:]
        environmentRead = read
        return read
    }
    private var environmentRead: [String: String]?
    /// How to read it: `run`'s caller's closure, dropped when `run` returns (`forgetEnvironmentSource`).
    private var readEnvironment: (() -> [String: String])?
    /// Lines for stdin, when a command reads `-` (tests inject them).
    let standardInput: () -> [UInt8]

    /// The stores of a run of many command lines in one process (`iapctl run`), shared across
    /// them; nil for one command.
    let stores: StoreRegistry?

    init(
        invocation: ParsedInvocation, stdout: Console, stderr: Console,
        environment: @autoclosure @escaping () -> [String: String],
        standardInput: @escaping () -> [UInt8], stores: StoreRegistry? = nil
    ) {
        self.stores = stores
        self.invocation = invocation
        self.stdout = stdout
        self.stderr = stderr
        self.readEnvironment = environment
        self.standardInput = standardInput
    }

    /// Drops the closure the environment is read with, which must not outlive `run`.
    func forgetEnvironmentSource() { readEnvironment = nil }

    var json: Bool { invocation.globals.json }

    /// The store directory this invocation addresses.
    var storePath: String {
        if let s = invocation.globals.store { return s }
        if let s = environment["IAPCTL_STORE"], !s.isEmpty { return s }
        return "./.iapctl"
    }

    /// How long to wait for a busy store (`--lock-timeout`, default 10 seconds).
    var lockTimeout: Double { invocation.globals.lockTimeout ?? 10 }

    private var openedStore: Store?

    var store: Store {
        if let openedStore { return openedStore }
        let s = stores?.store(path: storePath, lockTimeout: lockTimeout) ?? Store(path: storePath, lockTimeout: lockTimeout)
        openedStore = s
        return s
    }

    /// How a store is created on first use: the `--catalog` given, else the built-in one.
    var creation: StoreCreation { StoreCreation(catalogFile: invocation.globals.catalog) }

    /// The catalog of the last session this command opened, so follow-up steps can decide
    /// without opening the store again.
    private(set) var lastCatalog: Catalog?
    /// The `auto-finish` setting of the last session this command opened (RMStore's pipeline
    /// runs after delivery when it is on).
    private(set) var lastAutoFinish = false

    /// Runs `body` in a writing session and prints the store's warnings afterwards.
    func write<R>(_ body: (StoreSession) throws(StoreError) -> R) throws(StoreError) -> R {
        defer { flushWarnings() }
        return try store.write(creating: creation) { s throws(StoreError) in
            lastCatalog = s.catalog
            lastAutoFinish = s.state.settings.autoFinish
            return try body(s)
        }
    }

    /// Runs `body` in a reading session and prints the store's warnings afterwards.
    func read<R>(_ body: (StoreSession) throws(StoreError) -> R) throws(StoreError) -> R {
        defer { flushWarnings() }
        return try store.read(creating: creation, body)
    }

    private func flushWarnings() {
        for w in store.takeWarnings() { warn(w) }
    }

    func warn(_ text: String) { stderr.message("warning: \(text)") }

    /// Prints one JSON document (and a newline) on stdout.
    func printJSON(_ build: (inout JSONWriter) -> Void) {
        var w = JSONWriter(capacity: 4096)
        build(&w)
        w.bytes.append(0x0A)
        stdout.write(w.bytes)
    }

    /// Prints a JSON array of transactions.
    func printTransactions(_ ts: some Sequence<Transaction>) {
        printJSON { w in
            w.beginArray()
            for t in ts { TransactionJSON.write(t, into: &w) }
            w.endArray()
        }
    }
}
