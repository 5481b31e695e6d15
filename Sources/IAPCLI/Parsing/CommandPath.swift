/// The names leading to a command, with the program name: `iapctl config set`.
///
/// Messages name the command (`for 'config set'`) and point at its help
/// (`(see 'iapctl help config set')`); both come from here so they never disagree.
struct CommandPath: Hashable, Sendable, CustomStringConvertible {
    /// The program name, `iapctl`: the root spec's name.
    let program: String
    /// The command names below the program: `["config", "set"]`; empty for the program itself.
    let names: [String]

    init(program: String, names: [String] = []) {
        self.program = program
        self.names = names
    }

    /// `config set`; the program name for the top level.
    var description: String { names.isEmpty ? program : names.joined(separator: " ") }

    /// `(see 'iapctl help config set')`, or `(see 'iapctl help')` for the top level.
    var helpHint: String {
        "(see '" + ([program, "help"] + names).joined(separator: " ") + "')"
    }

    func appending(_ name: String) -> CommandPath {
        CommandPath(program: program, names: names + [name])
    }
}
