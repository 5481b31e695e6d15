import Testing

@testable import IAPCLI

/// A group whose default subcommand takes arguments takes them directly: `jws TXID` is
/// `jws show TXID`, while subcommand names and near misses keep their meaning.
struct ParsingDefaultSubcommandTests {
    private func parse(_ arguments: [String]) throws(UsageError) -> ParsedInvocation {
        try Binder.parse(arguments: arguments, root: CommandTable.root)
    }

    @Test func wordGoesToTheDefaultSubcommand() throws {
        let direct = try parse(["jws", "2000000000000001", "--json"])
        #expect(direct.path == ["jws", "show"] && direct.positional("TXID") == "2000000000000001" && direct.globals.json)
        let named = try parse(["jws", "show", "2000000000000001"])
        #expect(named.path == direct.path && named.positional("TXID") == "2000000000000001")
        #expect(try parse(["jws", "renewal", "com.x.vip2"]).path == ["jws", "renewal"])
        #expect(try parse(["jws", "decode", "-", "--root", "r.pem"]).value("root") == "r.pem")
    }

    @Test func nearMissIsStillAnUnknownSubcommand() {
        #expect(throws: UsageError.self) { try parse(["jws", "renewl", "x"]) }
        do {
            _ = try parse(["jws", "renewl", "x"])
        } catch {
            #expect(error.description.contains("did you mean 'renewal'?"), "\(error.description)")
        }
    }

    @Test func groupsWhoseDefaultTakesNoArgumentsAreUnchanged() {
        #expect(throws: UsageError.self) { try parse(["receipt", "somefile"]) }
    }
}
