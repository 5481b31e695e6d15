import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SPEC section 7: every malformed input gets one line naming the value and the fix, the
/// documented exit code, and no change to the store. Each row runs the real binary in a fresh
/// directory holding a store with one purchase (and a regular file `afile`, for paths that run
/// through a file), and checks the whole of stderr, the exit code, an empty stdout, the store's
/// files byte for byte, and that no file or directory appeared.
@Suite("Bad input, end to end")
struct BadInputTests {
    struct Row: CustomStringConvertible, Sendable {
        let arguments: [String]
        let code: Int32
        /// The whole error line after `error: `. `$STORE`, `$DIR`, `$FIXTURES` and `$PORT` (a
        /// port the test holds open) stand for paths and numbers known only when it runs, in
        /// arguments too.
        let message: String
        /// Standard input, for `run -` and `receipt decode -`.
        var stdin: String? = nil
        /// Commands run before the store is snapshotted, each expected to succeed.
        var setup: [[String]] = []
        /// False: the arguments are the whole command line (no `--store` first).
        var useStore = true

        init(
            _ arguments: [String], _ code: Int32, _ message: String, stdin: String? = nil, setup: [[String]] = [],
            useStore: Bool = true
        ) {
            self.arguments = arguments
            self.code = code
            self.message = message
            self.stdin = stdin
            self.setup = setup
            self.useStore = useStore
        }

        var description: String { arguments.joined(separator: " ").replacing("\n", with: "\\n") }
    }

