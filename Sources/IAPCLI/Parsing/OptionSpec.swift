/// The declaration of one `--option`: its name, how it takes values, and its help line.
///
/// Declarations are data so that the same value drives binding, `did you mean`, usage lines and
/// help text; nothing about an option is written twice.
struct OptionSpec: Equatable, Sendable {
    /// How an option takes values.
    enum Kind: Equatable, Sendable {
        /// Present or absent: `--all`. `--all=yes` is an error, repeating it is harmless.
        case flag
        /// Takes exactly one value (`--quantity 2` or `--quantity=2`); giving it twice is an error,
        /// because silently keeping the first or the last would hide a mistake.
        case value
        /// Takes one value each time it is given: `--content a --content b`.
        case repeatableValue
    }

    /// The long name without dashes: `quantity` for `--quantity`.
    let name: String
    /// An optional one-letter alias without the dash: `h` for `-h`.
    let short: Character?
    /// The placeholder shown in help and messages, without brackets: `n` for `<n>`. Empty for flags.
    let valueName: String
    let help: String
    let kind: Kind

    /// - Parameters:
    ///   - name: the long name, without the leading `--`.
    ///   - short: a one-letter alias, without the leading `-`.
    ///   - valueName: the value placeholder; `<n>` and `n` are the same. Ignored for flags.
    ///   - help: one line (wrapped by the renderer when long).
    ///   - kind: flag, value or repeatable value.
    init(name: String, short: Character? = nil, valueName: String = "value", help: String, kind: Kind) {
        self.name = name
        self.short = short
        // `<n>` is checked on the UTF-8 ends first: every option of a command is declared when
        // the command runs, and `hasPrefix` on a Substring segments graphemes (issue 12).
        if kind == .flag {
            self.valueName = ""
        } else if valueName.utf8.count >= 2, valueName.utf8.first == UInt8(ascii: "<"), valueName.utf8.last == UInt8(ascii: ">") {
            self.valueName = String(valueName.dropFirst().dropLast())
        } else {
            self.valueName = valueName
        }
        self.help = help
        self.kind = kind
    }

    /// `--all`: present or absent.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, help: help, kind: .flag)
    }

    /// `--quantity <n>`: one value.
    static func value(_ name: String, _ valueName: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help, kind: .value)
    }

    /// `--content <path>`, any number of times.
    static func repeatable(_ name: String, _ valueName: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help, kind: .repeatableValue)
    }

    var takesValue: Bool { kind != .flag }

    /// `--quantity`.
    var flagText: String { "--" + name }

    /// `--quantity <n>` for options with a value, `--all` for flags: the form used in messages.
    var synopsis: String { takesValue ? "\(flagText) <\(valueName)>" : flagText }
}
