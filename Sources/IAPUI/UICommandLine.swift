/// The CLI as the Transaction Manager's server uses it: the very command code `iapctl` runs,
/// called in process. `IAPCLI` provides it (the UI target cannot depend on the CLI that serves
/// it), so an action from the page and the same command typed in a shell are one code path.
package protocol UICommandLine: Sendable {
    /// The usage line of the command at `path` (`["clock", "advance"]`), or nil when this build
    /// has no such command.
    func usage(of path: [String]) -> String?

    /// How the CLI's own parser reads `arguments`, or nil when it refuses them (a usage error,
    /// which running them would report).
    func parse(_ arguments: [String]) -> UIParsedCommandLine?

    /// Runs `iapctl --store STORE --json ARGUMENTS...` in process and returns what it printed.
    func run(_ arguments: [String]) -> UICommandResult
}

/// What the CLI's parser made of an argument list.
package struct UIParsedCommandLine: Sendable, Equatable {
    /// The command path: `["refund"]`, `["config", "set"]`.
    package var path: [String]
    /// The global options given (`store`, `json`, ...), by long name.
    package var globalOptions: [String]
    /// The positional arguments, in order.
    package var positionals: [String]

    package init(path: [String], globalOptions: [String], positionals: [String]) {
        self.path = path
        self.globalOptions = globalOptions
        self.positionals = positionals
    }
}

/// One command's result: its exit code and what it wrote.
package struct UICommandResult: Sendable, Equatable {
    package var exitCode: Int32
    package var stdout: [UInt8]
    package var stderr: [UInt8]

    package init(exitCode: Int32, stdout: [UInt8], stderr: [UInt8]) {
        self.exitCode = exitCode
        self.stdout = stdout
        self.stderr = stderr
    }

    /// The lines of stderr that begin with `prefix` (`error: `, `warning: `), without it.
    package func stderrLines(prefixed prefix: String) -> [String] {
        String(decoding: stderr, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            .filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// The one-line error the CLI printed (`error: ...` without the prefix), if any.
    package var error: String? { stderrLines(prefixed: "error: ").first }
}