    static let rows: [Row] = [
        Row(["by", "com.x.coin42"], 64, "unknown command 'by'; did you mean 'buy'? (see 'iapctl help')"),
        Row(["frobnicate"], 64, "unknown command 'frobnicate' (see 'iapctl help')"),
        Row(["buy"], 64, "missing argument <ID> for 'buy' (see 'iapctl help buy')"),
        Row(
            ["buy", "com.x.coin42", "--qty", "2"], 64,
            "unknown option '--qty' for 'buy'; did you mean '--quantity'? (see 'iapctl help buy')"),
        Row(["buy", "com.x.coin42", "--quantity"], 64, "missing value for '--quantity <n>' (see 'iapctl help buy')"),
        Row(["buy", "com.x.coin42", "--quantity", "abc"], 64, "'--quantity' expects an integer from 1 to 10, got 'abc'"),
        Row(["buy", "com.x.coin42", "--quantity", "0"], 64, "'--quantity' expects an integer from 1 to 10, got '0'"),
        Row(["buy", "com.x.coin42", "--quantity=11"], 64, "'--quantity' expects an integer from 1 to 10, got '11'"),
        Row(["buy", "com.x.coin42", "--quantity", "-3"], 64, "'--quantity' expects an integer from 1 to 10, got '-3'"),
        Row(["buy", "com.x.coin42", "--quantity", "2", "--quantity", "3"], 64, "option '--quantity' given twice"),
        Row(
            ["buy", "com.x.noads", "--quantity", "2"], 64,
            "quantity above 1 is only for consumables; 'com.x.noads' is nonConsumable (drop --quantity)"),
        Row(["buy", "com.x.coin42", "--user", "u", "--account", "a"], 64, "'--user' and '--account' cannot be used together"),
        Row(
            ["buy", "com.x.coin43"], 3,
            "unknown product 'com.x.coin43'; closest known: com.x.coin42, com.x.coin1386, com.x.coin210 (see 'iapctl products')"),
        Row(["buy", "nope"], 3, "unknown product 'nope' (see 'iapctl products' for the catalog)"),
        Row(["buy", "com.x.coin42", "extra"], 64, "unexpected argument 'extra' for 'buy' (see 'iapctl help buy')"),
        Row(
            ["buy", "com.x.coin42", "--user", ""], 64,
            "bad --user ''; give a non-empty id of at most 256 characters on one line (see 'iapctl help buy')"),
        Row(["buy", ""], 64, "empty product identifier; give one such as com.x.coin42 (see 'iapctl help buy')"),
        Row(
            ["buy", "com.x\ncoin"], 3,
            "unknown product 'com.x\\ncoin'; closest known: com.x.coin42, com.x.coin210, com.x.coin686 (see 'iapctl products')"),
        Row(
            ["buy", "com.x.coin42", "--account", ""], 64, "empty --account; give the account name to hash (see 'iapctl help buy')"
        ),
        Row(["buy", "com.x.coin42", "-q", "2"], 64, "unknown option '-q' for 'buy' (see 'iapctl help buy')"),
        Row(
            ["buy", "com.x.vip1", "--quantity", "2"], 64,
            "quantity above 1 is only for consumables; 'com.x.vip1' is nonRenewing (drop --quantity)"),
        Row(["finish"], 64, "missing argument <TXID> or '--all' for 'finish' (see 'iapctl help finish')"),
        Row(
            ["finish", "abc"], 64,
            "bad transaction id 'abc'; ids are decimal numbers such as 2000000000000001 (see 'iapctl help finish')"),
        Row(
            ["finish", "-5"], 64,
            "bad transaction id '-5'; ids are decimal numbers such as 2000000000000001 (see 'iapctl help finish')"),
        Row(
            ["finish", "99999999999999999999999"], 64,
            "bad transaction id '99999999999999999999999'; ids are decimal numbers such as 2000000000000001 (see 'iapctl help finish')"
        ),
        Row(["finish", "2000000000000042"], 3, "unknown transaction '2000000000000042' (see 'iapctl queue' or 'iapctl dump')"),
        Row(["finish", "--all=yes"], 64, "'--all' takes no value"),
        Row(["finish", "--all", "2000000000000001"], 64, "<TXID> and '--all' cannot be used together"),
        Row(
            ["finish", "2000000000000001", "2000000000000001"], 64,
            "transaction 2000000000000001 given twice; give each id once (see 'iapctl help finish')"),
        Row(
            ["finish", "--verify", "2000000000000001", "2000000000000001"], 64,
            "transaction 2000000000000001 given twice; give each id once (see 'iapctl help finish')"),
        Row(
            ["finish", "2000000000000001", "abc"], 64,
            "bad transaction id 'abc'; ids are decimal numbers such as 2000000000000001 (see 'iapctl help finish')"),
        Row(["queue", "x"], 64, "unexpected argument 'x' for 'queue' (see 'iapctl help queue')"),
        Row(
            ["dump", "--state", "purchsed"], 64,
            "'--state' expects one of: purchasing, purchased, failed, restored, deferred, got 'purchsed'; did you mean 'purchased'?"
        ),
        Row(
            ["dump", "--state", "x"], 64, "'--state' expects one of: purchasing, purchased, failed, restored, deferred, got 'x'"),
        Row(
            ["dump", "--unfinshed"], 64,
            "unknown option '--unfinshed' for 'dump'; did you mean '--unfinished'? (see 'iapctl help dump')"),
        Row(["config"], 64, "missing subcommand for 'config'; use one of: get, set (see 'iapctl help config')"),
        Row(["config", "set", "storefront"], 64, "missing argument <VALUE> for 'config set' (see 'iapctl help config set')"),
        Row(
            ["config", "set", "storefront", "XYZ"], 64,
            "bad value 'XYZ' for setting storefront; expected a storefront code; use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN (all 175: docs/catalog.md)"
        ),
        Row(
            ["config", "set", "storefront", "US\nA"], 64,
            "bad value 'US\\nA' for setting storefront; expected a storefront code; did you mean 'USA'? use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN (all 175: docs/catalog.md)"
        ),
        Row(
            ["config", "set", "payments-allowed", "maybe"], 64,
            "bad value 'maybe' for setting payments-allowed; expected true or false"),
        Row(
            ["config", "set", "storefrnt", "USA"], 64,
            "unknown setting 'storefrnt'; did you mean 'storefront'? (list them with 'iapctl config get', no key)"),
        Row(["config", "get", "nope"], 64, "unknown setting 'nope' (list them with 'iapctl config get', no key)"),
        Row(
            ["config", "get", "storefrnt"], 64,
            "unknown setting 'storefrnt'; did you mean 'storefront'? (list them with 'iapctl config get', no key)"),
        Row(
            ["config", "set", "clock-step", "fast"], 64,
            "bad value 'fast' for setting clock-step; expected a duration from 0 to 366d, such as 1s or 500ms"),
        Row(
            ["config", "set", "clock-step", "400d"], 64,
            "bad value '400d' for setting clock-step; expected a duration from 0 to 366d, such as 1s or 500ms"),
        Row(
            ["config", "set", "locale", "klingon"], 64,
            "bad value 'klingon' for setting locale; expected a locale such as en_US, zh_CN or ja_JP, or auto"),
        // Refused before a store is opened: no store appears where none was.
        Row(
            ["--store", "$DIR/fresh", "config", "set", "locale", "klingon"], 64,
            "bad value 'klingon' for setting locale; expected a locale such as en_US, zh_CN or ja_JP, or auto",
            useStore: false),
        Row(
            ["--store", "$DIR/fresh", "config", "set", "colour", "red"], 64,
            "unknown setting 'colour' (list them with 'iapctl config get', no key)", useStore: false),
        Row(
            ["config", "set", "locale", "en_us"], 64,
            "bad value 'en_us' for setting locale; expected a locale such as en_US, zh_CN or ja_JP, or auto; did you mean 'en_US'?"
        ),
        Row(
            ["config", "set", "locale", "en-GB"], 64,
            "bad value 'en-GB' for setting locale; expected a locale such as en_US, zh_CN or ja_JP, or auto; did you mean 'en_GB'?"
        ),
        Row(["config", "set", "ask-to-buy", "maybe"], 64, "bad value 'maybe' for setting ask-to-buy; expected true or false"),
        Row(["events", "--since", "-1"], 64, "'--since' expects an integer of at least 0, got '-1'"),
        Row(["events", "--since", "abc"], 64, "'--since' expects an integer of at least 0, got 'abc'"),
        Row(
            ["products", "--storefront", "MARS"], 64,
            "unknown storefront 'MARS'; did you mean 'MAR'? use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN (all 175: docs/catalog.md) (see 'iapctl help products')"
        ),
        Row(["products", ""], 64, "empty product identifier; give one such as com.x.coin42 (see 'iapctl help products')"),
        Row(
            ["products", "com.x.coin42", ""], 64,
            "empty product identifier; give one such as com.x.coin42 (see 'iapctl help products')"),
        Row(
            ["products", "--locale", "klingon"], 64,
            "bad --locale: 'klingon' is not a locale; write language_REGION such as en_US, zh_CN or ja_JP (see 'iapctl help products')"
        ),
        Row(
            ["products", "--locale", "zh-CN"], 64,
            "bad --locale: 'zh-CN' is not a locale; write language_REGION such as en_US, zh_CN or ja_JP; did you mean 'zh_CN'? (see 'iapctl help products')"
        ),
        Row(
            ["products", "--locale", ""], 64,
            "bad --locale: an empty value is not a locale; write language_REGION such as en_US, zh_CN or ja_JP (see 'iapctl help products')"
        ),
        Row(["show", "2000000000000009"], 3, "unknown transaction '2000000000000009' (see 'iapctl queue' or 'iapctl dump')"),
        Row(
            ["show", "abc"], 64,
            "bad transaction id 'abc'; ids are decimal numbers such as 2000000000000001 (see 'iapctl help show')"),
        Row(["--lock-timeout", "soon", "queue"], 64, "'--lock-timeout' expects a number from 0 to 86400, got 'soon'"),
        Row(["--lock-timeout", "-1", "queue"], 64, "'--lock-timeout' expects a number from 0 to 86400, got '-1'"),
        Row(
            ["init", "--start-date", "yesterday"], 64,
            "bad --start-date 'yesterday'; write RFC 3339 such as 2026-01-01T00:00:00Z (see 'iapctl help init')"),
        Row(
            ["init", "--storefront", "ZZZ"], 64,
            "unknown storefront 'ZZZ'; use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN (all 175: docs/catalog.md) (see 'iapctl help init')"
        ),
        Row(["init"], 4, "a store already exists at $STORE; pass --force to replace it (its transactions will be lost)"),
        Row(["init", "--bundle-id", ""], 64, "bad bundle id ''; write it like com.example.app (see 'iapctl help init')"),
        Row(
            ["--catalog", "/nonexistent/catalog.json", "queue"], 66,
            "cannot read '/nonexistent/catalog.json': no such file (give a catalog .json or .storekit file)"),
        Row(
            ["--catalog", "$FIXTURES/Example.storekit", "queue"], 64,
            "store $STORE is bound to catalog 'built-in', not $FIXTURES/Example.storekit; drop --catalog to use the store as it is, or replace it with 'iapctl --store $STORE init --force --catalog $FIXTURES/Example.storekit' (its transactions are lost)"
        ),
        Row(
            ["--catalog", "afile", "queue"], 65, "catalog afile: invalid JSON at byte 0: expected a value (check the JSON syntax)"
        ),
        Row(["sha256"], 64, "missing argument <TEXT> for 'sha256' (see 'iapctl help sha256')"),
        Row(["sha256", "a", "b"], 64, "unexpected argument 'b' for 'sha256' (see 'iapctl help sha256')"),
        Row(
            [], 64,
            "missing command; usage: iapctl <command> [<arguments>] [<options>], such as 'iapctl products' or 'iapctl buy com.x.coin42' (see 'iapctl help')",
            useStore: false),
        Row(
            ["--store", "$STORE"], 64,
            "missing command; usage: iapctl <command> [<arguments>] [<options>], such as 'iapctl products' or 'iapctl buy com.x.coin42' (see 'iapctl help')",
            useStore: false),
        Row(["help", "nope"], 64, "unknown command 'nope' (see 'iapctl help')"),
        Row(["refund", "2000000000000001", "--reason", "7"], 64, "'--reason' expects one of: 0, 1, got '7'"),
        Row(
            ["refund", "abc"], 64,
            "bad transaction id 'abc'; ids are decimal numbers such as 2000000000000001 (see 'iapctl help refund now')"),
        Row(
            ["delete", "2000000000000001"], 64,
            "deleting transaction 2000000000000001 cannot be undone; add --yes to confirm (see 'iapctl help delete')"),
        Row(
            ["clear"], 64,
            "clearing deletes every transaction and cannot be undone; add --yes to confirm (see 'iapctl help clear')"),
        Row(
            ["approve", "2000000000000001"], 4,
            "cannot approve transaction 2000000000000001: it is purchased; only deferred (Ask to Buy) transactions can be approved or declined"
        ),
        Row(
            ["resolve", "2000000000000001"], 4,
            "nothing to resolve for transaction 2000000000000001: it is purchased, not an interrupted purchase waiting to be resolved"
        ),
        Row(["auto-renew", "maybe", "com.x.vip2"], 64, "<STATE> expects one of: off, on, got 'maybe'"),
        Row(["expire", "nope"], 3, "unknown product 'nope' (see 'iapctl products' for the catalog)"),
        Row(["consume", ""], 64, "empty product identifier; give one such as com.x.coin42 (see 'iapctl help consume')"),
        Row(["consume", "com.x.coin42", "--count", "0"], 64, "'--count' expects an integer from 1 to 1000000, got '0'"),
        Row(["owned", ""], 64, "empty product identifier; give one such as com.x.noads (see 'iapctl help owned')"),
        Row(["promote", ""], 64, "empty product identifier; give one such as com.x.noads (see 'iapctl help promote')"),
        // Issue 15 (life-b): Family Sharing and backdated purchases.
        Row(
            ["family", "add", "bad name"], 64,
            "bad family member name 'bad name'; use 1-32 letters, digits, '.', '_' or '-', starting with a letter or digit"),
        Row(
            ["dump", "--member", "alex"], 3,
            "unknown family member 'alex': the account has no family (add one with 'iapctl family add alex')"),
        Row(
            ["buy", "com.x.noads", "--purchase-date", "nope"], 64,
            "bad --purchase-date 'nope'; write RFC 3339 such as 2025-03-01T12:00:00Z, or a date such as 2025-03-01 (see 'iapctl help buy')"
        ),
        Row(
            ["buy", "com.x.vip2", "--purchase-date", "2025-01-01", "--renewal-behavior", "renew"], 64,
            "'--renewal-behavior' expects one of: renew-until-now, cancel-immediately, got 'renew'; did you mean 'renew-until-now'?"
        ),
        Row(
            ["buy", "com.x.noads", "--purchase-date", "2999-01-01"], 64,
            "purchase date 2999-01-01T00:00:00Z is in the future: the store's clock is 2026-01-01T00:00:01Z; give a date at or before it (or move the clock with 'iapctl clock set')"
        ),
        Row(
            ["fault", "add", "nowhere", "2"], 64,
            "<POINT> expects one of: products, purchase, restore, refresh-receipt, download, verification, subscription-status, app-transaction, manage-subscriptions, refund-request, offer-code-redeem, got 'nowhere'"
        ),
        Row(
            ["fault", "add", "purchase", "99999"], 64,
            "unknown error '99999'; give an SKError name or code 0-20 (paymentCancelled or 2) or a seed code 100, 136, 200, 300 (see 'iapctl help fault add')"
        ),
        Row(
            ["clock", "advance", "1x"], 64,
            "bad duration '1x'; write ISO 8601 such as P1M, P3DT4H, P1Y, or a short form such as 90d, 36h, 500ms (see 'iapctl help clock advance')"
        ),
        Row(
            ["clock", "advance", "P9000Y"], 64,
            "cannot move the clock past 9999-12-31T23:59:59.999Z, the last date iapctl writes (it is at 2026-01-01T00:00:01Z); give an earlier date or a shorter duration"
        ),
        Row(
            ["clock", "advance", "P1M", "extra"], 64,
            "unexpected argument 'extra' for 'clock advance' (see 'iapctl help clock advance')"),
        Row(
            ["clock", "set", "tomorrow"], 64,
            "bad date 'tomorrow'; write RFC 3339 such as 2026-03-01T12:00:00Z, or a date such as 2026-03-01 (see 'iapctl help clock set')"
        ),
        Row(
            ["buy", "com.x.coin42"], 4,
            "the clock would move past 9999-12-31T23:59:59.999Z, the last date iapctl writes: it is at 9999-12-31T23:59:59Z and each payment or restore moves it by 1s (lower that with 'iapctl config set clock-step 0')",
            setup: [["clock", "set", "9999-12-31T23:59:59Z"]]),
        Row(
            ["restore"], 4,
            "the clock would move past 9999-12-31T23:59:59.999Z, the last date iapctl writes: it is at 9999-12-31T23:59:59Z and each payment or restore moves it by 1s (lower that with 'iapctl config set clock-step 0')",
            setup: [["clock", "set", "9999-12-31T23:59:59Z"]]),
        Row(
            ["buy", "com.x.vip2"], 4,
            "the purchase of com.x.vip2 at 9999-11-01T00:00:01Z would expire after 9999-12-31T23:59:59.999Z, the last date iapctl writes; buy it at an earlier date",
            setup: [["clock", "set", "9999-11-01T00:00:00Z"]]),
        Row(
            ["clock", "set", "9999-12-31T23:59:59Z"], 4,
            "the renewal of com.x.vip2 at 9999-10-01T00:00:02Z would expire after 9999-12-31T23:59:59.999Z, the last date iapctl writes; stop the clock earlier, or turn auto-renew off first ('iapctl auto-renew off com.x.vip2')",
            setup: [["buy", "com.x.vip2"], ["clock", "set", "9999-09-01T00:00:00Z"]]),
        Row(
            ["clock", "advance", "P3M"], 64,
            "cannot move the clock past 9999-12-31T23:59:59.999Z, the last date iapctl writes (it is at 9999-11-01T00:00:00Z); give an earlier date or a shorter duration",
            setup: [["clock", "set", "9999-11-01T00:00:00Z"]]),
        Row(["receipt", "--der", ""], 64, "empty --der; give the file to write the receipt to (see 'iapctl help receipt show')"),
        Row(
            ["receipt", "--der", "nodir/r.der"], 73,
            "cannot write 'nodir/r.der': its directory does not exist; create it first, or name a file in another one"),
        Row(["receipt", "--der", "."], 73, "cannot write '.': it is a directory; name a file"),
        Row(
            ["receipt", "--der", "afile/r.der"], 73,
            "cannot write 'afile/r.der': a part of the path is not a directory; name a file in a directory"),
        Row(
            ["receipt", "decode", "missing.b64"], 66,
            "cannot read 'missing.b64': no such file (give a receipt file, base64 or DER, or - for stdin)"),
        Row(
            ["receipt", "decode", "-"], 65,
            "cannot decode receipt from stdin: at byte 0: expected a receipt (the input is empty) (give an App Store receipt as base64 text or DER bytes)",
            stdin: ""),
        Row(["jws", "decode", "missing.jws"], 66, "cannot read 'missing.jws': no such file (give a file holding a compact JWS)"),
        Row(["jws", "2000000000000099"], 3, "unknown transaction '2000000000000099' (see 'iapctl queue' or 'iapctl dump')"),
        Row(
            ["verify", "--root", "missing.pem"], 66,
            "cannot read 'missing.pem': no such file (give the trusted root certificate for --root, PEM or DER, such as AppleRootCA-G3.cer)"
        ),
        Row(["verify-receipt", "--environment", "mars"], 64, "'--environment' expects one of: production, sandbox, got 'mars'"),
        Row(
            ["catalog", "show", "missing.json"], 66,
            "cannot read 'missing.json': no such file (give a catalog .json or .storekit file)"),
        Row(["catalog", "convert"], 64, "missing argument <FILE> for 'catalog convert' (see 'iapctl help catalog convert')"),
        Row(
            ["catalog", "convert", "$FIXTURES/catalog.json", "--output", "nodir/x.json"], 73,
            "cannot write 'nodir/x.json': its directory does not exist; create it first, or name a file in another one"),
        Row(
            ["doctor", "--salvage", ""], 64,
            "empty --salvage; give a new directory for the salvaged store (see 'iapctl help doctor')"),
        Row(
            ["doctor", "--salvage", "afile/sub"], 73,
            "cannot write 'afile/sub': it, or a directory above it, is a file; name a new directory where you can write"),
        Row(["run", "nofile.iap"], 66, "cannot read 'nofile.iap': no such file (give a scenario file, or - for standard input)"),
        Row(
            ["run", "-"], 65,
            "<stdin>: no commands or checks (it is empty or only comments); write one iapctl command or check a line (see 'iapctl help run')",
            stdin: ""),
        Row(
            ["run", "-"], 65,
            "<stdin>: no commands or checks (it is empty or only comments); write one iapctl command or check a line (see 'iapctl help run')",
            stdin: "# only a comment\n\n   \n"),
        Row(
            ["run", "-"], 65, "<stdin>:1:5: unterminated single quote; close it with ' (a single-quoted text cannot contain ')",
            stdin: "buy 'com.x.coin42\n"),
        Row(["serve", "--port", "70000"], 64, "'--port' expects an integer from 0 to 65535, got '70000'"),
        Row(["serve", "--port", "abc"], 64, "'--port' expects an integer from 0 to 65535, got 'abc'"),
        Row(
            ["serve", "--port", "$PORT"], 69,
            "port $PORT on 127.0.0.1 is in use; pick another with --port, or --port 0 for a free one"),
        Row(["notifications", "--since", "x"], 64, "'--since' expects an integer of at least 0, got 'x'"),
        Row(
            ["subscriptions", "com.x.nope"], 3,
            "unknown product 'com.x.nope'; closest known: com.x.noads, com.x.vip1, com.x.vip2 (see 'iapctl products')"),
        Row(
            ["--store", "", "queue"], 64, "empty store path; give a directory with --store DIR (the default is ./.iapctl)",
            useStore: false),
        Row(
            ["--store", "afile", "queue"], 64, "store path 'afile' is a file, not a directory; give a directory with --store DIR",
            useStore: false),
        Row(
            ["--store", "$DIR", "queue"], 64,
            "'$DIR' is not an iapctl store: it holds other files (such as 'store') and no store; pick a new or empty directory with --store DIR",
            useStore: false),
        Row(
            ["--store", "$DIR", "buy", "com.x.coin42"], 64,
            "'$DIR' is not an iapctl store: it holds other files (such as 'store') and no store; pick a new or empty directory with --store DIR",
            useStore: false),
    ]

