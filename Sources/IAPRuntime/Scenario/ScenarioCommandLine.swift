/// What the scenario language knows of the CLI its lines run: the commands a line may name and
/// the global options that take a value (the word after one is that value, not the command).
/// `IAPCLI` provides iapctl's (`ScenarioVocabulary.iapctl`, from its command table): this target
/// cannot depend on the CLI.
package struct ScenarioVocabulary: Sendable {
    /// The words a command line may start with (every command and group, and `help`), in the
    /// order the CLI lists them, for "did you mean".
    package let commandNames: [String]
    /// The long names, without `--`, of the global options that take a value (`store`, `catalog`).
    package let valueOptions: Set<String>
    private let commands: Set<String>

    package init(commandNames: [String], valueOptions: Set<String>) {
        self.commandNames = commandNames
        self.valueOptions = valueOptions
        commands = Set(commandNames)
    }

    /// Whether a command line may start with `word`.
    package func isCommand(_ word: String) -> Bool { commands.contains(word) }

    /// Whether `--NAME` is a global option followed by its value.
    package func takesValue(globalOption name: Substring) -> Bool { valueOptions.contains(String(name)) }
}

/// The CLI as `iapctl run` drives it: one command line run in this process, as the `iapctl`
/// binary would run it, with what it printed. `IAPCLI` provides it (its `run(arguments:...)`
/// against the scenario's stores), as it provides the Transaction Manager's `UICommandLine`.
package protocol ScenarioCommandLine: AnyObject {
    /// Runs `iapctl ARGUMENTS...` (without the program name) and returns its exit code and output.
    func run(_ arguments: [String]) -> ScenarioCommandResult
}

/// One command line's exit code and what it wrote.
package struct ScenarioCommandResult {
    package var exitCode: Int32
    package var stdout: [UInt8]
    package var stderr: String

    package init(exitCode: Int32, stdout: [UInt8], stderr: String) {
        self.exitCode = exitCode
        self.stdout = stdout
        self.stderr = stderr
    }
}
