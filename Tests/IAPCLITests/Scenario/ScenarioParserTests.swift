import IAPKit
import Testing

@testable import IAPCLI
@testable import IAPRuntime

/// The scenario file format (docs/scenarios.md): quoting and comments, every line form, and the
/// exact line:column message of each malformed line.
@Suite("Scenario parser")
struct ScenarioParserTests {
    private func words(_ line: String) throws -> [ScenarioWord] {
        let lines = try ScenarioParser.parse(line)
        guard case .command(let words)? = lines.first?.kind else {
            Issue.record("not a command line: \(line)")
            return []
        }
        return words
    }

    private func kind(_ text: String) throws -> ScenarioLine.Kind? {
        try ScenarioParser.parse(text).last?.kind
    }

    private func text(_ s: String) -> ScenarioWord { .literal(s) }

    // MARK: Quoting and comments

    static let quoting: [(String, [ScenarioWord])] = [
        ("buy com.x.coin42", [.literal("buy"), .literal("com.x.coin42")]),
        ("  buy\t com.x.coin42  ", [.literal("buy"), .literal("com.x.coin42")]),
        (
            "buy com.x.noads --account 'Handsome Jon'",
            [.literal("buy"), .literal("com.x.noads"), .literal("--account"), .literal("Handsome Jon")]
        ),
        ("sha256 \"Handsome Jon\"", [.literal("sha256"), .literal("Handsome Jon")]),
        ("sha256 'a \"b\" c'", [.literal("sha256"), .literal("a \"b\" c")]),
        ("sha256 \"a 'b' c\"", [.literal("sha256"), .literal("a 'b' c")]),
        ("sha256 \"say \\\"hi\\\" \\\\ \\$5\"", [.literal("sha256"), .literal("say \"hi\" \\ $5")]),
        ("sha256 \"keep \\n as is\"", [.literal("sha256"), .literal("keep \\n as is")]),
        ("sha256 'no $VARS or \\escapes'", [.literal("sha256"), .literal("no $VARS or \\escapes")]),
        ("sha256 a\\ b", [.literal("sha256"), .literal("a b")]),
        ("sha256 \\#not-a-comment", [.literal("sha256"), .literal("#not-a-comment")]),
        ("sha256 a#b", [.literal("sha256"), .literal("a#b")]),
        ("sha256 abc # a comment 'with an open quote", [.literal("sha256"), .literal("abc")]),
        ("sha256 \"a # b\"", [.literal("sha256"), .literal("a # b")]),
        ("sha256 ''", [.literal("sha256"), .literal("")]),
        ("sha256 \"\"", [.literal("sha256"), .literal("")]),
        ("sha256 a'b c'\"d\"", [.literal("sha256"), .literal("ab cd")]),
        ("sha256 $ 5$ a$", [.literal("sha256"), .literal("$"), .literal("5$"), .literal("a$")]),
        ("sha256 '\tx'", [.literal("sha256"), .literal("\tx")]),
        ("sha256 é日本", [.literal("sha256"), .literal("é日本")]),
        ("iapctl buy com.x.coin42", [.literal("buy"), .literal("com.x.coin42")]),
        ("--json buy com.x.coin42", [.literal("--json"), .literal("buy"), .literal("com.x.coin42")]),
        (
            "--catalog $SCENARIO_DIR/c.json queue",
            [.literal("--catalog"), ScenarioWord([.variable("SCENARIO_DIR"), .text("/c.json")]), .literal("queue")]
        ),
        ("--version", [.literal("--version")]),
    ]

    @Test("shell-like quoting", arguments: quoting)
    func quotingRules(line: String, expected: [ScenarioWord]) throws {
        #expect(try words(line) == expected)
    }

    @Test func variablesInEveryForm() throws {
        let lines = try ScenarioParser.parse(
            """
            buy com.x.coin42 --json
            let TX = .transactionIdentifier
            finish $TX "${TX}" 'x$TX' "id:$TX." pre${TX}post
            """)
        guard case .command(let words) = lines[2].kind else { return #expect(Bool(false)) }
        #expect(
            words == [
                .literal("finish"), ScenarioWord([.variable("TX")]), ScenarioWord([.variable("TX")]), .literal("x$TX"),
                ScenarioWord([.text("id:"), .variable("TX"), .text(".")]),
                ScenarioWord([.text("pre"), .variable("TX"), .text("post")]),
            ])
        #expect(words[5].resolved { _ in "7" } == "pre7post")
    }

