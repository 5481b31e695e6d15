import IAPKit

/// A mistake in the command line: unknown or misspelled names, missing or malformed values.
///
/// Each case renders as one lowercase line without a trailing period that names the bad word and
/// says how to fix it, usually ending with the help page to read, e.g.
/// `unknown option '--qty' for 'buy'; did you mean '--quantity'? (see 'iapctl help buy')`.
/// The CLI prints it as `error: <description>` on stderr and exits with ``exitCode`` (64, EX_USAGE).
enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No command: nothing at all, or only global options. The message is the short usage.
    case missingCommand(CommandPath)
    /// A word where a command or subcommand name was expected. `parent` is the group it was looked
    /// up in (the program for top-level commands); `available` lists the group's subcommands.
    case unknownCommand(String, parent: CommandPath, suggestion: String?, available: [String])
    /// A group such as `config` given without a subcommand and without a default one.
    case missingSubcommand(CommandPath, available: [String])
    /// An option neither the command nor the global options declare, as typed (`--qty`, `-x`).
    case unknownOption(String, command: CommandPath, suggestion: String?)
    /// An option that takes a value was last, or followed by another option or `--`.
    case missingValue(OptionSpec, command: CommandPath)
    /// A flag given a value with `=`: `--all=yes`.
    case valueNotAllowed(OptionSpec)
    /// A non-repeatable option given more than once.
    case duplicateOption(OptionSpec)
    /// A required positional argument is missing.
    case missingArgument(ArgumentSpec, command: CommandPath)
    /// None of a ``CommandSpec/requiresOneOf`` group was given.
    case missingOneOf([ParameterName], command: CommandPath)
    /// More positional words than the command takes; the first extra one.
    case unexpectedArgument(String, command: CommandPath)
    /// Two or more of a ``CommandSpec/exclusive`` group were given.
    case exclusive([ParameterName])
    /// A value that does not parse or is out of range; `expected` reads after "expects":
    /// `an integer from 1 to 10`.
    case invalidValue(ParameterName, expected: String, got: String, suggestion: String?)
    /// Any other misuse a command detects itself after parsing, pointing at its help:
    /// see ``ParsedInvocation/usageError(_:)``.
    case invalid(String, command: CommandPath)

    /// Always ``ExitCode/usage`` (64): every case is a mistake in the command line.
    var exitCode: ExitCode { .usage }

    var description: String {
        switch self {
        case .missingCommand(let program):
            return
                "missing command; usage: \(program) <command> [<arguments>] [<options>], such as '\(program) products' or '\(program) buy com.x.coin42' \(program.helpHint)"
        case .unknownCommand(let word, let parent, let suggestion, let available):
            if parent.names.isEmpty {
                return "unknown command '\(word)'\(Self.didYouMean(suggestion)) \(parent.helpHint)"
            }
            let fix = suggestion.map { "; did you mean '\($0)'?" } ?? "; use one of: " + Self.choices(available)
            return "unknown subcommand '\(word)' for '\(parent)'\(fix) \(parent.helpHint)"
        case .missingSubcommand(let command, let available):
            return "missing subcommand for '\(command)'; use one of: \(Self.choices(available)) \(command.helpHint)"
        case .unknownOption(let option, let command, let suggestion):
            let scope = command.names.isEmpty ? "" : " for '\(command)'"
            return "unknown option '\(option)'\(scope)\(Self.didYouMean(suggestion)) \(command.helpHint)"
        case .missingValue(let option, let command):
            return "missing value for '\(option.synopsis)' \(command.helpHint)"
        case .valueNotAllowed(let option):
            return "'\(option.flagText)' takes no value"
        case .duplicateOption(let option):
            return "option '\(option.flagText)' given twice"
        case .missingArgument(let argument, let command):
            return "missing argument \(argument.label) for '\(command)' \(command.helpHint)"
        case .missingOneOf(let names, let command):
            return "missing argument \(Self.list(names, conjunction: "or")) for '\(command)' \(command.helpHint)"
        case .unexpectedArgument(let word, let command):
            return "unexpected argument '\(word)' for '\(command)' \(command.helpHint)"
        case .exclusive(let names):
            return "\(Self.list(names, conjunction: "and")) cannot be used together"
        case .invalidValue(let name, let expected, let got, let suggestion):
            return "\(name) expects \(expected), got '\(got)'\(Self.didYouMean(suggestion))"
        case .invalid(let message, let command):
            return "\(message) \(command.helpHint)"
        }
    }

    private static func choices(_ names: [String]) -> String {
        names.joined(separator: ", ")
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func list(_ names: [ParameterName], conjunction: String) -> String {
        let words = names.map(\.description)
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
