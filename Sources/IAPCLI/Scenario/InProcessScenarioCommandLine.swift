import IAPRuntime

/// The CLI, called in process, as `iapctl run` drives it: each scenario line through the same
/// `run(arguments:...)` the `iapctl` binary calls, sharing `stores` (so the scenario's store
/// stays loaded, and repeated lines bound, from line to line) and two buffer consoles.
final class InProcessScenarioCommandLine: ScenarioCommandLine {
    /// The environment each command sees.
    let environment: [String: String]
    /// The stores the lines share.
    let stores: StoreRegistry
    private let out = BufferConsole()
    private let err = BufferConsole()

    init(environment: [String: String], stores: StoreRegistry) {
        self.environment = environment
        self.stores = stores
    }

    func run(_ arguments: [String]) -> ScenarioCommandResult {
        out.clear()
        err.clear()
        let code = IAPCLI.run(
            arguments: arguments, environment: environment, stdout: out, stderr: err, standardInput: { [] }, stores: stores)
        return ScenarioCommandResult(exitCode: code.rawValue, stdout: out.bytes, stderr: err.text)
    }
}

extension ScenarioVocabulary {
    /// iapctl's: the commands of `CommandTable` (leaves, groups, then `help`) and the global
    /// options that take a value.
    package static let iapctl = ScenarioVocabulary(
        commandNames: CommandTable.leaves.map(\.spec.name) + CommandTable.groups.map(\.spec.name) + [CommandSpec.help.name],
        valueOptions: Set(GlobalOptions.specs.filter(\.takesValue).map(\.name)))
}
