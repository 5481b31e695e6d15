import IAPRuntime

/// Binds argv to a ``CommandSpec`` tree: the second parsing step, after ``ArgumentTokenizer``.
///
/// Words select subcommands while the current command is a group, and are positional arguments
/// once it is a leaf (or after `--`). Options are looked up in the current command, then in
/// ``GlobalOptions/specs``, so global options work before and after the command name, while a
/// command's own options must follow its name. The first bad word ends parsing with a
/// ``UsageError`` naming it. Help wins over errors: `iapctl buy --qty --help` shows buy's help,
/// because someone asking for help should get it even while they are still getting the line wrong.
struct Binder {
    private let root: CommandSpec
    private var path: [String] = []
    private var command: CommandSpec
    /// Inside the built-in `help` command, whose words name the command to describe.
    private var inHelpCommand = false
    private var afterTerminator = false
    private var optionValues: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var words: [String] = []

    private init(root: CommandSpec) {
        self.root = root
        self.command = root
    }

    /// Parses `arguments` (argv without the program name) against `root`.
    ///
    /// - Parameters:
    ///   - arguments: the command-line words after the program name.
    ///   - root: the program's spec, named after it (`iapctl`), whose subcommands are the commands.
    /// - Returns: the invocation to run; it ``ParsedInvocation/wantsHelp`` for
    ///   `help [COMMAND ...]`, `--help` or `-h`, and ``ParsedInvocation/wantsVersion`` for `--version`.
    /// - Throws: ``UsageError`` for the first mistake, in the order the words were given, then for
    ///   missing or extra arguments and for ``CommandSpec/exclusive`` and
    ///   ``CommandSpec/requiresOneOf`` groups.
    static func parse(arguments: [String], root: CommandSpec) throws(UsageError) -> ParsedInvocation {
        assert(root.problems.isEmpty, "invalid command table:\n" + root.problems.joined(separator: "\n"))
        var binder = Binder(root: root)
        let tokens = ArgumentTokenizer.tokenize(arguments)
        // `iapctl` alone is a usage error (64), as a script that lost its arguments should see;
        // `iapctl help` and `iapctl --help` print the full help.
        guard !tokens.isEmpty else { throw .missingCommand(CommandPath(program: root.name)) }
        do {
            try binder.bind(tokens)
            return try binder.finish()
        } catch {
            // Someone asking for help or the version gets it even if the rest of the line is wrong.
            let asksForHelp =
                tokens.contains(.longOption(name: "help", value: nil)) || tokens.contains(.shortOption("h"))
            let asksForVersion = tokens.contains(.longOption(name: "version", value: nil))
            guard asksForHelp || asksForVersion, !binder.inHelpCommand else { throw error }
            return ParsedInvocation(
                programName: root.name, path: binder.path, spec: binder.command,
                globals: GlobalOptions(help: asksForHelp, version: asksForVersion),
                wantsHelp: asksForHelp, wantsVersion: !asksForHelp)
        }
    }

    private var commandPath: CommandPath { CommandPath(program: root.name, names: path) }

    // MARK: Walking the tokens

