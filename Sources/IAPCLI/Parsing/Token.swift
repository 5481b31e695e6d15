/// One classified command-line word, before it is bound to any command.
///
/// Tokens know only the shape of a word, not what it means: whether `--quantity` takes a value,
/// or whether `get` is a subcommand, is decided later by the ``Binder`` against a ``CommandSpec``.
/// Splitting the two steps keeps `--name=value`, `--` and negative numbers in one place.
enum Token: Equatable, Sendable {
    /// A positional word: an argument, a subcommand name, or the value of a preceding option.
    /// Also a lone `-` (stdin), a negative number such as `-5`, and everything after `--`.
    case word(String)
    /// `--name`, or `--name=value` with the value attached.
    case longOption(name: String, value: String?)
    /// `-h`: the text after the single dash.
    case shortOption(String)
    /// `--`: every later word is positional even when it starts with a dash.
    case terminator

    /// The word as the user typed it, for messages.
    var text: String {
        switch self {
        case .word(let word): return word
        case .longOption(let name, let value): return "--" + name + (value.map { "=" + $0 } ?? "")
        case .shortOption(let name): return "-" + name
        case .terminator: return "--"
        }
    }
}
