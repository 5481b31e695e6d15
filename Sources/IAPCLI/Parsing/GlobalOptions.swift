/// The options every command accepts, before or after the command name
/// (`iapctl --store /tmp/s buy com.x.coin42` and `iapctl buy com.x.coin42 --store /tmp/s`).
///
/// ``specs`` is the declaration (bound by the ``Binder``, listed under `GLOBAL OPTIONS:` in every
/// help page); an instance holds the values one invocation gave, already typed.
struct GlobalOptions: Equatable, Sendable {
    /// `--store <dir>`: the store directory; nil means `$IAPCTL_STORE`, else `./.iapctl`.
    var store: String?
    /// `--json`: one JSON document on stdout instead of text.
    var json: Bool
    /// `--lock-timeout <seconds>`: how long to wait for a busy store before exiting 75.
    var lockTimeout: Double?
    /// `--catalog <file>`: the catalog a new store is bound to.
    var catalog: String?
    /// `--help` or `-h`.
    var help: Bool
    /// `--version`.
    var version: Bool

    init(
        store: String? = nil,
        json: Bool = false,
        lockTimeout: Double? = nil,
        catalog: String? = nil,
        help: Bool = false,
        version: Bool = false
    ) {
        self.store = store
        self.json = json
        self.lockTimeout = lockTimeout
        self.catalog = catalog
        self.help = help
        self.version = version
    }

    /// The longest `--lock-timeout` accepted, one day: longer waits are almost surely a typo
    /// (milliseconds given as seconds).
    static let maximumLockTimeout: Double = 86_400

    static let specs: [OptionSpec] = [
        .value("store", "dir", help: "The store directory (default: $IAPCTL_STORE, else ./.iapctl)"),
        .value("catalog", "file", help: "The catalog for a new store (default: the built-in)"),
        .flag("json", help: "Print one JSON document on stdout instead of text"),
        .value("lock-timeout", "seconds", help: "Seconds to wait for a busy store, then exit 75"),
        .flag("help", short: "h", help: "Show help for the command"),
        .flag("version", help: "Show the version"),
    ]

    static func spec(named name: String) -> OptionSpec? {
        specs.first { $0.name == name }
    }

    static func spec(short: Character) -> OptionSpec? {
        specs.first { $0.short == short }
    }

    /// Reads the global options out of bound option values (keyed by long name).
    ///
    /// - Throws: ``UsageError/invalidValue(_:expected:got:suggestion:)`` for a `--lock-timeout`
    ///   that is not a number of seconds from 0 to ``maximumLockTimeout``.
    init(values: [String: [String]], flags: Set<String>) throws(UsageError) {
        self.init(
            store: values["store"]?.last,
            json: flags.contains("json"),
            lockTimeout: nil,
            catalog: values["catalog"]?.last,
            help: flags.contains("help"),
            version: flags.contains("version")
        )
        if let text = values["lock-timeout"]?.last {
            lockTimeout = try ValueParser.double(
                text, for: .option("lock-timeout"), in: 0...GlobalOptions.maximumLockTimeout)
        }
    }
}
