import Testing

@testable import IAPCLI
@testable import IAPRuntime

/// Declaration checks, typed values and suggestions.
struct ParsingSpecTests {
    @Test func theSampleTableIsSound() {
        #expect(SampleCommands.root.problems == [])
    }

    @Test func declarationMistakesAreListed() {
        let root = CommandSpec(
            name: "iapctl",
            summary: "",
            subcommands: [
                CommandSpec(
                    name: "buy",
                    summary: "",
                    arguments: [
                        ArgumentSpec("IDS", help: "", variadic: true),
                        ArgumentSpec("KEY", help: "", optional: true),
                        ArgumentSpec("VALUE", help: ""),
                    ],
                    options: [
                        .value("quantity", "n", help: ""),
                        .value("quantity", "n", help: ""),
                        .value("json", "x", help: ""),
                        .flag("--all", help: ""),
                        .flag("one", short: "1", help: ""),
                    ],
                    exclusive: [["user", "account"]],
                    requiresOneOf: [["quantity"]]
                ),
                CommandSpec(
                    name: "config", summary: "", options: [.flag("x", help: "")],
                    subcommands: [CommandSpec(name: "get", summary: "")], defaultSubcommand: "list"),
                CommandSpec(name: "help", summary: ""),
                CommandSpec(name: "buy", summary: ""),
            ]
        )
        #expect(
            root.problems == [
                "iapctl: 'help' is built in and cannot be declared",
                "iapctl: subcommand 'buy' is declared twice",
                "iapctl buy: option '--quantity' is declared twice",
                "iapctl buy: option '--json' conflicts with the global option of that name",
                "iapctl buy: option name '--all' must not be empty, start with '-' or contain '='",
                "iapctl buy: short option '-1' would read as a negative number",
                "iapctl buy: variadic argument <IDS> must be the last one",
                "iapctl buy: required argument <VALUE> follows an optional one",
                "iapctl buy: 'user' in group [\"user\", \"account\"] is not an option or argument",
                "iapctl buy: 'account' in group [\"user\", \"account\"] is not an option or argument",
                "iapctl buy: group [\"quantity\"] needs at least two names",
                "iapctl config: a command with subcommands cannot take arguments or options of its own",
                "iapctl config: default subcommand 'list' is not declared",
            ])
    }

    @Test func valueNamesMayBeGivenWithOrWithoutBrackets() {
        #expect(OptionSpec.value("quantity", "<n>", help: "").synopsis == "--quantity <n>")
        #expect(OptionSpec.value("quantity", "n", help: "").synopsis == "--quantity <n>")
        #expect(OptionSpec.flag("all", help: "").synopsis == "--all")
    }

    static let typedCases: [(ParsedInvocation.Probe, String)] = [
        (.int("5", 1...10), "5"),
        (.int("+5", 1...10), "5"),
        (.int("x", Int.min...Int.max), "'--n' expects an integer, got 'x'"),
        (.int("-1", 0...Int.max), "'--n' expects an integer of at least 0, got '-1'"),
        (.int("11", Int.min...10), "'--n' expects an integer of at most 10, got '11'"),
        (.int("99999999999999999999", 1...10), "'--n' expects an integer from 1 to 10, got '99999999999999999999'"),
        (.int(" 5", 1...10), "'--n' expects an integer from 1 to 10, got ' 5'"),
        (.double("0.5", 0...1), "0.5"),
        (.double("1e-3", 0...1), "0.001"),
        (.double("-inf", -Double.infinity...Double.infinity), "'--n' expects a number, got '-inf'"),
        (.double("2", 0...1.5), "'--n' expects a number from 0 to 1.5, got '2'"),
        (.double("-2", 0...Double.greatestFiniteMagnitude), "'--n' expects a number of at least 0, got '-2'"),
        (.choice("b", ["a", "b"]), "b"),
        (.choice("B", ["a", "b"]), "'--n' expects one of: a, b, got 'B'; did you mean 'b'?"),
        (.choice("zzzz", ["alpha", "beta"]), "'--n' expects one of: alpha, beta, got 'zzzz'"),
        (.bool("yes"), "true"),
        (.bool("OFF"), "false"),
        (.bool("2"), "'--n' expects true or false, got '2'"),
    ]

    @Test(arguments: typedCases)
    func typedValues(probe: ParsedInvocation.Probe, expected: String) {
        #expect(probe.run() == expected)
    }

    @Test(
        arguments: [
            ("qty", ["user", "account", "quantity"], "quantity"),
            ("quant", ["quantity", "quiet"], "quantity"),
            ("q", ["quantity", "quiet"], nil),
            ("jsn", ["json", "store"], "json"),
            ("zzz", ["json", "store"], nil),
            ("", ["json"], nil),
            ("by", ["buy", "queue", "help"], "buy"),
        ] as [(String, [String], String?)])
    func didYouMean(input: String, candidates: [String], expected: String?) {
        #expect(DidYouMean.suggestion(for: input, among: candidates) == expected)
    }
}

extension ParsedInvocation {
    /// One typed read of an option `--n` given as text, for the table above.
    enum Probe: Sendable, CustomStringConvertible {
        case int(String, ClosedRange<Int>)
        case double(String, ClosedRange<Double>)
        case choice(String, [String])
        case bool(String)

        var description: String {
            switch self {
            case .int(let text, _), .double(let text, _), .choice(let text, _), .bool(let text): return "'\(text)'"
            }
        }

        /// The typed value as text, or the error message.
        func run() -> String {
            let spec = CommandSpec(name: "probe", summary: "", options: [.value("n", "n", help: "")])
            let text: String
            switch self {
            case .int(let value, _), .double(let value, _), .choice(let value, _), .bool(let value): text = value
            }
            let invocation = ParsedInvocation(
                programName: "iapctl", path: ["probe"], spec: spec, optionValues: ["n": [text]])
            do {
                switch self {
                case .int(_, let range): return try invocation.int("n", in: range).map(String.init) ?? "nil"
                case .double(_, let range): return try invocation.double("n", in: range).map { "\($0)" } ?? "nil"
                case .choice(_, let choices): return try invocation.choice("n", among: choices) ?? "nil"
                case .bool: return try invocation.bool("n").map { "\($0)" } ?? "nil"
                }
            } catch {
                return error.description
            }
        }
    }
}
