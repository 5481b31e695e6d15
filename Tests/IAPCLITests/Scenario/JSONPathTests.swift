import IAPKit
import Testing

@testable import IAPCLI
@testable import IAPJSON
@testable import IAPRuntime

/// The path syntax of `expect json` and `let`, and what a path names in a document.
@Suite("Scenario JSON paths")
struct JSONPathTests {
    static let document = try! JSONParser.parse(
        """
        {"transactions": [{"state": "purchased", "quantity": 2}, {"state": "restored", "downloads": []}],
         "odd key": {"a\\"b": true}, "empty": {}, "n": null, "title": "日本"}
        """)

    private func value(_ path: String) throws -> Result<JSONValue, JSONPath.PathFailure> {
        try JSONPath.parse(path.unicodeScalars, line: 1, column: 1).evaluate(Self.document)
    }

    static let found: [(String, JSONValue)] = [
        (".transactions[0].state", .string("purchased")),
        (".transactions.[1].state", .string("restored")),
        (".transactions[-1].state", .string("restored")),
        (".transactions[0].quantity", .number("2")),
        (".transactions | length", .number("2")),
        (".transactions|length", .number("2")),
        (".transactions[1].downloads | length", .number("0")),
        ("length", .number("5")),
        (". | length", .number("5")),
        (".\"odd key\".\"a\\\"b\"", .bool(true)),
        (".empty", .object([])),
        (".n | length", .number("0")),
        (".title | length", .number("2")),
        (".n", .null),
    ]

    @Test(arguments: found)
    func pathFound(path: String, expected: JSONValue) throws {
        #expect(try value(path) == .success(expected))
    }

    static let missing: [(String, String)] = [
        (".transaction", "no member 'transaction' in . (it has: transactions, odd key, empty, n, title)"),
        (".empty.x", "no member 'x' in .empty (it is empty)"),
        (".transactions[2]", "index 2 is out of range: .transactions has 2 items"),
        (".transactions[-3]", "index -3 is out of range: .transactions has 2 items"),
        (".transactions.state", ".transactions is an array, not an object with member 'state'"),
        (".title[0]", ".title is a string, not an array to index with [0]"),
        (".transactions[0].quantity | length", ".transactions[0].quantity is a number, which has no length"),
    ]

    @Test(arguments: missing)
    func pathMissing(path: String, message: String) throws {
        #expect(try value(path) == .failure(JSONPath.PathFailure(message)))
    }

    @Test func rootOfAnArray() throws {
        let path = try JSONPath.parse(".[0].transactionIdentifier".unicodeScalars, line: 1, column: 1)
        #expect(path.evaluate(.array([.object([("transactionIdentifier", .string("7"))])])) == .success(.string("7")))
        #expect(path.evaluate(.array([])) == .failure(JSONPath.PathFailure("index 0 is out of range: . has 0 items")))
    }

    @Test func descriptionsAreThePlainestSpelling() throws {
        for (written, plain) in [
            (".transactions.[0].state", ".transactions[0].state"), ("length", ". | length"), (".", "."),
            (".\"odd key\"|length", ".\"odd key\" | length"), (".[-1]", "[-1]"),
        ] {
            #expect(try JSONPath.parse(written.unicodeScalars, line: 1, column: 1).description == plain)
        }
    }

    @Test func unterminatedQuotedName() {
        #expect(throws: ScenarioError(line: 1, column: 2, "unterminated quoted member name; close it with \"")) {
            try JSONPath.parse(".\"a".unicodeScalars, line: 1, column: 1)
        }
    }

    @Test func errorsAreAtTheirColumn() {
        #expect(throws: ScenarioError(line: 4, column: 12, "expected an index such as [0] or [-1]")) {
            try JSONPath.parse(".a[x]".unicodeScalars, line: 4, column: 10)
        }
    }
}
