import Testing

@testable import IAPCLI

/// Well-formed command lines bind to the expected command, options and arguments.
struct ParsingBinderTests {
    private func parse(_ arguments: [String]) throws(UsageError) -> ParsedInvocation {
        try SampleCommands.parseAndRead(arguments)
    }

    @Test(arguments: [
        ["buy", "com.x.coin42", "--quantity", "2"],
        ["buy", "com.x.coin42", "--quantity=2"],
        ["buy", "--quantity", "2", "com.x.coin42"],
        ["buy", "--quantity=2", "--", "com.x.coin42"],
    ])
    func optionValueFormsAndPositions(arguments: [String]) throws {
        let invocation = try parse(arguments)
        #expect(invocation.path == ["buy"])
        #expect(invocation.spec.name == "buy")
        #expect(invocation.positional("ID") == "com.x.coin42")
        #expect(invocation.value("quantity") == "2")
        #expect(try invocation.int("quantity", in: 1...10) == 2)
        #expect(invocation.value("user") == nil)
        #expect(!invocation.wantsHelp && !invocation.wantsVersion)
    }

    @Test func absentOptionsReadAsNil() throws {
        let invocation = try parse(["buy", "X"])
        #expect(try invocation.int("quantity", in: 1...10) == nil)
        #expect(try invocation.int("quantity", in: 1...10) ?? 1 == 1)
        #expect(invocation.values("quantity") == [])
        #expect(!invocation.isGiven("quantity"))
        #expect(invocation.isGiven("ID"))
    }

