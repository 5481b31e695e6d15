import Foundation
import Testing

/// SPEC section 7: every malformed input gets one line naming the value and the fix, the
/// documented exit code, and no change to the store. Each row runs the real binary.
@Suite("Bad input, end to end")
struct BadInputTests {
    struct Row: CustomStringConvertible, Sendable {
        let arguments: [String]
        let code: Int32
        let message: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let rows: [Row] = [
        Row(
            arguments: ["by", "com.x.coin42"], code: 64,
            message: "error: unknown command 'by'; did you mean 'buy'? (see 'iapctl help')"),
        Row(arguments: ["frobnicate"], code: 64, message: "error: unknown command 'frobnicate'"),
        Row(arguments: ["buy"], code: 64, message: "error: missing argument <ID> for 'buy' (see 'iapctl help buy')"),
        Row(
            arguments: ["buy", "com.x.coin42", "--qty", "2"], code: 64,
            message: "error: unknown option '--qty' for 'buy'; did you mean '--quantity'? (see 'iapctl help buy')"),
        Row(
            arguments: ["buy", "com.x.coin42", "--quantity"], code: 64,
            message: "error: missing value for '--quantity <n>' (see 'iapctl help buy')"),
        Row(
            arguments: ["buy", "com.x.coin42", "--quantity", "abc"], code: 64,
            message: "error: '--quantity' expects an integer from 1 to 10, got 'abc'"),
        Row(
            arguments: ["buy", "com.x.coin42", "--quantity", "0"], code: 64,
            message: "error: '--quantity' expects an integer from 1 to 10, got '0'"),
        Row(
            arguments: ["buy", "com.x.coin42", "--quantity=11"], code: 64,
            message: "error: '--quantity' expects an integer from 1 to 10, got '11'"),
        Row(
            arguments: ["buy", "com.x.coin42", "--quantity", "-3"], code: 64,
            message: "error: '--quantity' expects an integer from 1 to 10, got '-3'"),
        Row(
            arguments: ["buy", "com.x.coin42", "--quantity", "2", "--quantity", "3"], code: 64,
            message: "error: option '--quantity' given twice"),
        Row(
            arguments: ["buy", "com.x.noads", "--quantity", "2"], code: 64,
            message: "error: quantity above 1 is only for consumables; 'com.x.noads' is nonConsumable (drop --quantity)"),
        Row(
            arguments: ["buy", "com.x.coin42", "--user", "u", "--account", "a"], code: 64,
            message: "error: '--user' and '--account' cannot be used together"),
        Row(
            arguments: ["buy", "com.x.coin43"], code: 3,
            message:
                "error: unknown product 'com.x.coin43'; closest known: com.x.coin42, com.x.coin1386, com.x.coin210 (see 'iapctl products')"
        ),
        Row(
            arguments: ["buy", "com.x.coin42", "extra"], code: 64,
            message: "error: unexpected argument 'extra' for 'buy' (see 'iapctl help buy')"),
        Row(
            arguments: ["buy", "com.x.coin42", "--user", ""], code: 64,
            message: "error: bad --user ''; give a non-empty id of at most 256 characters on one line"),
        Row(arguments: ["finish"], code: 64, message: "error: "),
        Row(
            arguments: ["finish", "abc"], code: 64,
            message: "error: bad transaction id 'abc'; ids are decimal numbers such as 2000000000000001"),
        Row(arguments: ["finish", "-5"], code: 64, message: "error: bad transaction id '-5'; ids are decimal numbers"),
        Row(
            arguments: ["finish", "99999999999999999999999"], code: 64,
            message: "error: bad transaction id '99999999999999999999999'"),
        Row(
            arguments: ["finish", "2000000000000042"], code: 3,
            message: "error: unknown transaction '2000000000000042' (see 'iapctl queue' or 'iapctl dump')"),
        Row(arguments: ["finish", "--all=yes"], code: 64, message: "error: '--all' takes no value"),
        Row(arguments: ["finish", "--all", "2000000000000001"], code: 64, message: "error: "),
        Row(
            arguments: ["queue", "x"], code: 64, message: "error: unexpected argument 'x' for 'queue' (see 'iapctl help queue')"),
        Row(arguments: ["dump", "--state", "purchsed"], code: 64, message: "did you mean 'purchased'?"),
        Row(
            arguments: ["dump", "--unfinshed"], code: 64,
            message: "error: unknown option '--unfinshed' for 'dump'; did you mean '--unfinished'? (see 'iapctl help dump')"),
        Row(
            arguments: ["config"], code: 64,
            message: "error: missing subcommand for 'config'; use one of: get, set (see 'iapctl help config')"),
        Row(
            arguments: ["config", "set", "storefront"], code: 64,
            message: "error: missing argument <VALUE> for 'config set' (see 'iapctl help config set')"),
        Row(
            arguments: ["config", "set", "storefront", "XYZ"], code: 64,
            message: "error: bad value 'XYZ' for setting storefront; expected a storefront code; use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN"),
        Row(
            arguments: ["config", "set", "payments-allowed", "maybe"], code: 64,
            message: "error: bad value 'maybe' for setting payments-allowed; expected true or false"),
        Row(
            arguments: ["config", "set", "storefrnt", "USA"], code: 64,
            message: "error: unknown setting 'storefrnt'; did you mean 'storefront'? (see 'iapctl config get' for the list)"),
        Row(arguments: ["config", "get", "nope"], code: 64, message: "error: unknown setting 'nope'"),
        Row(
            arguments: ["config", "set", "clock-step", "fast"], code: 64,
            message: "error: bad value 'fast' for setting clock-step; expected a duration from 0 to 366d"),
        Row(arguments: ["events", "--since", "-1"], code: 64, message: "error: '--since' expects an integer"),
        Row(
            arguments: ["products", "--storefront", "MARS"], code: 64,
            message: "error: unknown storefront 'MARS'; did you mean 'MAR'? use an App Store storefront's ISO 3166-1 alpha-3 code"),
        Row(arguments: ["show", "2000000000000009"], code: 3, message: "error: unknown transaction '2000000000000009'"),
        Row(arguments: ["--lock-timeout", "soon", "queue"], code: 64, message: "error: '--lock-timeout' expects a number"),
        Row(
            arguments: ["init", "--start-date", "yesterday"], code: 64,
            message: "error: bad --start-date 'yesterday'; write RFC 3339 such as 2026-01-01T00:00:00Z"),
        Row(arguments: ["init", "--storefront", "ZZZ"], code: 64, message: "error: unknown storefront 'ZZZ'"),
        Row(arguments: ["init"], code: 4, message: "error: a store already exists at"),
        Row(
            arguments: ["--catalog", "/nonexistent/catalog.json", "queue"], code: 66,
            message: "error: cannot read '/nonexistent/catalog.json': no such file"),
        Row(arguments: ["sha256"], code: 64, message: "error: missing argument <TEXT> for 'sha256'"),
    ]

