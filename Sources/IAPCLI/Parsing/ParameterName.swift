/// What a message is about: an option (`'--quantity'`) or a positional argument (`<ID>`).
///
/// The two are written differently in messages, the same way the help shows them, so a user can
/// find the one a message names in `iapctl help COMMAND`.
enum ParameterName: Hashable, Sendable, CustomStringConvertible {
    /// The long name without dashes.
    case option(String)
    /// The argument name without brackets.
    case argument(String)

    var description: String {
        switch self {
        case .option(let name): return "'--\(name)'"
        case .argument(let name): return "<\(name)>"
        }
    }
}