    @Test(arguments: [
        ["--store", "/tmp/s", "--json", "--lock-timeout", "2.5", "--catalog", "c.json", "buy", "X"],
        ["buy", "X", "--store", "/tmp/s", "--json", "--lock-timeout", "2.5", "--catalog", "c.json"],
        ["--store=/tmp/s", "buy", "--json", "X", "--lock-timeout=2.5", "--catalog", "c.json"],
    ])
    func globalOptionsBeforeAndAfterTheCommand(arguments: [String]) throws {
        let invocation = try parse(arguments)
        #expect(invocation.path == ["buy"])
        #expect(invocation.positional("ID") == "X")
        #expect(
            invocation.globals
                == GlobalOptions(store: "/tmp/s", json: true, lockTimeout: 2.5, catalog: "c.json"))
        #expect(invocation.value("store") == "/tmp/s")
        #expect(invocation.flag("json"))
    }

    @Test func globalDefaults() throws {
        #expect(try parse(["queue"]).globals == GlobalOptions())
        #expect(try parse(["queue", "--lock-timeout", "0"]).globals.lockTimeout == 0)
    }

    @Test func repeatableOptionsKeepEveryValueInOrder() throws {
        let invocation = try parse(["download", "start", "p", "--content", "a", "--content=b", "--content", "a"])
        #expect(invocation.path == ["download", "start"])
        #expect(invocation.values("content") == ["a", "b", "a"])
        #expect(invocation.value("content") == "a")
    }

    @Test func variadicArgumentsTakeEveryRemainingWord() throws {
        let invocation = try parse(["finish", "1", "2", "3"])
        #expect(invocation.positionals("TXID") == ["1", "2", "3"])
        #expect(invocation.positional("TXID") == "1")
        #expect(!invocation.flag("all"))

        let all = try parse(["finish", "--all"])
        #expect(all.flag("all"))
        #expect(all.positionals("TXID") == [])
        #expect(all.positional("TXID") == nil)
    }

    @Test func repeatedFlagsAreHarmless() throws {
        #expect(try parse(["finish", "--all", "--all"]).flag("all"))
    }

    @Test func everythingAfterTheTerminatorIsPositional() throws {
        let invocation = try parse(["finish", "--", "-1", "--all", "-h", "--"])
        #expect(invocation.positionals("TXID") == ["-1", "--all", "-h", "--"])
        #expect(!invocation.flag("all"))
        #expect(!invocation.wantsHelp)

        let text = try parse(["sha256", "--", "--json"])
        #expect(text.positional("TEXT") == "--json")
        #expect(!text.globals.json)
    }

    @Test func aLoneDashIsAPositional() throws {
        #expect(try parse(["sha256", "-"]).positional("TEXT") == "-")
    }

    @Test func negativeNumbersAreValuesAndArguments() throws {
        let events = try Binder.parse(arguments: ["events", "--since", "-5"], root: SampleCommands.root)
        #expect(events.value("since") == "-5")
        #expect(try events.int("since") == -5)

        let clock = try Binder.parse(arguments: ["clock", "advance", "-1.5"], root: SampleCommands.root)
        #expect(clock.positional("SECONDS") == "-1.5")
        #expect(try clock.double("SECONDS") == -1.5)
    }

    @Test func subcommands() throws {
        let get = try parse(["config", "get"])
        #expect(get.path == ["config", "get"])
        #expect(get.positional("KEY") == nil)

        let set = try parse(["config", "set", "storefront", "JPN"])
        #expect(set.path == ["config", "set"])
        #expect(set.spec.name == "set")
        #expect(set.positional("KEY") == "storefront")
        #expect(set.positional("VALUE") == "JPN")
        #expect(set.commandPath.description == "config set")

        let bool = try parse(["config", "set", "payments-allowed", "no"])
        #expect(try bool.bool("VALUE") == false)
    }

    @Test func aGroupWithADefaultSubcommandRunsIt() throws {
        let invocation = try parse(["download", "--json"])
        #expect(invocation.path == ["download", "list"])
        #expect(invocation.globals.json)
    }

    @Test func typedChoice() throws {
        #expect(try parse(["dump", "--state", "deferred"]).choice("state", among: SampleCommands.states) == "deferred")
    }

    // MARK: Help and version

    @Test(arguments: [
        (["help"], [String]()),
        (["--help"], []),
        (["-h"], []),
        (["--json", "help"], []),
        (["help", "buy"], ["buy"]),
        (["buy", "--help"], ["buy"]),
        (["buy", "-h"], ["buy"]),
        (["--help", "buy"], ["buy"]),
        (["-h", "buy", "X", "--quantity", "2"], ["buy"]),
        (["buy", "--qty", "--help"], ["buy"]),
        (["buy", "--quantity", "--help"], ["buy"]),
        (["buy", "--quantity", "abc", "--help"], ["buy"]),
        (["buy", "X", "Y", "Z", "--help"], ["buy"]),
        (["config", "--help"], ["config"]),
        (["help", "config"], ["config"]),
        (["help", "config", "set"], ["config", "set"]),
        (["--help", "config", "set"], ["config", "set"]),
        (["config", "set", "--help"], ["config", "set"]),
        (["download", "--help"], ["download"]),
        (["help", "help"], ["help"]),
        (["--version", "--help"], []),
        (["--lock-timeout", "x", "--help"], []),
    ])
    func helpIsRequested(arguments: [String], path: [String]) throws {
        let invocation = try parse(arguments)
        #expect(invocation.wantsHelp)
        #expect(!invocation.wantsVersion)
        #expect(invocation.path == path)
        #expect(invocation.spec.name == (path.last ?? "iapctl"))
        #expect(invocation.showsTopLevelHelp == path.isEmpty)
        #expect(invocation.helpText == HelpRenderer.render(invocation.spec, path: path))
    }

    @Test func helpKeepsGlobalOptions() throws {
        #expect(try parse(["--json", "help", "buy"]).globals.json)
    }

    @Test(arguments: [
        ["--version"],
        ["buy", "X", "--version"],
        ["--version", "buy"],
        ["queue", "extra", "--version"],
    ])
    func versionIsRequested(arguments: [String]) throws {
        let invocation = try parse(arguments)
        #expect(invocation.wantsVersion)
        #expect(!invocation.wantsHelp)
    }

    @Test func helpAfterTheTerminatorIsAnArgument() throws {
        #expect(try parse(["sha256", "--", "--help"]).positional("TEXT") == "--help")
    }
}
