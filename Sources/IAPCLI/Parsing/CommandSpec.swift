/// The declaration of a command: what it is called, what it takes, and how it is explained.
///
/// One value drives binding (``Binder``), error text (``UsageError``) and help (``HelpRenderer``), so
/// the three never drift apart. A command is either a *leaf*, which takes arguments and options, or a
/// *group* such as `config`, which only dispatches to its subcommands (`config get`, `config set`).
/// The root spec is a group named after the program (`iapctl`) whose subcommands are the commands.
///
/// ```swift
/// let buy = CommandSpec(
///     name: "buy",
///     summary: "Add a payment for a product",
///     arguments: [ArgumentSpec("ID", help: "The product identifier")],
///     options: [
///         .value("user", "id", help: "The user the payment is for"),
///         .value("account", "name", help: "An account name; the user becomes its SHA-256"),
///         .value("quantity", "n", help: "How many, from 1 to 10 (default: 1)"),
///     ],
///     exclusive: [["user", "account"]],
///     examples: ["iapctl buy com.x.coin42 --quantity 2"]
/// )
/// ```
struct CommandSpec: Equatable, Sendable {
    let name: String
    /// One line, shown in the parent's command list and after `OVERVIEW:`.
    let summary: String
    /// Paragraphs shown after the summary in this command's help; may be empty. Made only when
    /// help is shown: the table of every command is built on every run, `--version` included,
    /// and some discussions (the settings list of `config`) are assembled from tables.
    var discussion: String { discussionText.text }
    private let discussionText: LazyText
    let arguments: [ArgumentSpec]
    let options: [OptionSpec]
    let subcommands: [CommandSpec]
    /// The subcommand run when a group is given without one (`download` alone meaning
    /// `download list`, say). Without it, a bare group is a usage error that lists the choices.
    let defaultSubcommand: String?
    /// Groups of names (options without dashes, or argument names) of which at most one may be
    /// given: `[["user", "account"]]`.
    let exclusive: [[String]]
    /// Groups of names of which at least one must be given: `[["TXID", "all"]]` for
    /// `finish TXID... | --all`.
    let requiresOneOf: [[String]]
    /// Complete command lines, shown under `EXAMPLES:`.
    let examples: [String]

    init(
        name: String,
        summary: String,
        discussion: @autoclosure @escaping @Sendable () -> String = "",
        arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [],
        subcommands: [CommandSpec] = [],
        defaultSubcommand: String? = nil,
        exclusive: [[String]] = [],
        requiresOneOf: [[String]] = [],
        examples: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.discussionText = LazyText(discussion)
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.exclusive = exclusive
        self.requiresOneOf = requiresOneOf
        self.examples = examples
    }

    /// The built-in `help [COMMAND ...]`, which every root gets without declaring it.
    static let help = CommandSpec(
        name: "help",
        summary: "Show help for a command",
        arguments: [
            ArgumentSpec("COMMAND", help: "The command, and subcommand, to describe", optional: true, variadic: true)
        ],
        examples: ["iapctl help buy", "iapctl help config set"]
    )

    /// A group dispatches to subcommands and takes no arguments or options of its own.
    var isGroup: Bool { !subcommands.isEmpty }

    func subcommand(named name: String) -> CommandSpec? {
        // By index: comparing names in place, not copying every spec on the way.
        for i in subcommands.indices where subcommands[i].name == name { return subcommands[i] }
        return nil
    }

    /// This command's own option called `name` (not a global one).
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    func argument(named name: String) -> ArgumentSpec? {
        arguments.first { $0.name == name }
    }

    /// The option or argument called `name`, as messages write it; global options included.
    func parameter(named name: String) -> ParameterName? {
        if option(named: name) != nil || GlobalOptions.spec(named: name) != nil { return .option(name) }
        if argument(named: name) != nil { return .argument(name) }
        return nil
    }

    /// Declaration mistakes in this command and every subcommand, one line each, empty when the
    /// table is sound. A wrong table is a programmer error, not a user one: the ``Binder`` asserts
    /// this is empty in debug builds, and a test over the real command table should too.
    var problems: [String] { problems(path: []) }

    private func problems(path: [String]) -> [String] {
        let here = (path + [name]).joined(separator: " ")
        var found: [String] = []
        func report(_ text: String) { found.append("\(here): \(text)") }

        if name.isEmpty || name.hasPrefix("-") { report("command name '\(name)' must not be empty or start with '-'") }
        if isGroup && !(arguments.isEmpty && options.isEmpty) {
            report("a command with subcommands cannot take arguments or options of its own")
        }
        if let defaultSubcommand, subcommand(named: defaultSubcommand) == nil {
            report("default subcommand '\(defaultSubcommand)' is not declared")
        }
        if path.isEmpty && subcommand(named: CommandSpec.help.name) != nil {
            report("'help' is built in and cannot be declared")
        }
        var seenCommands = Set<String>()
        for command in subcommands where !seenCommands.insert(command.name).inserted {
            report("subcommand '\(command.name)' is declared twice")
        }

        var seenOptions = Set<String>()
        var seenShorts = Set<Character>()
        for option in options {
            if option.name.isEmpty || option.name.hasPrefix("-") || option.name.contains("=") {
                report("option name '\(option.name)' must not be empty, start with '-' or contain '='")
            }
            if !seenOptions.insert(option.name).inserted { report("option '--\(option.name)' is declared twice") }
            if let global = GlobalOptions.spec(named: option.name) {
                if global.kind != option.kind || option.name == "help" || option.name == "version" {
                    report("option '--\(option.name)' conflicts with the global option of that name")
                }
            }
            if let short = option.short {
                if !seenShorts.insert(short).inserted || GlobalOptions.spec(short: short) != nil {
                    report("short option '-\(short)' is declared twice")
                }
                if short.isNumber { report("short option '-\(short)' would read as a negative number") }
            }
        }

        var seenArguments = Set<String>()
        var sawOptional = false
        for (index, argument) in arguments.enumerated() {
            if !seenArguments.insert(argument.name).inserted { report("argument <\(argument.name)> is declared twice") }
            if argument.isVariadic && index != arguments.count - 1 {
                report("variadic argument <\(argument.name)> must be the last one")
            }
            if !argument.isOptional && sawOptional {
                report("required argument <\(argument.name)> follows an optional one")
            }
            sawOptional = sawOptional || argument.isOptional
        }

        for group in exclusive + requiresOneOf {
            if group.count < 2 { report("group \(group) needs at least two names") }
            for member in group where parameter(named: member) == nil {
                report("'\(member)' in group \(group) is not an option or argument")
            }
        }

        return found + subcommands.flatMap { $0.problems(path: path + [name]) }
    }
}

/// Text made when first read (help text nobody asks for costs nothing); equal when the texts are.
struct LazyText: Equatable, Sendable {
    private let make: @Sendable () -> String

    init(_ make: @escaping @Sendable () -> String) { self.make = make }

    var text: String { make() }

    static func == (a: LazyText, b: LazyText) -> Bool { a.text == b.text }
}
