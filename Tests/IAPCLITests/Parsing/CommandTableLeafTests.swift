import Testing

@testable import IAPCLI

/// `run` parses a line against the one leaf command it names (`CommandTable.leaf(named:)`), then
/// against the whole table when that does not bind: the lookup must know every leaf by its name,
/// and a line bound against the leaf alone must be the invocation the whole table gives.
struct CommandTableLeafTests {
    @Test func everyLeafIsFoundByItsName() {
        for leaf in CommandTable.leaves {
            #expect(CommandTable.leaf(named: leaf.spec.name)?.spec.name == leaf.spec.name, "\(leaf.spec.name)")
        }
    }

    @Test func groupsHelpAndOtherWordsAreNotLeaves() {
        for group in CommandTable.groups { #expect(CommandTable.leaf(named: group.spec.name) == nil, "\(group.spec.name)") }
        for word in ["help", "iapctl", "com.x.coin42", "--store", "Buy", ""] {
            #expect(CommandTable.leaf(named: word) == nil, "\(word)")
        }
    }

    @Test(arguments: [
        ["buy", "com.x.coin42"],
        ["--store", "/tmp/s", "buy", "com.x.coin42", "--quantity", "3", "--json"],
        ["buy", "com.x.noads", "--account", "Handsome Jon", "--store=x"],
        ["finish", "--all"],
        ["queue", "--json"],
        ["run", "scenario.iap", "--keep"],
    ])
    func aLineBoundAgainstItsLeafAloneIsTheSameInvocation(_ line: [String]) throws {
        let leaf = try #require(line.lazy.compactMap(CommandTable.leaf(named:)).first)
        let alone = try Binder.parse(arguments: line, root: CommandTable.root(alone: leaf))
        let full = try Binder.parse(arguments: line, root: CommandTable.root)
        #expect(alone.path == full.path && alone.programName == full.programName)
        #expect(alone.globals.store == full.globals.store && alone.globals.json == full.globals.json)
        for option in full.spec.options { #expect(alone.value(option.name) == full.value(option.name), "\(option.name)") }
        for argument in full.spec.arguments {
            #expect(alone.positional(argument.name) == full.positional(argument.name), "\(argument.name)")
        }
        #expect(alone.helpText == full.helpText)
    }

    @Test func aWordNamingAnotherCommandDoesNotBindAgainstTheFirstLeaf() throws {
        // `--store run buy X`: the first leaf name is the store's path; against `run` alone the
        // line does not bind, so `run` parses it against the whole table.
        let line = ["--store", "run", "buy", "com.x.coin42"]
        let leaf = CommandTable.leaf(named: "run")!
        #expect(throws: UsageError.self) { try Binder.parse(arguments: line, root: CommandTable.root(alone: leaf)) }
        #expect(try Binder.parse(arguments: line, root: CommandTable.root).path == ["buy"])
    }
}
