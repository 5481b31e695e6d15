import IAPKit
import Testing

@testable import IAPCLI

/// Every malformed command line gets one exact, lowercase line naming the bad word and the fix.
struct ParsingUsageErrorTests {
    static let cases: [([String], String)] = [
        // Unknown options, with and without a suggestion.
        (
            ["buy", "X", "--qty", "2"],
            "unknown option '--qty' for 'buy'; did you mean '--quantity'? (see 'iapctl help buy')"
        ),
        (
            ["buy", "X", "--quantitty=2"],
            "unknown option '--quantitty' for 'buy'; did you mean '--quantity'? (see 'iapctl help buy')"
        ),
        (["buy", "X", "--zzz"], "unknown option '--zzz' for 'buy' (see 'iapctl help buy')"),
        (["queue", "--jsn"], "unknown option '--jsn' for 'queue'; did you mean '--json'? (see 'iapctl help queue')"),
        (["queue", "-json"], "unknown option '-json' for 'queue'; did you mean '--json'? (see 'iapctl help queue')"),
        (["queue", "-x"], "unknown option '-x' for 'queue' (see 'iapctl help queue')"),
        (["queue", "--=x"], "unknown option '--=x' for 'queue' (see 'iapctl help queue')"),
        (["--quantity", "2", "buy", "X"], "unknown option '--quantity' (see 'iapctl help')"),
        (
            ["config", "--stor", "d", "get"],
            "unknown option '--stor' for 'config'; did you mean '--store'? (see 'iapctl help config')"
        ),
        (["help", "--zzz"], "unknown option '--zzz' for 'help' (see 'iapctl help help')"),
        // Unknown commands and subcommands.
        (["by"], "unknown command 'by'; did you mean 'buy'? (see 'iapctl help')"),
        (["Buy", "X"], "unknown command 'Buy'; did you mean 'buy'? (see 'iapctl help')"),
        (["xyzzy"], "unknown command 'xyzzy' (see 'iapctl help')"),
        (["-", "buy"], "unknown command '-' (see 'iapctl help')"),
        (["config", "gte"], "unknown subcommand 'gte' for 'config'; did you mean 'get'? (see 'iapctl help config')"),
        (["config", "zzz"], "unknown subcommand 'zzz' for 'config'; use one of: get, set (see 'iapctl help config')"),
        (["help", "by"], "unknown command 'by'; did you mean 'buy'? (see 'iapctl help')"),
        (
            ["help", "config", "gt"],
            "unknown subcommand 'gt' for 'config'; did you mean 'get'? (see 'iapctl help config')"
        ),
        (["help", "buy", "extra"], "unexpected argument 'extra' for 'help' (see 'iapctl help help')"),
        // Missing commands and subcommands.
        (
            ["--json"],
            "missing command; usage: iapctl <command> [<arguments>] [<options>], such as 'iapctl products' or 'iapctl buy com.x.coin42' (see 'iapctl help')"
        ),
        (["config"], "missing subcommand for 'config'; use one of: get, set (see 'iapctl help config')"),
        (
            ["--store", "d", "clock", "--json"],
            "missing subcommand for 'clock'; use one of: advance (see 'iapctl help clock')"
        ),
        // Option values.
        (["buy", "X", "--quantity"], "missing value for '--quantity <n>' (see 'iapctl help buy')"),
        (["buy", "X", "--quantity", "--user", "u"], "missing value for '--quantity <n>' (see 'iapctl help buy')"),
        (["buy", "X", "--quantity", "--", "5"], "missing value for '--quantity <n>' (see 'iapctl help buy')"),
        (["--store"], "missing value for '--store <dir>' (see 'iapctl help')"),
        (["queue", "--store"], "missing value for '--store <dir>' (see 'iapctl help queue')"),
        (
            ["download", "start", "p", "--content"],
            "missing value for '--content <path>' (see 'iapctl help download start')"
        ),
        (["finish", "--all=yes"], "'--all' takes no value"),
        (["queue", "--json=1"], "'--json' takes no value"),
        (["buy", "X", "--quantity", "1", "--quantity", "2"], "option '--quantity' given twice"),
        (["--store", "a", "queue", "--store=b"], "option '--store' given twice"),
        // Typed values.
        (["buy", "X", "--quantity", "abc"], "'--quantity' expects an integer from 1 to 10, got 'abc'"),
        (["buy", "X", "--quantity", "0"], "'--quantity' expects an integer from 1 to 10, got '0'"),
        (["buy", "X", "--quantity", "-5"], "'--quantity' expects an integer from 1 to 10, got '-5'"),
        (["buy", "X", "--quantity=11"], "'--quantity' expects an integer from 1 to 10, got '11'"),
        (["buy", "X", "--quantity", "2.5"], "'--quantity' expects an integer from 1 to 10, got '2.5'"),
        (["buy", "X", "--quantity="], "'--quantity' expects an integer from 1 to 10, got ''"),
        (["events", "--since", "-1"], "'--since' expects an integer of at least 0, got '-1'"),
        (["--lock-timeout", "abc", "queue"], "'--lock-timeout' expects a number from 0 to 86400, got 'abc'"),
        (["queue", "--lock-timeout=-1"], "'--lock-timeout' expects a number from 0 to 86400, got '-1'"),
        (["queue", "--lock-timeout", "nan"], "'--lock-timeout' expects a number from 0 to 86400, got 'nan'"),
        (["clock", "advance", "soon"], "<SECONDS> expects a number from 0 to 86400, got 'soon'"),
        (
            ["dump", "--state", "purchsed"],
            "'--state' expects one of: purchasing, purchased, failed, restored, deferred, got 'purchsed'; did you mean 'purchased'?"
        ),
        (["config", "set", "payments-allowed", "maybe"], "<VALUE> expects true or false, got 'maybe'"),
        // Positional arguments.
        (["buy"], "missing argument <ID> for 'buy' (see 'iapctl help buy')"),
        (["buy", "--quantity", "2"], "missing argument <ID> for 'buy' (see 'iapctl help buy')"),
        (["config", "set", "storefront"], "missing argument <VALUE> for 'config set' (see 'iapctl help config set')"),
        (["download", "start"], "missing argument <ID> for 'download start' (see 'iapctl help download start')"),
        (["queue", "x"], "unexpected argument 'x' for 'queue' (see 'iapctl help queue')"),
        (["buy", "X", "Y"], "unexpected argument 'Y' for 'buy' (see 'iapctl help buy')"),
        (["config", "get", "a", "b"], "unexpected argument 'b' for 'config get' (see 'iapctl help config get')"),
        (["config", "set", "k", "v", "w"], "unexpected argument 'w' for 'config set' (see 'iapctl help config set')"),
        (["--", "buy"], "unexpected argument 'buy' for 'iapctl' (see 'iapctl help')"),
        (["config", "--", "get"], "unexpected argument 'get' for 'config' (see 'iapctl help config')"),
        // Declared groups.
        (["buy", "X", "--user", "u", "--account", "a"], "'--user' and '--account' cannot be used together"),
        (["buy", "X", "--account", "a", "--user", "u"], "'--user' and '--account' cannot be used together"),
        (["finish"], "missing argument <TXID> or '--all' for 'finish' (see 'iapctl help finish')"),
        (["finish", "1", "--all"], "<TXID> and '--all' cannot be used together"),
    ]