    @Test func blankLinesCommentsAndLineNumbers() throws {
        let lines = try ScenarioParser.parse("# heading\n\n   \t\ncan-pay   # why\r\n  # indented comment\nexpect exit 0\n")
        #expect(lines.map(\.number) == [4, 6])
        #expect(lines.map(\.text) == ["can-pay   # why", "expect exit 0"])
        #expect(lines[1].kind == .expectExit(0))
    }

    @Test func byteOrderMarkAndCRLF() throws {
        let lines = try ScenarioParser.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("can-pay\r\nexpect exit 1\r\n".utf8))
        #expect(lines.map(\.kind) == [.command([.literal("can-pay")]), .expectExit(1)])
    }

    @Test func emptyFileHasNoLines() throws {
        #expect(try ScenarioParser.parse("").isEmpty)
        #expect(try ScenarioParser.parse("# only a comment\n\n").isEmpty)
    }

    // MARK: Every line form

    @Test func expectationForms() throws {
        let prefix = "buy com.x.coin42 --json\n"
        #expect(try kind(prefix + "expect exit 3") == .expectExit(3))
        #expect(
            try kind("expect state 2000000000000001 purchased")
                == .expectState(transaction: text("2000000000000001"), state: "purchased"))
        #expect(
            try kind(prefix + "let TX = .transactionIdentifier\nexpect state $TX restored")
                == .expectState(transaction: ScenarioWord([.variable("TX")]), state: "restored"))
        #expect(
            try kind(prefix + "expect json .transactions[0].state == purchased")
                == .expectJSON(
                    path: JSONPath(steps: [.member("transactions"), .index(0), .member("state")]), equal: true,
                    value: .word(text("purchased"))))
        #expect(
            try kind(prefix + "expect json .[0].transactionIdentifier != \"2000000000000001\"")
                == .expectJSON(
                    path: JSONPath(steps: [.index(0), .member("transactionIdentifier")]), equal: false,
                    value: .json(.string("2000000000000001"))))
        #expect(
            try kind(prefix + "expect json .products | length == 2")
                == .expectJSON(
                    path: JSONPath(steps: [.member("products")], length: true), equal: true, value: .json(.number("2"))))
        #expect(
            try kind(prefix + "expect json length == 0")
                == .expectJSON(path: JSONPath(steps: [], length: true), equal: true, value: .json(.number("0"))))
        #expect(
            try kind(prefix + "expect json . == null") == .expectJSON(path: JSONPath(steps: []), equal: true, value: .json(.null))
        )
        #expect(
            try kind(prefix + "expect json .invalidProductIdentifiers == [\"com.x.nope\", \"b\"]  # two")
                == .expectJSON(
                    path: JSONPath(steps: [.member("invalidProductIdentifiers")]), equal: true,
                    value: .json(.array([.string("com.x.nope"), .string("b")]))))
        #expect(
            try kind(prefix + "expect json .userIdentifier == 'Handsome Jon'")
                == .expectJSON(
                    path: JSONPath(steps: [.member("userIdentifier")]), equal: true, value: .word(text("Handsome Jon"))))
        #expect(
            try kind("expect count dump --product com.x.coin42 --state purchased == 3")
                == .expectCount(
                    command: ["dump", "--product", "com.x.coin42", "--state", "purchased"].map(ScenarioWord.literal), equal: true,
                    count: 3))
        #expect(try kind("expect count queue != 0") == .expectCount(command: [text("queue")], equal: false, count: 0))
        #expect(
            try kind(prefix + "expect stderr ~ did you mean '--quantity'?")
                == .expectOutput(.stderr, contains: true, text: text("did you mean '--quantity'?")))
        #expect(
            try kind(prefix + "expect stdout !~ purchased   # no")
                == .expectOutput(.stdout, contains: false, text: text("purchased")))
        #expect(
            try kind(prefix + "expect stdout ~ \"  two  spaces\"")
                == .expectOutput(.stdout, contains: true, text: text("  two  spaces")))
        #expect(
            try kind(prefix + "expect stdout ~ '$NOT # a var'")
                == .expectOutput(.stdout, contains: true, text: text("$NOT # a var")))
        #expect(
            try kind(prefix + "let TX = .transactionIdentifier\nexpect stdout ~ id '$TX' done")
                == .expectOutput(.stdout, contains: true, text: ScenarioWord([.text("id '"), .variable("TX"), .text("' done")])))
        #expect(
            try kind(prefix + "let TX_2 = .[-1].x") == .bind(name: "TX_2", path: JSONPath(steps: [.index(-1), .member("x")])))
    }

    @Test func valuesAreJSONLiteralsOrOneWord() throws {
        let prefix = "can-pay --json\nexpect json .a == "
        let cases: [(String, ScenarioLine.Value)] = [
            ("1", .json(.number("1"))), ("-2.5e3", .json(.number("-2.5e3"))), ("true", .json(.bool(true))),
            ("null", .json(.null)), ("\"1\"", .json(.string("1"))), ("'\"true\"'", .word(text("\"true\""))),
            ("{\"a\": [1, {}]}", .json(.object([("a", .array([.number("1"), .object([])]))]))),
            ("purchased", .word(text("purchased"))), ("01", .word(text("01"))),
            ("$STORE", .word(ScenarioWord([.variable("STORE")]))),
            ("\"$STORE\"", .word(ScenarioWord([.variable("STORE")]))), ("'a b'", .word(text("a b"))),
        ]
        for (written, value) in cases {
            #expect(
                try kind(prefix + written) == .expectJSON(path: JSONPath(steps: [.member("a")]), equal: true, value: value),
                "\(written)")
        }
    }

    @Test func linesKeepTheirText() throws {
        let lines = try ScenarioParser.parse("  buy com.x.coin42   \nexpect exit 0 # done")
        #expect(lines.map(\.text) == ["buy com.x.coin42", "expect exit 0 # done"])
        #expect(lines.map(\.isCheck) == [false, true])
    }

    // MARK: Malformed lines

    static let malformed: [(String, String)] = [
        ("buy \"com.x", "1:5: unterminated double quote; close it with \""),
        (
            "can-pay\nexpect stderr ~ can't stop",
            "2:20: unterminated single quote; close it with ' (a single-quoted text cannot contain ')"
        ),
        ("buy com.x.coin42 \\", "1:18: backslash at the end of the line; a command cannot continue on the next line"),
        ("sha256 a\u{01}b", "1:9: control character U+0001; a scenario is plain text (remove it)"),
        ("sha256 \"a\u{7F}\"", "1:10: control character U+007F; a scenario is plain text (remove it)"),
        ("sha256 ${TX", "1:8: unterminated '${'; close the variable name with '}'"),
        ("sha256 ${1x}", "1:8: bad variable name '1x'; use letters, digits and _, not starting with a digit"),
        ("finish $TX", "1:8: undefined variable $TX; keep a value first with 'let TX = PATH'"),
        (
            "bu com.x.coin42",
            "1:1: unknown command 'bu'; did you mean 'buy'? (a line is an iapctl command, an 'expect' or a 'let'; see 'iapctl help')"
        ),
        (
            "--json frobnicate",
            "1:8: unknown command 'frobnicate' (a line is an iapctl command, an 'expect' or a 'let'; see 'iapctl help')"
        ),
        ("run other.iap", "1:1: a scenario cannot run another scenario; put the other file's lines here instead"),
        ("iapctl run other.iap", "1:8: a scenario cannot run another scenario; put the other file's lines here instead"),
        ("events --since 3 --follow", "1:18: 'events --follow' never ends, so the next line would never run; drop --follow"),
        ("iapctl", "1:7: missing command after 'iapctl'; write a command such as 'buy com.x.coin42'"),
        (
            "buy com.x.coin42 --store /tmp/s",
            "1:18: 'iapctl run' gives every line its --store; remove it here (run the scenario with 'iapctl run --store DIR' to use a particular store)"
        ),
        (
            "--store=/tmp/s queue",
            "1:1: 'iapctl run' gives every line its --store; remove it here (run the scenario with 'iapctl run --store DIR' to use a particular store)"
        ),
        ("can-pay\nlet X = .a\n$X buy", "3:1: the command name must be written out, not taken from a variable"),
        (
            "expect",
            "1:7: expect what? write expect exit N, expect state TXID STATE, expect json PATH == VALUE, expect count dump ... == N, expect stdout ~ TEXT or expect stderr ~ TEXT"
        ),
        (
            "can-pay\nexpect exitt 0",
            "2:8: unknown expectation 'exitt' (did you mean 'exit'?); write expect exit N, expect state TXID STATE, expect json PATH == VALUE, expect count dump ... == N, expect stdout ~ TEXT or expect stderr ~ TEXT"
        ),
        ("expect exit 0", "1:1: 'expect exit' checks the last command, but no command comes before it"),
        ("expect json .a == 1", "1:1: 'expect json' checks the last command, but no command comes before it"),
        ("expect stderr ~ x", "1:1: 'expect stderr' checks the last command, but no command comes before it"),
        ("can-pay\nexpect exit", "2:12: missing exit code; write expect exit 0"),
        ("can-pay\nexpect exit 256", "2:13: bad exit code '256'; use a number from 0 to 255"),
        ("can-pay\nexpect exit -1", "2:13: bad exit code '-1'; use a number from 0 to 255"),
        ("can-pay\nexpect exit '0'", "2:13: bad exit code '0'; use a number from 0 to 255"),
        ("can-pay\nexpect exit 0 1", "2:15: unexpected '1' after the exit code"),
        ("expect state 2000000000000001", "1:30: expect state needs a transaction and a state: expect state $TX purchased"),
        (
            "expect state 20x purchased",
            "1:14: bad transaction id '20x'; write a decimal id such as 2000000000000001, or a $NAME kept with let"
        ),
        (
            "expect state 1 purchsed",
            "1:16: unknown state 'purchsed' (did you mean 'purchased'?); use one of: purchasing, purchased, failed, restored, deferred"
        ),
        ("expect state 1 purchased now", "1:26: unexpected 'now' after the state"),
        ("can-pay\nexpect json .a", "2:15: expect json needs a comparison: expect json PATH == VALUE"),
        ("can-pay\nexpect json == 1", "2:13: missing path before '=='; write expect json .state == purchased"),
        (
            "can-pay\nexpect json .a ==",
            "2:18: missing value after '=='; write a JSON literal (\"text\", 1, true, null) or one word"
        ),
        (
            "can-pay\nexpect json .a == two words",
            "2:19: the value two words is neither a JSON literal nor one word; quote it as one word, or as a JSON string"
        ),
        (
            "can-pay\nexpect json a == 1",
            "2:13: a path starts with '.' or '['; paths look like .transactions[0].state, .[0].transactionIdentifier or .products | length"
        ),
        ("can-pay\nexpect json .a[x] == 1", "2:15: expected an index such as [0] or [-1]"),
        ("can-pay\nexpect json .a[ == 1", "2:15: expected an index such as [0] or [-1]"),
        (
            "can-pay\nexpect json .a. == 1",
            "2:15: a member name must follow '.'; paths look like .transactions[0].state, .[0].transactionIdentifier or .products | length"
        ),
        ("can-pay\nexpect json ..a == 1", "2:14: unexpected '.' after '.'; write a member name, [index] or \"quoted name\""),
        ("can-pay\nexpect json .a | keys == 1", "2:18: only 'length' may follow '|' in a path; got 'keys'"),
        ("can-pay\nexpect json .a b == 1", "2:16: expected '| length' after the path"),
        ("can-pay\nexpect json .\"a == 1", "2:14: unterminated double quote; close it with \""),
        (
            "can-pay\nexpect json .a$ == 1",
            "2:15: unexpected '$' in the path; paths look like .transactions[0].state, .[0].transactionIdentifier or .products | length"
        ),
        (
            "expect count buy x == 1",
            "1:14: expect count lists transactions; write expect count dump [--product ID] [--state S] [--unfinished] [--user ID] == N (or expect count queue == N)"
        ),
        (
            "expect count dump --product x",
            "1:30: missing '== N'; write expect count dump [--product ID] [--state S] [--unfinished] [--user ID] == N (or expect count queue == N)"
        ),
        (
            "expect count dump ==",
            "1:21: missing count after '=='; write expect count dump [--product ID] [--state S] [--unfinished] [--user ID] == N (or expect count queue == N)"
        ),
        ("expect count dump == -1", "1:22: bad count '-1'; use a whole number such as 3"),
        ("expect count dump == 3 4", "1:24: unexpected '4' after the count"),
        (
            "expect count dump --store /x == 3",
            "1:19: 'iapctl run' gives every line its --store; remove it here (run the scenario with 'iapctl run --store DIR' to use a particular store)"
        ),
        (
            "can-pay\nexpect stdout contains x",
            "2:15: expected '~' or '!~'; write expect stdout ~ TEXT (contains) or expect stdout !~ TEXT (does not contain)"
        ),
        (
            "can-pay\nexpect stdout",
            "2:14: expected '~' or '!~'; write expect stdout ~ TEXT (contains) or expect stdout !~ TEXT (does not contain)"
        ),
        (
            "can-pay\nexpect stderr ~   # nothing",
            "2:16: missing text after '~'; write expect stderr ~ TEXT (contains) or expect stderr !~ TEXT (does not contain)"
        ),
        ("can-pay\nexpect stdout ~ id $NOPE", "2:20: undefined variable $NOPE; keep a value first with 'let NOPE = PATH'"),
        (
            "can-pay\nexpect stdout ~ id '$NOPE' x",
            "2:21: undefined variable $NOPE; keep a value first with 'let NOPE = PATH' (to match a literal $, single-quote the whole text)"
        ),
        (
            "can-pay\nlet",
            "2:4: let needs a name of letters, digits and _ (not starting with a digit); write let NAME = PATH, such as let TX = .transactionIdentifier"
        ),
        (
            "can-pay\nlet 1X = .a",
            "2:5: let needs a name of letters, digits and _ (not starting with a digit); write let NAME = PATH, such as let TX = .transactionIdentifier"
        ),
        ("can-pay\nlet STORE = .a", "2:5: $STORE is set by 'iapctl run'; choose another name"),
        ("can-pay\nlet X .a", "2:7: expected '=' after the name; write let NAME = PATH, such as let TX = .transactionIdentifier"),
        ("can-pay\nlet X =", "2:8: missing path after '='; write let NAME = PATH, such as let TX = .transactionIdentifier"),
        ("let X = .a", "1:1: 'let' keeps a value from the last command's output, but no command comes before it"),
        (
            "can-pay\nlet X = a",
            "2:9: a path starts with '.' or '['; paths look like .transactions[0].state, .[0].transactionIdentifier or .products | length"
        ),
        ("can-pay\nlet X = .a\nlet Y = .b\nfinish $X $Z", "4:11: undefined variable $Z; keep a value first with 'let Z = PATH'"),
    ]

    @Test("malformed lines name their line and column", arguments: malformed)
    func malformedLine(text: String, message: String) {
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse(text) }
        do {
            _ = try ScenarioParser.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func invalidUTF8NamesItsPosition() {
        let bytes = Array("can-pay\nsha256 ab".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        #expect(throws: ScenarioError(line: 2, column: 10, "invalid UTF-8; save the scenario as UTF-8 text")) {
            try ScenarioParser.parse(bytes: bytes)
        }
    }

    @Test func columnsCountScalarsNotBytes() {
        #expect(throws: ScenarioError(line: 1, column: 10, "unterminated double quote; close it with \"")) {
            try ScenarioParser.parse("sha256 é \"x")
        }
    }

    @Test func commandNames() {
        #expect(ScenarioParser.commandName(in: ["buy", "x"]) == "buy")
        #expect(ScenarioParser.commandName(in: ["--json", "--catalog", "c.json", "events"]) == "events")
        #expect(ScenarioParser.commandName(in: ["--catalog=c.json", "events"]) == "events")
        #expect(ScenarioParser.commandName(in: ["--version"]) == nil)
        #expect(ScenarioParser.commandName(in: ["--", "events"]) == nil)
    }
}

/// The parser with iapctl's commands and global options, as `iapctl run` calls it.
extension ScenarioParser {
    fileprivate static func parse(_ text: String) throws(ScenarioError) -> [ScenarioLine] {
        try parse(text, vocabulary: .iapctl)
    }

    fileprivate static func parse(bytes: [UInt8]) throws(ScenarioError) -> [ScenarioLine] {
        try parse(bytes: bytes, vocabulary: .iapctl)
    }

    fileprivate static func commandName(in arguments: [String]) -> String? {
        commandName(in: arguments, vocabulary: .iapctl)
    }
}
