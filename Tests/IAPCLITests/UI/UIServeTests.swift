import Foundation
import IAPKit
import IAPUIAssets
import Testing

@testable import IAPJSON

#if canImport(Glibc)
    import Glibc
#endif

/// `iapctl ui` and the Transaction Manager's contract (docs/ui.md) over real HTTP: the built
/// binary on a free loopback port, talked to with curl and Python's urllib, every answer compared
/// with what the CLI itself prints for the same store. Every wait is bounded; nothing sleeps.
@Suite("Transaction Manager over HTTP", .serialized)
struct UIServeTests {
    /// `iapctl ui --port 0` on a store, stopped (SIGTERM, exit 0 expected) by `stop()`.
    final class UIServer {
        let process = Process()
        let stdout: LineReader
        let stderrPipe = Pipe()
        let firstLine: String?
        let url: String
        let port: Int

        init(store: String, _ extra: [String] = []) throws {
            process.executableURL = URL(fileURLWithPath: CLIHarness.binary)
            process.arguments = ["--store", store, "ui"] + extra
            let out = Pipe()
            process.standardOutput = out
            process.standardError = stderrPipe
            process.standardInput = FileHandle.nullDevice
            try process.run()
            stdout = LineReader(out.fileHandleForReading)
            firstLine = stdout.next(timeout: 30)
            guard let line = firstLine, let start = line.range(of: "http://") else {
                kill(process.processIdentifier, SIGKILL)
                throw ServerProcess.ServerStartFailure(
                    line: firstLine,
                    stderr: String(decoding: stderrPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            }
            url = String(line[start.lowerBound...].prefix { $0 != " " && $0 != "\"" })
            port = Int(url.dropLast().split(separator: ":").last ?? "") ?? 0
        }

        var origin: String { String(url.dropLast()) }

        func stop() -> Int32? {
            guard process.isRunning else { return process.terminationStatus }
            kill(process.processIdentifier, SIGTERM)
            let done = DispatchSemaphore(value: 0)
            let process = self.process
            DispatchQueue.global().async {
                process.waitUntilExit()
                done.signal()
            }
            guard done.wait(timeout: .now() + 30) == .success else { return nil }
            return process.terminationStatus
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        /// The token written into the page.
        func token() throws -> String {
            let page = BoundedRun.curl([url])
            let match = try #require(page.stdout.firstMatch(of: #/name="iapctl-token" content="([0-9a-f]{64})"/#))
            return String(match.1)
        }

        /// GET `path`: the status and the body parsed as JSON.
        func get(_ path: String, headers: [String] = []) -> (status: Int, json: JSONValue?, text: String) {
            let r = BoundedRun.curl(headers.flatMap { ["-H", $0] } + ["-w", "\n%{http_code}", origin + path])
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            let status = Int(lines.last ?? "") ?? 0
            let body = lines.dropLast().joined(separator: "\n")
            return (status, try? JSONParser.parse(body), body)
        }

        /// POST an action as the page does (token, JSON), or with the given headers instead.
        func action(_ arguments: [String], headers: [String]? = nil) throws -> (status: Int, json: JSONValue?) {
            var w = JSONWriter()
            w.beginObject()
            w.key("arguments")
            w.beginArray()
            for a in arguments { w.string(a) }
            w.endArray()
            w.endObject()
            let sent = try headers ?? ["Content-Type: application/json", "X-IAPCTL-Token: \(token())"]
            let r = BoundedRun.curl(
                sent.flatMap { ["-H", $0] } + [
                    "-X", "POST", "--data-binary", w.string, "-w", "\n%{http_code}", origin + "/ui/api/actions",
                ])
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, try? JSONParser.parse(lines.dropLast().joined(separator: "\n")))
        }
    }

    static func seeded() -> CLIHarness {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        #expect(h.run(["buy", "com.x.coin42", "--account", "Handsome Jon", "--quantity", "2"]).code == 0)
        #expect(h.run(["buy", "com.x.vip2"]).code == 0)
        #expect(h.run(["buy", "com.x.levelpack"]).code == 0)
        #expect(h.run(["buy", "com.x.noads", "--user", "u-1"]).code == 0)
        #expect(h.run(["config", "set", "ask-to-buy", "true"]).code == 0)
        #expect(h.run(["buy", "com.x.coin210"]).code == 5)
        #expect(h.run(["config", "set", "ask-to-buy", "false"]).code == 0)
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        #expect(h.run(["finish", "2000000000000001"]).code == 0)
        return h
    }

    @Test("ui prints its URL first (text and --json), listens on loopback only, and stops on SIGTERM with 0")
    func startAndStop() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let server = try UIServer(store: h.store)
        #expect(server.firstLine == "Transaction Manager at http://127.0.0.1:\(server.port)/ (Ctrl-C stops it)")
        #expect(server.get("/").status == 200)
        #expect(server.stop() == 0)
        let json = try UIServer(store: h.store, ["--json"])
        let line = try #require(json.firstLine.flatMap { try? JSONParser.parse($0) })
        #expect(
            line == .object([("url", .string(json.url)), ("host", .string("127.0.0.1")), ("port", .number(String(json.port)))]))
        #expect(json.stop() == 0)
        let remote = h.run(["ui", "--host", "0.0.0.0"])
        #expect(remote.code == 64)
        #expect(
            remote.stderr
                == "error: --host 0.0.0.0 is not a loopback address; the Transaction Manager listens on loopback only (127.0.0.1 or ::1) (see 'iapctl help ui')\n"
        )
        let unknown = h.run(["ui", "--allow-remote"])
        #expect(unknown.code == 64, "ui has no --allow-remote: \(unknown)")
    }

    @Test("GET / is the page with this server's token and a strict policy; assets are the embedded bytes; others are 404")
    func pageAndAssets() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let a = try UIServer(store: h.store)
        let b = try UIServer(store: h.store)
        defer {
            _ = a.stop()
            _ = b.stop()
        }
        let head = BoundedRun.curl(["-D", "-", "-o", "/dev/null", a.url])
        #expect(head.stdout.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(
            head.stdout.contains(
                "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n"
            ))
        #expect(head.stdout.contains("X-Frame-Options: DENY\r\n") && head.stdout.contains("Cache-Control: no-store\r\n"))
        #expect(!head.stdout.contains("Access-Control-Allow-Origin"))
        #expect(try a.token() != b.token(), "each server draws its own token")
        #expect(try a.token() == a.token(), "a server keeps its token")
        for asset in UIAssets.all where asset.name != UIAssets.pageName {
            let r = BoundedRun.run("/usr/bin/curl", ["--silent", "--max-time", "15", a.url + "ui/" + asset.name])
            #expect(Array(r.stdout.utf8) == asset.bytes, "\(asset.name)")
            let type = BoundedRun.curl(["-D", "-", "-o", "/dev/null", a.url + "ui/" + asset.name]).stdout
            #expect(
                type.contains("Content-Type: \(asset.contentType)\r\n") && type.contains("X-Content-Type-Options: nosniff\r\n"))
        }
        #expect(a.get("/ui/index.html").status == 404)
        #expect(
            a.get("/ui/nope.js").json?["errorMessage"]?.stringValue
                == "no asset 'nope.js' (the page's files are /ui/app.css, /ui/app.js, /ui/icon.svg)")
        #expect(a.get("/ui/api/nope").status == 404)
        #expect(BoundedRun.curl(["-I", "-o", "/dev/null", "-w", "%{http_code}", a.url]).stdout == "200", "HEAD /")
        // A CORS preflight is never granted.
        let preflight = BoundedRun.curl([
            "-X", "OPTIONS", "-D", "-", "-o", "/dev/null", "-H", "Origin: http://evil.example", "-H",
            "Access-Control-Request-Method: POST", a.origin + "/ui/api/actions",
        ])
        #expect(preflight.stdout.hasPrefix("HTTP/1.1 405") && !preflight.stdout.contains("Access-Control-Allow"))
        // The App Store Server API is still served beside it.
        #expect(a.get("/health").json == .object([("status", .string("ok"))]))
    }

    @Test("a Host that is not the server's own address gets nothing, not even the page (DNS rebinding)")
    func foreignHost() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let server = try UIServer(store: h.store)
        defer { _ = server.stop() }
        for host in ["evil.example:\(server.port)", "127.0.0.1.nip.io:\(server.port)", "127.0.0.1:1"] {
            let r = server.get("/", headers: ["Host: \(host)"])
            #expect(r.status == 403, "\(host)")
            #expect(!r.text.contains("iapctl-token"))
            #expect(server.get("/ui/api/overview", headers: ["Host: \(host)"]).status == 403)
        }
        #expect(server.get("/", headers: ["Host: localhost:\(server.port)"]).status == 200)
    }

    @Test("the overview, a page of transactions, and the filters agree with the CLI")
    func overviewAndPages() throws {
        let h = Self.seeded()
        let server = try UIServer(store: h.store)
        defer { _ = server.stop() }
        let overview = try #require(server.get("/ui/api/overview").json)
        let clock = try #require(h.run(["clock", "--json"]).json)
        #expect(overview["clock"] == clock["clock"] && overview["nextDueDate"] == clock["nextDueDate"])
        #expect(
            overview["counts"]
                == .object([
                    ("transactions", .number("6")), ("unfinished", .number("5")), ("subscriptions", .number("1")),
                    ("downloads", .number("2")),
                ]))
        let lastEvent = h.run(["events"]).stdout.split(separator: "\n").last.flatMap { try? JSONParser.parse(String($0)) }
        #expect(overview["lastEventSeq"] == lastEvent?["seq"])
        let settings = try #require(overview["settings"]?.arrayValue)
        let config = try #require(h.run(["config", "get", "--json"]).json?.objectValue)
        #expect(settings.map { $0["key"]?.stringValue ?? "" } == config.map(\.key))
        #expect(settings.map { $0["value"] ?? .null } == config.map(\.value))
        let products = try #require(h.run(["products", "--json"]).json?["products"])
        #expect(overview["products"] == products, "the catalog as 'iapctl products' shows it")
        #expect(overview["states"] == .array(TransactionState.allNames.map { .string($0) }))

        let dump = try #require(h.run(["dump"]).json?.arrayValue)
        let all = try #require(server.get("/ui/api/transactions").json)
        #expect(all["total"] == .number("6") && all["offset"] == .number("0") && all["limit"] == .number("100"))
        #expect(all["transactions"] == .array(dump.reversed()), "every transaction as dump prints it, newest first")
        let second = try #require(server.get("/ui/api/transactions?offset=2&limit=2").json)
        #expect(second["transactions"] == .array(Array(dump.reversed()[2..<4])) && second["total"] == .number("6"))
        let beyond = try #require(server.get("/ui/api/transactions?offset=60").json)
        #expect(beyond["transactions"] == .array([]) && beyond["total"] == .number("6"))
        func ids(_ query: String) -> [String] {
            (server.get("/ui/api/transactions?" + query).json?["transactions"]?.arrayValue ?? []).map {
                $0["transactionIdentifier"]?.stringValue ?? ""
            }
        }
        #expect(ids("product=com.x.coin42") == ["2000000000000006", "2000000000000001"])
        #expect(ids("state=deferred") == ["2000000000000005"])
        #expect(ids("account=Handsome%20Jon") == ["2000000000000001"])
        #expect(ids("account=Handsome+Jon&product=com.x.coin42") == ["2000000000000001"])
        #expect(ids("account=\(UserID.forAccount("Handsome Jon").rawValue)") == ["2000000000000001"])
        #expect(ids("account=u-1") == ["2000000000000004"])
        #expect(ids("product=&state=&account=").count == 6)
        for (query, message) in [
            ("limit=0", "limit '0' is out of range; give 1 to 500"),
            ("limit=501", "limit '501' is out of range; give 1 to 500"),
            ("offset=-1", "offset '-1' is not a row number; give 0 or more"),
            ("state=refunded", "unknown state 'refunded'; give one of purchasing, purchased, failed, restored, deferred"),
            ("sort=date", "unknown query parameter 'sort'; use offset, limit, product, state, account or member"),
            ("member=Ann", "unknown family member 'Ann': the account has no family (add one with 'iapctl family add Ann')"),
            ("offset=%zz", "malformed query string 'offset=%zz'; use offset=0&limit=100&product=ID"),
        ] {
            let r = server.get("/ui/api/transactions?" + query)
            #expect(r.status == 400, "\(query)")
            #expect(r.json?["errorMessage"]?.stringValue == message)
        }
    }

    @Test("one transaction: every field, its subscription, the JWS 'iapctl jws' signs, its receipt entry and its events")
    func detail() throws {
        let h = Self.seeded()
        let server = try UIServer(store: h.store)
        defer { _ = server.stop() }
        let id = "2000000000000002"
        let d = try #require(server.get("/ui/api/transactions/\(id)").json)
        #expect(d["transaction"] == h.run(["show", id, "--json"]).json)
        #expect(d["subscription"] == h.run(["subscriptions", "--json"]).json?.arrayValue?.first)
        let jws = try #require(h.run(["jws", id, "--json"]).json)
        #expect(
            d["signed"]
                == .object([("header", jws["header"]!), ("payload", jws["payload"]!), ("token", jws["signedTransactionInfo"]!)]))
        #expect(d["signedUnavailable"] == .null)
        let receipt = try #require(h.run(["receipt", "--json"]).json?["inApp"]?.arrayValue)
        #expect(d["receiptEntry"] == receipt.first { $0["transactionIdentifier"]?.stringValue == id })
        let events = h.run(["events"]).stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        let own = events.filter { $0["transaction"]?["transactionIdentifier"]?.stringValue == id }
        #expect(d["events"] == .array(own), "its events, oldest first, as 'iapctl events' prints them")
        #expect(
            own.map { $0["name"]?.stringValue ?? "" } == ["transactionPurchasing", "transactionPurchased", "subscriptionStarted"])

        // The hosted-content purchase: its download events name it too.
        let downloads = try #require(server.get("/ui/api/transactions/2000000000000003").json?["events"]?.arrayValue)
        #expect(downloads.map { $0["name"]?.stringValue ?? "" } == ["transactionPurchasing", "transactionPurchased"])
        #expect(server.get("/ui/api/transactions/2000000000000003").json?["subscription"] == .null)

        // Deferred: no signed transaction, and the CLI's reason word for word.
        let deferred = try #require(server.get("/ui/api/transactions/2000000000000005").json)
        #expect(deferred["signed"] == .null && deferred["receiptEntry"] == .null)
        let cli = h.run(["jws", "2000000000000005"])
        #expect(cli.code == 4)
        #expect(deferred["signedUnavailable"]?.stringValue.map { "error: \($0)\n" } == cli.stderr)

        let missing = server.get("/ui/api/transactions/2000000000000099")
        #expect(missing.status == 404)
        #expect(missing.json?["errorMessage"]?.stringValue == "no transaction 2000000000000099 in this store (see 'iapctl dump')")
        #expect(
            server.get("/ui/api/transactions/abc").json?["errorMessage"]?.stringValue
                == "'abc' is not a transaction id; ids are decimal, like 2000000000000001")
    }

    @Test(
        "Family Sharing: the overview lists the members, member= pages what 'dump --member' lists, a member's inspector signs and lists as --member"
    )
    func familyMembers() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--catalog", CLIHarness.fixture("family/catalog.json")]).code == 0)
        #expect(h.run(["family", "add", "alex"]).code == 0)
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        let server = try UIServer(store: h.store)
        defer { _ = server.stop() }
        #expect(server.get("/ui/api/overview").json?["members"] == .array([.string("alex")]))
        func page(_ query: String) -> [JSONValue] {
            server.get("/ui/api/transactions?" + query).json?["transactions"]?.arrayValue ?? []
        }
        func dump(_ arguments: [String]) -> [JSONValue] {
            Array((h.run(["dump"] + arguments).json?.arrayValue ?? []).reversed())
        }
        // The account's list keeps the members' copies out, as 'iapctl dump' does.
        #expect(page("") == dump([]) && page("").count == 2)
        let alex = page("member=alex")
        #expect(alex == dump(["--member", "alex"]) && alex.count == 1, "\(alex)")
        #expect(alex.first?["inAppOwnershipType"] == .string("FAMILY_SHARED") && alex.first?["familyMember"] == .string("alex"))
        #expect(page("member=alex&product=com.x.coin42").isEmpty)
        #expect(page("member=alex&product=com.x.noads") == alex)

        // A member who joins later (the page's Add: 'family add' through the action endpoint) is
        // listed at once, with what the account shares.
        let joined = try server.action(["family", "add", "sam"])
        #expect(joined.status == 200 && joined.json?["exitCode"] == .number("0"), "\(joined)")
        #expect(joined.json?["output"]?["familyMember"] == .string("sam"))
        #expect(try Self.familyNames(h) == ["alex", "sam"])
        #expect(server.get("/ui/api/overview").json?["members"] == .array([.string("alex"), .string("sam")]))
        #expect(page("member=sam") == dump(["--member", "sam"]) && page("member=sam").count == 1)
        #expect(page("member=alex") == alex, "another member's joining changes nothing of alex's")
        let unknown = server.get("/ui/api/transactions?member=alx")
        #expect(unknown.status == 400)
        #expect(
            unknown.json?["errorMessage"]?.stringValue
                == "unknown family member 'alx'; did you mean 'alex'? (members: alex, sam)")

        // A member's transaction in the inspector: its own JWS ('jws ID --member alex') and its
        // entry in alex's receipt.
        let id = try #require(alex.first?["transactionIdentifier"]?.stringValue)
        let d = try #require(server.get("/ui/api/transactions/\(id)").json)
        #expect(d["transaction"] == alex.first)
        let jws = try #require(h.run(["jws", id, "--member", "alex", "--json"]).json)
        #expect(d["signed"]?["token"] == jws["signedTransactionInfo"] && d["signedUnavailable"] == .null, "\(d)")
        #expect(d["signed"]?["payload"]?["inAppOwnershipType"] == .string("FAMILY_SHARED"))
        let receipt = try #require(h.run(["receipt", "--member", "alex", "--json"]).json?["inApp"]?.arrayValue)
        #expect(d["receiptEntry"] == receipt.first { $0["transactionIdentifier"]?.stringValue == id })
        #expect(d["receiptEntry"] != .null)

        // A member's copy is not refunded itself: the CLI's refusal, word for word.
        let refund = try server.action(["refund", id])
        let cli = h.run(["refund", id])
        #expect(refund.json?["exitCode"] == .number("4") && cli.code == 4)
        #expect(refund.json?["error"]?.stringValue.map { "error: \($0)\n" } == cli.stderr)

        // Leaving (the page's Remove) revokes alex's copy; the member filter no longer offers alex.
        let left = try server.action(["family", "remove", "alex"])
        #expect(left.json?["exitCode"] == .number("0") && left.json?["output"]?["revoked"]?.arrayValue?.count == 1, "\(left)")
        #expect(try Self.familyNames(h) == ["sam"])
        #expect(server.get("/ui/api/overview").json?["members"] == .array([.string("sam")]))
        #expect(server.get("/ui/api/transactions?member=alex").status == 400)

        // A member's shared subscription: its inspector has the member's subscription, as
        // 'iapctl subscriptions --member sam' shows it.
        #expect(h.run(["buy", "com.x.vippro"]).code == 0)
        let samSub = try #require(page("member=sam&product=com.x.vippro").first)
        let samID = try #require(samSub["transactionIdentifier"]?.stringValue)
        let shared = try #require(h.run(["subscriptions", "--member", "sam", "--json"]).json?.arrayValue?.first)
        #expect(server.get("/ui/api/transactions/\(samID)").json?["subscription"] == shared)
        #expect(shared["inAppOwnershipType"] == .string("FAMILY_SHARED"))
        #expect(server.get("/ui/api/transactions/\(id)").json?["subscription"] == .null, "a non-consumable has none")
    }

    static func familyNames(_ h: CLIHarness) throws -> [String] {
        try #require(h.run(["family", "list", "--json"]).json?.arrayValue).compactMap { $0["name"]?.stringValue }
    }

    @Test("Request Price Increase: the page's form runs 'price-increase', and the subscriber then waits for consent")
    func priceIncrease() throws {
        let h = Self.seeded()
        let server = try UIServer(store: h.store)
        defer { _ = server.stop() }
        let raised = try server.action(["price-increase", "com.x.vip2", "14.99"])
        #expect(raised.status == 200 && raised.json?["exitCode"] == .number("0"), "\(raised)")
        let subscribers = try #require(raised.json?["output"]?["subscribers"]?.arrayValue)
        #expect(subscribers.map { $0["priceIncreaseStatus"] } == [.number("0")])
        let subscriptions = try #require(server.get("/ui/api/subscriptions").json?["subscriptions"]?.arrayValue)
        #expect(subscriptions.first?["priceIncreaseStatus"] == .number("0"))
        #expect(
            .object([("subscriptions", .array(subscriptions))])
                == .object([("subscriptions", h.run(["subscriptions", "--json"]).json!)]))
        // Not above the price: the CLI's exit 4 and message.
        let lower = try server.action(["price-increase", "com.x.vip2", "1.00", "--no-consent"])
        let cli = h.run(["price-increase", "com.x.vip2", "1.00", "--no-consent"])
        #expect(lower.json?["exitCode"] == .number(String(cli.code)) && cli.code == 4)
        #expect(lower.json?["error"]?.stringValue.map { "error: \($0)\n" } == cli.stderr)
    }

    @Test("subscriptions and downloads are exactly what the CLI prints with --json")
    func subscriptionsAndDownloads() throws {
        let h = Self.seeded()
        let server = try UIServer(store: h.store)
        defer { _ = server.stop() }
        #expect(
            server.get("/ui/api/subscriptions").json == .object([("subscriptions", h.run(["subscriptions", "--json"]).json!)]))
        #expect(server.get("/ui/api/downloads").json == .object([("downloads", h.run(["downloads", "--json"]).json!)]))
        #expect(h.run(["download", "start", "2000000000000003"]).code == 0)
        #expect(h.run(["download", "run", "2000000000000003"]).code == 0)
        let after = server.get("/ui/api/downloads").json?["downloads"]?.arrayValue ?? []
        #expect(after.map { $0["state"]?.stringValue ?? "" } == ["finished", "finished"])
    }

    @Test("actions: the page's command lines run as the CLI does, refusals change nothing, and only offered commands are listed")
    func actions() throws {
        let h = Self.seeded()
        let server = try UIServer(store: h.store)
        defer { _ = server.stop() }
        let offered = try #require(server.get("/ui/api/actions").json?["actions"]?.arrayValue)
        #expect(
            offered.map { $0["command"]?.stringValue ?? "" } == [
                "refund now", "refund request", "refund approve", "refund decline", "refund reverse", "approve", "decline",
                "resolve", "expire", "renew", "auto-renew", "price-increase", "price-consent", "delete", "clear", "promote",
                "finish", "clock advance", "config set", "family add", "family remove",
            ])
        // 'refund TXID' is the refund group's default subcommand, 'refund now TXID'.
        #expect(offered.first?["usage"] == .string("refund now <TXID> [--reason <0|1>]"))

        let approved = try server.action(["approve", "2000000000000005"])
        #expect(approved.status == 200)
        #expect(approved.json?["exitCode"] == .number("0") && approved.json?["error"] == .null)
        #expect(approved.json?["output"]?["state"] == .string("purchased"))
        #expect(h.run(["show", "2000000000000005", "--json"]).json?["state"] == .string("purchased"))

        // A failing command: its exit code and its one-line error, as the shell shows them.
        let again = try server.action(["approve", "2000000000000005"])
        let cli = h.run(["approve", "2000000000000005"])
        #expect(again.json?["exitCode"] == .number(String(cli.code)) && cli.code == 4)
        #expect(again.json?["error"]?.stringValue.map { "error: \($0)\n" } == cli.stderr)
        #expect(again.json?["output"] == .null)
        let usage = try server.action(["clock", "advance", "P1X"])
        #expect(usage.json?["exitCode"] == .number("64"))
        #expect(usage.json?["error"]?.stringValue.map { "error: \($0)\n" } == h.run(["clock", "advance", "P1X"]).stderr)

        let before = (h.run(["dump"]).stdout, h.run(["events"]).stdout)
        let token = try server.token()
        for (headers, arguments, status) in [
            (["Content-Type: application/json"], ["clear", "--yes"], 403),
            (["Content-Type: application/json", "X-IAPCTL-Token: \(String(token.reversed()))"], ["clear", "--yes"], 403),
            (["Content-Type: text/plain", "X-IAPCTL-Token: \(token)"], ["clear", "--yes"], 415),
            (
                ["Content-Type: application/json", "X-IAPCTL-Token: \(token)", "Origin: http://evil.example"],
                ["clear", "--yes"], 403
            ),
            (
                ["Content-Type: application/json", "X-IAPCTL-Token: \(token)", "Sec-Fetch-Site: cross-site"], ["clear", "--yes"],
                403
            ),
            (
                ["Content-Type: application/json", "X-IAPCTL-Token: \(token)", "Host: evil.example:\(server.port)"],
                ["clear", "--yes"], 403
            ),
            (["Content-Type: application/json", "X-IAPCTL-Token: \(token)"], ["init", "--force"], 403),
            (
                ["Content-Type: application/json", "X-IAPCTL-Token: \(token)"], ["clear", "--yes", "--store", h.path("other")],
                403
            ),
            (
                ["Content-Type: application/json", "X-IAPCTL-Token: \(token)"], ["config", "set", "downloader", "touch pwned"],
                403
            ),
        ] as [([String], [String], Int)] {
            let r = try server.action(arguments, headers: headers)
            #expect(r.status == status, "\(headers) \(arguments)")
            #expect(r.json?["errorMessage"]?.stringValue != nil)
        }
        #expect((h.run(["dump"]).stdout, h.run(["events"]).stdout) == before, "a refused action changed the store")
        #expect(
            !FileManager.default.fileExists(atPath: h.path("pwned")) && !FileManager.default.fileExists(atPath: h.path("other")))
        let body = BoundedRun.curl([
            "-X", "POST", "-H", "Content-Type: application/json", "-H", "X-IAPCTL-Token: \(token)", "--data-binary",
            #"{"arguments": [1]}"#, server.origin + "/ui/api/actions",
        ])
        #expect(body.stdout == #"{"errorCode":4000000,"errorMessage":"every argument is a string; found a number"}"#)
    }

    @Test("events stream as server-sent events: news from any process at once, and Last-Event-ID resumes after it")
    func eventStream() throws {
        let h = Self.seeded()
        let server = try UIServer(store: h.store)
        defer { _ = server.stop() }
        let last = Int(h.run(["events"]).stdout.split(separator: "\n").count)
        // Python reads the stream; once it is open, a CLI buy (another process) must arrive.
        let script = """
            import sys, urllib.request, subprocess, json
            url, binary, store, last = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
            def stream(headers):
                return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=20)
            r = stream({})
            print(r.headers["Content-Type"], r.headers.get("Content-Length"))
            first = r.readline().decode().strip(); r.readline()
            print(first)
            subprocess.run([binary, "--store", store, "buy", "com.x.noads"], check=True, capture_output=True)
            ids = []
            names = 0
            while names < 2:
                line = r.readline().decode().strip()
                if line.startswith("id: "): ids.append(int(line[4:]))
                if line.startswith("data: "):
                    print(json.loads(line[6:])["name"])
                    names += 1
            print(ids == [int(last) + 1, int(last) + 2])
            r2 = stream({"Last-Event-ID": str(int(last) + 1)})
            r2.readline(); r2.readline()
            print(r2.readline().decode().strip())
            """
        let r = BoundedRun.python(
            script, [server.origin + "/ui/api/events", CLIHarness.binary, h.store, String(last)], timeout: 60)
        #expect(r.code == 0, "\(r)")
        #expect(
            r.stdout == """
                text/event-stream; charset=utf-8 None
                retry: 1000
                transactionPurchasing
                transactionPurchased
                True
                id: \(last + 2)

                """)
        let bad = server.get("/ui/api/events", headers: ["Last-Event-ID: x"])
        #expect(bad.status == 400)
        #expect(
            bad.json?["errorMessage"]?.stringValue
                == "Last-Event-ID 'x' is not an event seq; it is the id of the last event received")
        // A server stops with a stream open (a browser's): the stream ends and the server exits 0.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import urllib.request, sys\nr = urllib.request.urlopen(sys.argv[1], timeout=60)\nprint(r.readline().decode().strip(), flush=True)\nr.read()\nprint('closed', flush=True)",
            server.origin + "/ui/api/events",
        ]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        let lines = LineReader(out.fileHandleForReading)
        #expect(lines.next(timeout: 30) == "retry: 1000")
        #expect(server.stop() == 0)
        #expect(lines.next(timeout: 30) == "closed")
        holder.waitUntilExit()
    }
}
