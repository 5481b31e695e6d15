import IAPUI

/// The CLI, called in process, as the Transaction Manager uses it: `run(arguments:)` with the
/// server's store and `--json`, the CLI's own parser to read an action before it runs, and the
/// command table to say which commands this build has. An action from the page is the same code
/// path as the command typed in a shell.
struct InProcessCommandLine: UICommandLine {
    let storePath: String
    let lockTimeout: Double?
    let environment: [String: String]
    /// The usage line of each command path this build has, computed once.
    private let usages: [[String]: String]

    init(storePath: String, lockTimeout: Double?, environment: [String: String]) {
        self.storePath = storePath
        self.lockTimeout = lockTimeout
        self.environment = environment
        var usages: [[String]: String] = [:]
        for leaf in CommandTable.leaves { usages[[leaf.spec.name]] = Self.usage(leaf.spec, path: [leaf.spec.name]) }
        for group in CommandTable.groups {
            for child in group.children {
                let path = [group.spec.name, child.spec.name]
                usages[path] = Self.usage(child.spec, path: path)
            }
        }
        self.usages = usages
    }

    /// The words after `USAGE: iapctl ` on the command's help page.
    private static func usage(_ spec: CommandSpec, path: [String]) -> String {
        String(HelpRenderer.usageLine(spec, path: path).dropFirst("iapctl ".count))
    }

    func usage(of path: [String]) -> String? { usages[path] }

    func parse(_ arguments: [String]) -> UIParsedCommandLine? {
        guard let invocation = try? Binder.parse(arguments: arguments, root: CommandTable.root) else { return nil }
        let g = invocation.globals
        var globals: [String] = []
        if g.store != nil { globals.append("store") }
        if g.catalog != nil { globals.append("catalog") }
        if g.json { globals.append("json") }
        if g.lockTimeout != nil { globals.append("lock-timeout") }
        if g.help || invocation.wantsHelp { globals.append("help") }
        if g.version || invocation.wantsVersion { globals.append("version") }
        let positionals = invocation.spec.arguments.flatMap { invocation.positionals($0.name) }
        return UIParsedCommandLine(path: invocation.path, globalOptions: globals, positionals: positionals)
    }

    func run(_ arguments: [String]) -> UICommandResult {
        let out = BufferConsole()
        let err = BufferConsole()
        var globals = ["--store", storePath, "--json"]
        if let lockTimeout { globals += ["--lock-timeout", String(lockTimeout)] }
        // The server's options come first, so an argument list ending in `--` cannot turn them
        // into positional words.
        let code = IAPCLI.run(arguments: globals + arguments, environment: environment, stdout: out, stderr: err)
        return UICommandResult(exitCode: code.rawValue, stdout: out.bytes, stderr: err.bytes)
    }
}
