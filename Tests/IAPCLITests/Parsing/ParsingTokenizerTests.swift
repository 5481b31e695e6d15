import Testing

@testable import IAPCLI

struct ParsingTokenizerTests {
    static let cases: [([String], [Token])] = [
        ([], []),
        (["buy", "com.x.coin42"], [.word("buy"), .word("com.x.coin42")]),
        (["--quantity", "2"], [.longOption(name: "quantity", value: nil), .word("2")]),
        (["--quantity=2"], [.longOption(name: "quantity", value: "2")]),
        (["--note=a=b"], [.longOption(name: "note", value: "a=b")]),
        (["--note="], [.longOption(name: "note", value: "")]),
        (["--all"], [.longOption(name: "all", value: nil)]),
        (["-h"], [.shortOption("h")]),
        (["-abc"], [.shortOption("abc")]),
        (["-"], [.word("-")]),
        (["-5", "-1.5", "-.5", "-0"], [.word("-5"), .word("-1.5"), .word("-.5"), .word("-0")]),
        (["-x5"], [.shortOption("x5")]),
        (["--"], [.terminator]),
        (
            ["a", "--", "--json", "-h", "--", "-"],
            [.word("a"), .terminator, .word("--json"), .word("-h"), .word("--"), .word("-")]
        ),
        ([""], [.word("")]),
        (["--=x"], [.longOption(name: "", value: "x")]),
    ]

    @Test(arguments: cases)
    func tokenize(arguments: [String], expected: [Token]) {
        #expect(ArgumentTokenizer.tokenize(arguments) == expected)
    }

    @Test func tokensSpellTheWordTheyCameFrom() {
        let arguments = ["buy", "--quantity=2", "--all", "-h", "--", "-5"]
        #expect(ArgumentTokenizer.tokenize(arguments).map(\.text) == arguments)
    }
}