    @Test(arguments: cases)
    func malformedCommandLine(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try SampleCommands.parseAndRead(arguments) }
        do {
            _ = try SampleCommands.parseAndRead(arguments)
        } catch {
            #expect(error.description == message)
            #expect(error.exitCode == .usage)
            #expect(error.exitCode.rawValue == 64)
        }
    }

    @Test func theTableIsLargeAndHasNoDuplicates() {
        #expect(Self.cases.count >= 30)
        #expect(Set(Self.cases.map(\.0)).count == Self.cases.count)
    }

    @Test func messagesAreOneLowercaseLineWithoutATrailingPeriod() {
        for (arguments, _) in Self.cases {
            do {
                _ = try SampleCommands.parseAndRead(arguments)
            } catch {
                let text = error.description
                #expect(!text.contains("\n"))
                #expect(!text.hasSuffix("."))
                #expect(text.first.map { !$0.isUppercase } == true, "\(text)")
            }
        }
    }

    @Test func commandsReportTheirOwnMisuseWithAHelpHint() throws {
        let invocation = try Binder.parse(arguments: ["config", "set", "colour", "red"], root: SampleCommands.root)
        let error = invocation.usageError("unknown setting 'colour'; did you mean 'color'?")
        #expect(error.description == "unknown setting 'colour'; did you mean 'color'? (see 'iapctl help config set')")
    }
}