    private mutating func bind(_ tokens: [Token]) throws(UsageError) {
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let token = tokens[index]
            index += 1
            switch token {
            case .terminator:
                afterTerminator = true
            case .word(let word):
                if afterTerminator || !command.isGroup || inHelpCommand {
                    words.append(word)
                } else if path.isEmpty && word == CommandSpec.help.name {
                    inHelpCommand = true
                    command = CommandSpec.help
                    path = [CommandSpec.help.name]
                } else if let subcommand = command.subcommand(named: word) {
                    command = subcommand
                    path.append(word)
                } else if descendIntoDefaultSubcommand(taking: word) {
                    words.append(word)
                } else {
                    throw unknownCommand(word, in: command, at: commandPath)
                }
            case .longOption(let name, let attached):
                descendIntoDefaultSubcommand { $0.option(named: name) != nil }
                guard let option = command.option(named: name) ?? GlobalOptions.spec(named: name) else {
                    let candidates = (command.options + GlobalOptions.specs).map(\.name)
                    throw .unknownOption(
                        name.isEmpty ? token.text : "--" + name, command: commandPath,
                        suggestion: DidYouMean.suggestion(for: name, among: candidates).map { "--" + $0 })
                }
                try bind(option, attached: attached, tokens: tokens, index: &index)
            case .shortOption(let name):
                descendIntoDefaultSubcommand { spec in name.count == 1 && spec.options.contains { $0.short == name.first } }
                guard let option = shortOption(named: name) else {
                    // `-qty` and `-json` are usually a long option with one dash missing.
                    let candidates = (command.options + GlobalOptions.specs).map(\.name)
                    let suggestion = name.count > 1 ? DidYouMean.suggestion(for: name, among: candidates) : nil
                    throw .unknownOption(token.text, command: commandPath, suggestion: suggestion.map { "--" + $0 })
                }
                try bind(option, attached: nil, tokens: tokens, index: &index)
            }
        }
    }

    /// A group with a default subcommand takes that subcommand's own options directly, so
    /// `receipt --der out.der` is `receipt show --der out.der`; global options stay with the group.
    private mutating func descendIntoDefaultSubcommand(if declares: (CommandSpec) -> Bool) {
        guard command.isGroup, !inHelpCommand, let name = command.defaultSubcommand,
            let subcommand = command.subcommand(named: name), declares(subcommand)
        else { return }
        command = subcommand
        path.append(name)
    }

    /// A group whose default subcommand takes arguments takes them directly too, so `jws 2000000000000001`
    /// is `jws show 2000000000000001`; a word close to a subcommand's name is still reported as a
    /// mistyped subcommand.
    private mutating func descendIntoDefaultSubcommand(taking word: String) -> Bool {
        guard command.isGroup, !inHelpCommand, let name = command.defaultSubcommand,
            let subcommand = command.subcommand(named: name), !subcommand.arguments.isEmpty,
            DidYouMean.suggestion(for: word, among: command.subcommands.map(\.name)) == nil
        else { return false }
        command = subcommand
        path.append(name)
        return true
    }

    /// The command's or the global option with the one-letter alias `name`; `-abc` is never one.
    private func shortOption(named name: String) -> OptionSpec? {
        guard name.count == 1, let short = name.first else { return nil }
        return command.options.first { $0.short == short } ?? GlobalOptions.spec(short: short)
    }

    private mutating func bind(
        _ option: OptionSpec, attached: String?, tokens: [Token], index: inout Int
    ) throws(UsageError) {
        guard option.takesValue else {
            if attached != nil { throw .valueNotAllowed(option) }
            flags.insert(option.name)
            return
        }
        if option.kind == .value && optionValues[option.name] != nil { throw .duplicateOption(option) }
        let value: String
        if let attached {
            value = attached
        } else if index < tokens.endIndex, case .word(let next) = tokens[index] {
            value = next
            index += 1
        } else {
            throw .missingValue(option, command: commandPath)
        }
        optionValues[option.name, default: []].append(value)
    }

    // MARK: After the last token

    private mutating func finish() throws(UsageError) -> ParsedInvocation {
        if inHelpCommand {
            let (describedPath, described) = try resolveHelpTopic()
            return invocation(path: describedPath, spec: described, globals: lenientGlobals(), wantsHelp: true)
        }
        if flags.contains("help") || flags.contains("version") {
            let wantsHelp = flags.contains("help")
            return invocation(
                path: path, spec: command, globals: lenientGlobals(), wantsHelp: wantsHelp, wantsVersion: !wantsHelp)
        }
        if command.isGroup {
            // Only words after `--` reach here: a group's other words are subcommand names.
            if let word = words.first { throw .unexpectedArgument(word, command: commandPath) }
            guard let name = command.defaultSubcommand, let subcommand = command.subcommand(named: name) else {
                if path.isEmpty { throw .missingCommand(commandPath) }
                throw .missingSubcommand(commandPath, available: command.subcommands.map(\.name))
            }
            command = subcommand
            path.append(name)
        }
        let positionals = try bindPositionals()
        let globals = try GlobalOptions(values: optionValues, flags: flags)
        try checkGroups(positionals: positionals)
        return invocation(path: path, spec: command, globals: globals, positionals: positionals)
    }

    /// Assigns the collected words to the declared arguments, in order.
    private func bindPositionals() throws(UsageError) -> [String: [String]] {
        var remaining = words[...]
        var bound: [String: [String]] = [:]
        for argument in command.arguments {
            if argument.isVariadic {
                if remaining.isEmpty && !argument.isOptional { throw .missingArgument(argument, command: commandPath) }
                if !remaining.isEmpty { bound[argument.name] = Array(remaining) }
                remaining = []
            } else if let word = remaining.popFirst() {
                bound[argument.name] = [word]
            } else if !argument.isOptional {
                throw .missingArgument(argument, command: commandPath)
            }
        }
        if let extra = remaining.first { throw .unexpectedArgument(extra, command: commandPath) }
        return bound
    }

    /// Checks the ``CommandSpec/exclusive`` and ``CommandSpec/requiresOneOf`` groups against what
    /// was given (as ``ParsedInvocation/isGiven`` would answer, read from the binder's own
    /// values rather than from a copy of the invocation per name: `iapctl run` binds every line).
    private func checkGroups(positionals: [String: [String]]) throws(UsageError) {
        func isGiven(_ name: String) -> Bool {
            (!flags.isEmpty && flags.contains(name)) || (!optionValues.isEmpty && optionValues[name] != nil)
                || positionals.contains { $0.key == name && !$0.value.isEmpty }
        }
        for group in command.exclusive {
            var given: [String] = []
            for name in group where isGiven(name) { given.append(name) }
            if given.count > 1 { throw .exclusive(given.compactMap(command.parameter(named:))) }
        }
        for group in command.requiresOneOf where !group.contains(where: isGiven) {
            throw .missingOneOf(group.compactMap(command.parameter(named:)), command: commandPath)
        }
    }

    /// The command `help WORD ...` names, resolved from the root.
    private func resolveHelpTopic() throws(UsageError) -> ([String], CommandSpec) {
        var described = root
        var describedPath = CommandPath(program: root.name)
        for word in words {
            guard described.isGroup else { throw .unexpectedArgument(word, command: commandPath) }
            let builtIn = describedPath.names.isEmpty && word == CommandSpec.help.name ? CommandSpec.help : nil
            guard let subcommand = builtIn ?? described.subcommand(named: word) else {
                throw unknownCommand(word, in: described, at: describedPath)
            }
            described = subcommand
            describedPath = describedPath.appending(word)
        }
        return (describedPath.names, described)
    }

    private func unknownCommand(_ word: String, in group: CommandSpec, at groupPath: CommandPath) -> UsageError {
        var names = group.subcommands.map(\.name)
        if groupPath.names.isEmpty { names.append(CommandSpec.help.name) }
        return .unknownCommand(
            word, parent: groupPath, suggestion: DidYouMean.suggestion(for: word, among: names), available: names)
    }

    /// Globals for a help or version invocation, where a malformed `--lock-timeout` does not matter.
    private func lenientGlobals() -> GlobalOptions {
        (try? GlobalOptions(values: optionValues.filter { $0.key != "lock-timeout" }, flags: flags)) ?? GlobalOptions()
    }

    private func invocation(
        path: [String], spec: CommandSpec, globals: GlobalOptions, wantsHelp: Bool = false,
        wantsVersion: Bool = false, positionals: [String: [String]] = [:]
    ) -> ParsedInvocation {
        ParsedInvocation(
            programName: root.name, path: path, spec: spec, globals: globals, wantsHelp: wantsHelp,
            wantsVersion: wantsVersion, optionValues: optionValues, flags: flags, positionals: positionals)
    }
}