    @Test("malformed inputs", arguments: rows)
    func badInput(row: Row) throws {
        let h = CLIHarness()
        // A store with one purchase, so "no change to the store" means something.
        try #require(h.run(["buy", "com.x.coin42"]).code == 0)
        let before = ["state", "journal", "catalog"].map { h.bytes("store/" + $0) }
        let result = h.run(row.arguments)
        #expect(result.code == row.code, "\(result)")
        #expect(result.stderr.hasPrefix(row.message) || result.stderr.contains(row.message), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result)")
        #expect(!result.stderr.contains("Fatal error"), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(["state", "journal", "catalog"].map { h.bytes("store/" + $0) } == before, "the store changed")
    }

    @Test(
        "a malformed catalog exits 65 naming the file and the product",
        arguments: [
            (
                "dup",
                #"{"products":[{"productIdentifier":"a","type":"consumable","localizations":{"en_US":{"title":"A"}},"prices":{"USA":"1"}},{"productIdentifier":"a","type":"consumable","localizations":{"en_US":{"title":"A"}},"prices":{"USA":"1"}}]}"#,
                "product 'a', at products[1].productIdentifier: duplicate product identifier"
            ),
            (
                "type",
                #"{"products":[{"productIdentifier":"a","type":"consumible","localizations":{"en_US":{"title":"A"}},"prices":{"USA":"1"}}]}"#,
                "product 'a', at products[0].type: unknown type 'consumible'; did you mean 'consumable'?"
            ),
            (
                "price",
                #"{"products":[{"productIdentifier":"a","type":"consumable","localizations":{"en_US":{"title":"A"}},"prices":{"USA":"-1"}}]}"#,
                "product 'a', at products[0].prices.USA: bad price '-1'"
            ),
            (
                "jpy",
                #"{"products":[{"productIdentifier":"a","type":"consumable","localizations":{"en_US":{"title":"A"}},"prices":{"JPN":"1.5"}}]}"#,
                "bad price '1.5'; JPY has 0 decimal digits"
            ),
            (
                "period",
                #"{"products":[{"productIdentifier":"s","type":"autoRenewable","subscriptionGroup":"g","localizations":{"en_US":{"title":"S"}},"prices":{"USA":"1"}}]}"#,
                "product 's', at products[0].subscriptionPeriod: missing; a autoRenewable subscription needs a period"
            ),
            ("syntax", #"{"products":[}"#, "invalid JSON at byte 13"),
        ])
    func badCatalog(name: String, json: String, message: String) {
        let h = CLIHarness()
        h.write("\(name).json", json)
        let result = h.run(["init", "--catalog", h.path("\(name).json")])
        #expect(result.code == 65, "\(result)")
        #expect(result.stderr.contains("catalog \(h.path("\(name).json"))"), "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: h.store + "/state"))
    }
}
