/// The result of binding argv to a ``CommandSpec`` tree: which command to run, and with what.
///
/// Values are kept as the text the user typed and read by name, so a command's code names its
/// inputs the way its spec declares them: `value("quantity")`, `positional("ID")`. The typed
/// accessors (``int(_:in:)`` and friends) parse on demand and throw the shared ``UsageError``
/// wording. Reading a name the spec does not declare is a programmer error (asserted in debug).
///
/// ```swift
/// let invocation = try Binder.parse(arguments: arguments, root: root)
/// if invocation.wantsHelp { print(invocation.helpText) }
/// let id = invocation.positional("ID")!                           // required, so present
/// let quantity = try invocation.int("quantity", in: 1...10) ?? 1
/// ```
struct ParsedInvocation: Equatable, Sendable {
    /// The program name, from the root spec: `iapctl`.
    let programName: String
    /// The command names below the program: `["config", "set"]`. Empty for top-level help and
    /// version. With ``wantsHelp``, the command to describe.
    let path: [String]
    /// The spec at ``path``: the command to run, or to describe.
    let spec: CommandSpec
    let globals: GlobalOptions
    /// Show ``helpText`` on stdout and exit 0: `help [COMMAND]`, `--help` or `-h`.
    let wantsHelp: Bool
    /// Show the version on stdout and exit 0 (and `--help` wins over `--version`).
    let wantsVersion: Bool
    private let optionValues: [String: [String]]
    private let flagNames: Set<String>
    private let positionalValues: [String: [String]]

    init(
        programName: String,
        path: [String],
        spec: CommandSpec,
        globals: GlobalOptions = GlobalOptions(),
        wantsHelp: Bool = false,
        wantsVersion: Bool = false,
        optionValues: [String: [String]] = [:],
        flags: Set<String> = [],
        positionals: [String: [String]] = [:]
    ) {
        self.programName = programName
        self.path = path
        self.spec = spec
        self.globals = globals
        self.wantsHelp = wantsHelp
        self.wantsVersion = wantsVersion
        self.optionValues = optionValues
        self.flagNames = flags
        self.positionalValues = positionals
    }

    /// True for the program's own help: `help`, `--help` with no command.
    var showsTopLevelHelp: Bool { wantsHelp && path.isEmpty }

    var commandPath: CommandPath { CommandPath(program: programName, names: path) }

    /// The help page of ``spec``, ready for stdout.
    var helpText: String { HelpRenderer.render(spec, path: path, programName: programName) }

    // MARK: Raw values

    /// The value of a value option (the last one of a repeatable option), nil when not given.
    /// Global options are included: `value("store")`.
    func value(_ name: String) -> String? {
        assertDeclaredOption(name)
        return optionValues[name]?.last
    }

    /// Every value of a repeatable option, in the order given; empty when not given.
    func values(_ name: String) -> [String] {
        assertDeclaredOption(name)
        return optionValues[name] ?? []
    }

    /// Whether a flag was given. Global flags are included: `flag("json")`.
    func flag(_ name: String) -> Bool {
        assertDeclaredOption(name)
        return flagNames.contains(name)
    }

    /// The value of a positional argument (the first of a variadic one), nil when left out.
    func positional(_ name: String) -> String? {
        assertDeclaredArgument(name)
        return positionalValues[name]?.first
    }

    /// Every word a variadic argument took, in order; empty when none.
    func positionals(_ name: String) -> [String] {
        assertDeclaredArgument(name)
        return positionalValues[name] ?? []
    }

    /// Whether an option or argument called `name` was given at all.
    func isGiven(_ name: String) -> Bool {
        // Most of a command's options are not given: empty tables are not hashed into, and the
        // few bound arguments are compared rather than hashed (`iapctl run` asks this a dozen
        // times a line).
        // A handful of given options (the globals `run` passes) are compared too: `buy` asks
        // about its twelve offer options on every line.
        (flagNames.count <= 4 ? flagNames.contains { $0 == name } : flagNames.contains(name))
            || (optionValues.count <= 4
                ? optionValues.contains { $0.key == name } : optionValues[name] != nil)
            || positionalValues.contains { $0.key == name && !$0.value.isEmpty }
    }

    // MARK: Typed values

    /// The integer value of the option or argument `name`, nil when not given.
    ///
    /// - Throws: `'--quantity' expects an integer from 1 to 10, got 'abc'` when the text is not an
    ///   integer in `range`.
    func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int? {
        guard let (parameter, text) = text(of: name) else { return nil }
        return try ValueParser.int(text, for: parameter, in: range)
    }

    /// The finite number value of the option or argument `name`, nil when not given.
    ///
    /// - Throws: `'--rate' expects a number from 0 to 1, got 'x'` when the text is not a finite
    ///   number in `range`.
    func double(
        _ name: String, in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
    ) throws(UsageError) -> Double? {
        guard let (parameter, text) = text(of: name) else { return nil }
        return try ValueParser.double(text, for: parameter, in: range)
    }

    /// The value of `name` when it is one of `choices`, nil when not given.
    ///
    /// - Throws: `'--state' expects one of: purchased, failed, got 'purchsed'; did you mean 'purchased'?`
    func choice(_ name: String, among choices: [String]) throws(UsageError) -> String? {
        guard let (parameter, text) = text(of: name) else { return nil }
        return try ValueParser.choice(text, for: parameter, among: choices)
    }

    /// The boolean value of `name` (`true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`), nil when
    /// not given.
    func bool(_ name: String) throws(UsageError) -> Bool? {
        guard let (parameter, text) = text(of: name) else { return nil }
        return try ValueParser.bool(text, for: parameter)
    }

    /// A usage error found by the command itself, pointing at its help:
    /// `invocation.usageError("unknown key 'x'; use one of: ...")` renders as
    /// `unknown key 'x'; use one of: ... (see 'iapctl help config set')`.
    func usageError(_ message: String) -> UsageError {
        .invalid(message, command: commandPath)
    }

    // MARK: Private

    private func text(of name: String) -> (ParameterName, String)? {
        if spec.argument(named: name) != nil {
            return positionalValues[name]?.first.map { (.argument(name), $0) }
        }
        assertDeclaredOption(name)
        return optionValues[name]?.last.map { (.option(name), $0) }
    }

    private func assertDeclaredOption(_ name: String) {
        assert(
            spec.option(named: name) != nil || GlobalOptions.spec(named: name) != nil,
            "'\(path.joined(separator: " "))' declares no option '--\(name)'")
    }

    private func assertDeclaredArgument(_ name: String) {
        assert(spec.argument(named: name) != nil, "'\(path.joined(separator: " "))' declares no argument <\(name)>")
    }
}