    @Test("malformed inputs", arguments: rows)
    func badInput(row: Row) throws {
        let h = CLIHarness()
        // A store with one purchase, so "no change to the store" means something.
        try #require(h.run(["buy", "com.x.coin42"]).code == 0)
        h.write("afile", "afile\n")
        for command in row.setup { try #require(h.run(command).code == 0, "setup \(command)") }
        let port = row.arguments.contains("$PORT") ? try Self.listeningSocket() : nil
        defer { if let port { close(port.fd) } }
        let substitute = { (text: String) in
            text.replacing("$STORE", with: h.store).replacing("$DIR", with: h.directory)
                .replacing("$FIXTURES", with: CLIHarness.packageRoot + "/Fixtures")
                .replacing("$PORT", with: port.map { String($0.port) } ?? "$PORT")
        }
        let files = ["state", "journal", "catalog", "transactions.idx"]
        let before = files.map { h.bytes("store/" + $0) }
        let listing = Self.listing(h.directory)
        let arguments = row.arguments.map(substitute)
        let result = row.useStore ? h.run(arguments, stdin: row.stdin) : h.run(arguments, stdin: row.stdin, useStore: false)
        #expect(result.code == row.code, "\(result)")
        #expect(result.stderr == "error: \(substitute(row.message))\n", "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(files.map { h.bytes("store/" + $0) } == before, "the store changed")
        #expect(Self.listing(h.directory) == listing, "files appeared or went away")
    }

    /// Every path under `directory`, relative, sorted.
    static func listing(_ directory: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String { paths.append(path) }
        return paths.sorted()
    }

    /// A TCP socket listening on a free port of 127.0.0.1, so that `serve` finds it taken.
    static func listeningSocket() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        try #require(bound, "cannot listen on 127.0.0.1")
        return (fd, UInt16(bigEndian: address.sin_port))
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
