import IAPHTTP
import IAPUI
import Testing

/// The rules that keep every page but the server's own from using the Transaction Manager, and
/// the whitelist of commands an action may run, as tables.
@Suite("UI request rules")
struct UIRequestRulesTests {
    @Test(
        "Host must be an IP literal or localhost with the server's port",
        arguments: [
            ("127.0.0.1:8080", true), ("localhost:8080", true), ("LOCALHOST:8080", true), ("[::1]:8080", true),
            ("192.168.1.20:8080", true), ("127.0.0.1:8081", false), ("127.0.0.1", false), ("evil.example:8080", false),
            ("127.0.0.1.nip.io:8080", false), ("localhost.evil.example:8080", false), ("[::1]", false), ("[::1:8080", false),
            ("256.0.0.1:8080", false), ("", false), (":8080", false), ("127.0.0.1:8080:8080", false),
        ])
    func ownAuthority(host: String, allowed: Bool) {
        #expect(UIRequestCheck.isOwnAuthority(host, port: 8080) == allowed, "\(host)")
    }

    static let token = UIToken(hex: String(repeating: "5a", count: 32))

    static func request(_ headers: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: "POST", target: "/ui/api/actions", version: .http1_1, headers: HTTPHeaders(headers), body: [])
    }

    @Test(
        "an action needs its own Origin, same-origin fetch metadata, the token and JSON; each refusal says which",
        arguments: [
            ([("Content-Type", "application/json"), ("X-IAPCTL-Token", token.hex)], nil),
            (
                [
                    ("Content-Type", "application/json; charset=utf-8"), ("X-IAPCTL-Token", token.hex),
                    ("Origin", "http://127.0.0.1:8080"), ("Sec-Fetch-Site", "same-origin"),
                ], nil
            ),
            (
                [("Content-Type", "application/json")],
                "no X-IAPCTL-Token header; actions need the token the server wrote into its page"
            ),
            (
                [("Content-Type", "application/json"), ("X-IAPCTL-Token", String(repeating: "5a", count: 31) + "5b")],
                "wrong X-IAPCTL-Token; actions need the token of this server's page (reload it if the server restarted)"
            ),
            (
                [("Content-Type", "application/json"), ("X-IAPCTL-Token", token.hex + "00")],
                "wrong X-IAPCTL-Token; actions need the token of this server's page (reload it if the server restarted)"
            ),
            (
                [("Content-Type", "application/json"), ("X-IAPCTL-Token", token.hex), ("Origin", "http://evil.example")],
                "Origin 'http://evil.example' is not this server (http://127.0.0.1:8080); actions come only from its own page"
            ),
            (
                [("Content-Type", "application/json"), ("X-IAPCTL-Token", token.hex), ("Origin", "null")],
                "Origin 'null' is not this server (http://127.0.0.1:8080); actions come only from its own page"
            ),
            (
                [("Content-Type", "application/json"), ("X-IAPCTL-Token", token.hex), ("Sec-Fetch-Site", "cross-site")],
                "the browser says this action comes from a cross-site page (Sec-Fetch-Site); actions come only from the server's own page"
            ),
            (
                [("Content-Type", "text/plain"), ("X-IAPCTL-Token", token.hex)],
                "Content-Type 'text/plain' is not application/json; send {\"arguments\": [...]} as JSON"
            ),
            ([("X-IAPCTL-Token", token.hex)], "Content-Type 'none' is not application/json; send {\"arguments\": [...]} as JSON"),
        ] as [([(String, String)], String?)])
    func actionChecks(headers: [(String, String)], refusal: String?) {
        let check = UIRequestCheck(port: 8080, token: Self.token)
        do {
            try check.action(Self.request(headers), host: "127.0.0.1:8080")
            #expect(refusal == nil)
        } catch {
            #expect(error.message == refusal)
        }
    }

    @Test("tokens are 64 hex digits, new for each server")
    func tokens() throws {
        let a = try #require(UIToken.random())
        let b = try #require(UIToken.random())
        #expect(a.hex.count == 64 && a.hex.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(a != b)
        #expect(
            a.matches(a.hex) && !a.matches(b.hex) && !a.matches(nil) && !a.matches("") && !a.matches(String(a.hex.dropLast())))
    }

    /// A command line with the real whitelist's commands, minus the ones a build may lack.
    struct FakeCommandLine: UICommandLine {
        var commands: [[String]] = [
            ["refund", "now"], ["approve"], ["decline"], ["resolve"], ["expire"], ["renew"], ["auto-renew"], ["delete"],
            ["clear"],
            ["promote"], ["finish"], ["clock", "advance"], ["config", "set"], ["init"], ["clock", "set"], ["buy"],
        ]

        func usage(of path: [String]) -> String? { commands.contains(path) ? path.joined(separator: " ") + " ..." : nil }

        func parse(_ arguments: [String]) -> UIParsedCommandLine? {
            var words = arguments
            var globals: [String] = []
            var positionals: [String] = []
            var path: [String] = []
            while let word = words.first {
                words.removeFirst()
                if word == "--bogus" { return nil }
                if ["--store", "--catalog", "--lock-timeout"].contains(word) {
                    globals.append(String(word.dropFirst(2)))
                    if !words.isEmpty { words.removeFirst() }
                } else if ["--json", "--help", "--version"].contains(word) {
                    globals.append(String(word.dropFirst(2)))
                } else if word.hasPrefix("-") {
                    continue
                } else if commands.contains(path + [word]) || (path.isEmpty && commands.contains { $0.first == word }) {
                    path.append(word)
                } else {
                    positionals.append(word)
                }
            }
            // As the CLI's binder: `refund TXID` is the group's default subcommand, `refund now TXID`.
            if path == ["refund"] { path.append("now") }
            return UIParsedCommandLine(path: path, globalOptions: globals, positionals: positionals)
        }

        func run(_ arguments: [String]) -> UICommandResult { UICommandResult(exitCode: 0, stdout: [], stderr: []) }
    }

    @Test(
        "the whitelist: Xcode's actions run, anything else, a global option or the downloader setting does not",
        arguments: [
            (["refund", "2000000000000001", "--reason", "1"], nil),
            (["clock", "advance", "P1M"], nil),
            (["config", "set", "ask-to-buy", "true"], nil),
            (["delete", "2000000000000001", "--yes"], nil),
            (["refund", "--bogus"], nil),  // the CLI's parser refuses it: running it only prints the usage error
            (
                ["init", "--force"],
                "'init' is not an action the page may run; it may run: refund now, approve, decline, resolve, expire, renew, auto-renew, delete, clear, promote, finish, clock advance, config set"
            ),
            (
                ["buy", "com.x.coin42"],
                "'buy com.x.coin42' is not an action the page may run; it may run: refund now, approve, decline, resolve, expire, renew, auto-renew, delete, clear, promote, finish, clock advance, config set"
            ),
            (
                ["clock", "set", "2030-01-01"],
                "'clock set' is not an action the page may run; it may run: refund now, approve, decline, resolve, expire, renew, auto-renew, delete, clear, promote, finish, clock advance, config set"
            ),
            (
                ["init", "--bogus"],
                "'init' is not an action the page may run; it may run: refund now, approve, decline, resolve, expire, renew, auto-renew, delete, clear, promote, finish, clock advance, config set"
            ),
            (
                ["refund", "2000000000000001", "--store", "/tmp/other"],
                "--store is the server's to set; an action gives only the command's own arguments"
            ),
            (
                ["--catalog", "x.json", "refund", "2000000000000001"],
                "--catalog is the server's to set; an action gives only the command's own arguments"
            ),
            (["refund", "--help"], "--help is the server's to set; an action gives only the command's own arguments"),
            (
                ["config", "set", "downloader", "touch /tmp/x"],
                "the page may not set 'downloader': it is a shell command, and the page may change the store but never run a program; set it with 'iapctl config set downloader'"
            ),
            ([], "an empty command line; name a command, e.g. [\"refund\", TXID]"),
        ] as [([String], String?)])
    func whitelist(arguments: [String], refusal: String?) {
        #expect(UIActionPolicy(commandLine: FakeCommandLine()).refusal(arguments) == refusal)
    }

    @Test("the refund request flow, price increases and consent, and family add/remove are offered once their commands exist")
    func offeredOnceTheyExist() {
        var cli = FakeCommandLine()
        #expect(!UIActionPolicy(commandLine: cli).available.contains { $0.command == ["refund", "request"] })
        #expect(!UIActionPolicy(commandLine: cli).available.contains { $0.command.first == "family" })
        cli.commands += [
            ["refund", "request"], ["refund", "approve"], ["price-increase"], ["price-consent"], ["family", "add"],
            ["family", "remove"], ["family", "list"],
        ]
        let policy = UIActionPolicy(commandLine: cli)
        let offered = policy.available.map(\.command)
        #expect(
            offered.contains(["refund", "request"]) && offered.contains(["refund", "approve"])
                && offered.contains(["price-increase"]) && offered.contains(["price-consent"]))
        #expect(offered.suffix(2) == [["family", "add"], ["family", "remove"]])
        #expect(
            policy.refusal(["family", "add", "alex"]) == nil && policy.refusal(["price-increase", "com.x.vip2", "12.99"]) == nil)
        // Reading the family is the overview's (its members), not an action.
        #expect(policy.refusal(["family", "list"])?.hasPrefix("'family list' is not an action the page may run") == true)
        #expect(!offered.contains(["refund", "reverse"]) && !offered.contains(["init"]) && !offered.contains(["buy"]))
    }
}
