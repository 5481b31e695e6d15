import IAPCrypto
import IAPHTTP
import IAPJSON
import IAPKit
import IAPTime
import IAPUIAssets

/// The Transaction Manager's side of the server: `GET /` (the page), its assets under `/ui/`, and
/// the JSON contract the page uses under `/ui/api/` (docs/ui.md).
///
/// Reads go through `reader`, each in one consistent view under the store's shared lock. Actions
/// and the few reads that are CLI output by definition (`subscriptions`, `downloads`, `jws`) go
/// through `commandLine`: the very command code of `iapctl`, so the page and the shell cannot
/// disagree. Every request must name the server by its own address, and an action must also carry
/// the page's token as JSON (`UIRequestCheck`); only whitelisted commands run (`UIActionPolicy`).
package struct TransactionManagerAPI: Sendable {
    package let reader: any StoreReading
    package let commandLine: any UICommandLine
    package let check: UIRequestCheck
    package let storePath: String
    package let version: String
    let list = TransactionList()
    let policy: UIActionPolicy
    var events: UIEventStream

    package init(
        reader: any StoreReading, commandLine: any UICommandLine, check: UIRequestCheck, storePath: String, version: String
    ) {
        self.reader = reader
        self.commandLine = commandLine
        self.check = check
        self.storePath = storePath
        self.version = version
        policy = UIActionPolicy(commandLine: commandLine)
        events = UIEventStream(reader: reader, storePath: storePath)
    }

    /// Whether a path is the Transaction Manager's: `/` and everything under `/ui/`.
    package static func handles(_ path: String) -> Bool {
        path == "/" || path == "/ui" || path.hasPrefix("/ui/")
    }

    /// The routes, in the order docs/ui.md lists them.
    package func router() -> Router {
        var r = Router()
        r.add("GET", "/") { request, _ in self.page(request) }
        r.add("GET", "/ui/{asset}") { request, p in self.asset(request, p["asset"] ?? "") }
        r.add("GET", "/ui/api/overview") { request, _ in self.json(request) { w throws(UIRequestError) in try self.overview(&w) }
        }
        r.add("GET", "/ui/api/transactions") { request, _ in
            self.json(request) { w throws(UIRequestError) in try self.transactions(TransactionListQuery(request), &w) }
        }
        r.add("GET", "/ui/api/transactions/{id}") { request, p in
            self.json(request) { w throws(UIRequestError) in try self.detail(p["id"] ?? "", &w) }
        }
        r.add("GET", "/ui/api/subscriptions") { request, _ in
            self.json(request) { w throws(UIRequestError) in try self.cliArray("subscriptions", ["subscriptions"], &w) }
        }
        r.add("GET", "/ui/api/downloads") { request, _ in
            self.json(request) { w throws(UIRequestError) in try self.cliArray("downloads", ["downloads"], &w) }
        }
        r.add("GET", "/ui/api/events") { request, _ in self.eventStream(request) }
        r.add("GET", "/ui/api/actions") { request, _ in self.json(request) { w in self.actions(&w) } }
        r.add("POST", "/ui/api/actions") { request, _ in self.runAction(request) }
        return r
    }

    /// Answers a request for one of the Transaction Manager's paths.
    package func respond(to request: HTTPRequest) -> HTTPResponse {
        do {
            _ = try check.host(of: request)
        } catch {
            return Self.secured(error.response)
        }
        return Self.secured(router().respond(to: request))
    }

    // MARK: - The page and its assets

    /// The page's policy: its own script, style sheet, icon and API, nothing else; no frame,
    /// no form target, no base URL, no referrer.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    private func page(_ request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders([
            ("Content-Type", UIAsset.contentType(forName: UIAssets.pageName)),
            ("Content-Security-Policy", Self.contentSecurityPolicy), ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
        ])
        headers.add("Cross-Origin-Opener-Policy", "same-origin")
        return HTTPResponse(status: .ok, headers: headers, body: UIAssets.page(token: check.token.hex))
    }

    private func asset(_ request: HTTPRequest, _ name: String) -> HTTPResponse {
        guard let asset = UIAssets.named(name) else {
            return .error(.notFound, message: "no asset '\(name)' (the page's files are \(assetNames))")
        }
        return HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", asset.contentType)]), body: asset.bytes)
    }

    private var assetNames: String {
        UIAssets.all.map(\.name).filter { $0 != UIAssets.pageName }.map { "/ui/\($0)" }.joined(separator: ", ")
    }

    /// Headers every Transaction Manager response carries: not cached (the page holds the
    /// token, the API the store's state), not sniffed into another type.
    static func secured(_ response: HTTPResponse) -> HTTPResponse {
        var r = response
        if r.headers["Cache-Control"] == nil { r.headers.add("Cache-Control", "no-store") }
        if r.headers["X-Content-Type-Options"] == nil { r.headers.add("X-Content-Type-Options", "nosniff") }
        return r
    }

    // MARK: - JSON endpoints

    private func json(_ request: HTTPRequest, _ build: (inout JSONWriter) throws(UIRequestError) -> Void) -> HTTPResponse {
        var w = JSONWriter(capacity: 16 << 10)
        do {
            try build(&w)
        } catch {
            return error.response
        }
        return HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: w.bytes)
    }

    /// Runs `body` in one read of the store; a store that cannot be read is a 500 naming why.
    private func read<R>(_ body: (StoreSession) throws(UIRequestError) -> R) throws(UIRequestError) -> R {
        do {
            return try reader.read { s in try body(s) }
        } catch let error as UIRequestError {
            throw error
        } catch {
            throw .internalError("cannot read the store at \(storePath): \(error)")
        }
    }

    /// `GET /ui/api/overview`.
    func overview(_ w: inout JSONWriter) throws(UIRequestError) {
        try read { s throws(UIRequestError) in
            let state = s.state
            let total: Int
            do {
                total = try list.rows(s).count
            } catch {
                throw .internalError("cannot read the store's transactions: \(error)")
            }
            w.beginObject()
            w.key("version")
            w.string(version)
            w.key("store")
            w.string(storePath)
            w.key("bundleId")
            w.string(state.bundleID)
            w.key("appVersion")
            w.string(state.appVersion)
            Self.date("clock", "clockTimestamp", state.clock, &w)
            Self.date("nextDueDate", "nextDueTimestamp", s.machine.nextDueDate, &w)
            w.key("lastEventSeq")
            w.uint(state.nextEventSeq - 1)
            w.key("counts")
            w.beginObject()
            w.key("transactions")
            w.int(total)
            w.key("unfinished")
            w.int(state.queue.count)
            w.key("subscriptions")
            w.int(state.subscriptions.count + state.nonRenewing.count)
            w.key("downloads")
            w.int(state.queue.reduce(0) { $0 + $1.downloads.count + (s.machine.contentDownload(of: $1.id) == nil ? 0 : 1) })
            w.endObject()
            w.key("settings")
            w.beginArray()
            for key in SettingKey.allCases {
                w.beginObject()
                w.key("key")
                w.string(key.rawValue)
                w.key("value")
                w.string(key.value(in: state.settings))
                w.key("help")
                w.string(key.summary)
                w.endObject()
            }
            w.endArray()
            // The catalog as `iapctl products` shows it, without its products request: reading
            // the overview must not add an event (it would wake every page to read it again).
            let storefront = Storefront.named(state.settings.storefront) ?? .usa
            let locale = state.settings.effectiveLocale
            w.key("products")
            w.beginArray()
            for p in s.machine.productsRequest([]).valid {
                ProductJSON.write(
                    p, storefront: storefront, locale: locale,
                    isEligibleForIntroOffer: s.machine.isEligibleForIntroOffer(p), into: &w)
            }
            w.endArray()
            w.key("states")
            w.beginArray()
            for name in TransactionState.allNames { w.string(name) }
            w.endArray()
            // The family's members in joining order, as `iapctl family list` lists them: the page's
            // member filter (`member=`), hidden while there are none.
            w.key("members")
            w.beginArray()
            for m in state.familyGroup.members { w.string(m.name) }
            w.endArray()
            w.endObject()
        }
    }

    /// `GET /ui/api/transactions`.
    func transactions(_ query: TransactionListQuery, _ w: inout JSONWriter) throws(UIRequestError) {
        try read { s throws(UIRequestError) in
            let page = try list.page(query, s)
            w.beginObject()
            w.key("total")
            w.int(page.total)
            w.key("offset")
            w.int(query.offset)
            w.key("limit")
            w.int(query.limit)
            w.key("transactions")
            w.beginArray()
            for t in page.transactions { TransactionJSON.write(t, into: &w) }
            w.endArray()
            w.endObject()
        }
    }

    /// `GET /ui/api/transactions/{id}`.
    func detail(_ text: String, _ w: inout JSONWriter) throws(UIRequestError) {
        guard let id = TransactionID(parsing: text) else {
            throw .badRequest("'\(text)' is not a transaction id; ids are decimal, like 2000000000000001")
        }
        // The signed transaction is what 'iapctl jws ID --json' prints (with '--member NAME' for
        // a family member's transaction, as that member's device would get it), or the CLI's
        // reason there is none; it reads the store on its own, before the view below.
        let peek = try read { s throws(UIRequestError) in (try? s.transaction(id)) ?? nil }
        let member = peek?.familyMember
        let jws = commandLine.run(["jws", id.description] + (member.map { ["--member", $0] } ?? []))
        // A member's shared subscription is the member's, as 'iapctl subscriptions --member NAME'
        // shows it (the account's subscriptions do not hold it).
        var memberSubscription: JSONValue?
        if let member, let peek, peek.productType == .autoRenewable {
            let listed = commandLine.run(["subscriptions", "--member", member])
            memberSubscription = (try? JSONParser.parse(listed.stdout))?.arrayValue?.first {
                $0["originalTransactionIdentifier"]?.stringValue == peek.originalID.description
            }
        }
        try read { s throws(UIRequestError) in
            let found: Transaction?
            do {
                found = try s.transaction(id)
            } catch {
                throw .internalError("cannot read transaction \(id): \(error)")
            }
            guard let t = found else {
                throw .notFound("no transaction \(id) in this store (see 'iapctl dump')")
            }
            w.beginObject()
            w.key("transaction")
            TransactionJSON.write(t, into: &w)
            w.key("subscription")
            if t.familyMember != nil {
                if let memberSubscription { w.value(memberSubscription) } else { w.null() }
            } else if t.productType == .autoRenewable, let sub = s.state.subscriptions[t.originalID] {
                // As 'iapctl subscriptions --json' writes it: with its renewal info and offers.
                let renewal = try? StoreTransactionSigner.renewalInfo(original: sub.originalID, session: s)
                SubscriptionJSON.write(
                    sub, renewal: renewal, offers: s.state.offers.subscriptions[sub.originalID], into: &w)
            } else if t.productType == .nonRenewing, let entitlement = s.state.nonRenewing[t.productID] {
                SubscriptionJSON.write(entitlement, clock: s.state.clock, into: &w)
            } else {
                w.null()
            }
            // Issue 15: its refund request, if any, with the consumption information the backend
            // sent (what the refund request flow's buttons depend on).
            w.key("refundRequest")
            if let q = s.state.refundRequests?[t.id] {
                LifeJSON.write(q, consumption: s.state.serverAPIRecords?[t.id]?.consumption ?? [], into: &w)
            } else {
                w.null()
            }
            w.key("signed")
            if jws.exitCode == 0, let parsed = try? JSONParser.parse(jws.stdout), let token = parsed["signedTransactionInfo"] {
                w.beginObject()
                w.key("header")
                w.value(parsed["header"] ?? .null)
                w.key("payload")
                w.value(parsed["payload"] ?? .null)
                w.key("token")
                w.value(token)
                w.endObject()
                w.key("signedUnavailable")
                w.null()
            } else {
                w.null()
                w.key("signedUnavailable")
                w.string(jws.error ?? "iapctl jws \(id) exited \(jws.exitCode)")
            }
            w.key("receiptEntry")
            if StoreReceipt.lists(t) { ReceiptJSON.write(StoreReceipt.entry(t), into: &w) } else { w.null() }
            w.key("events")
            w.beginArray()
            do {
                try Self.forEachEvent(about: id, in: s) { json in w.raw(json) }
            } catch {
                throw .internalError("cannot read the events of transaction \(id): \(error)")
            }
            w.endArray()
            w.endObject()
        }
    }

    /// Calls `body` with the JSON of every event about transaction `id`, oldest first: the
    /// transaction's own updates, and events that name it otherwise (its downloads, the
    /// purchase that resolved it, an upgrade from it).
    static func forEachEvent(about id: TransactionID, in s: StoreSession, _ body: ([UInt8]) -> Void) throws(StoreError) {
        let mention = Array("\"transactionIdentifier\":\"\(id)\"".utf8)
        try s.forEachEvent(since: 0) { logged throws(StoreError) in
            switch logged {
            case .event(let e):
                if let t = e.kind.transaction, t.id != id {
                    guard case .subscriptionUpgraded(let from, _, _) = e.kind, from.id == id else { return }
                    body(EventJSON.bytes(e))
                    return
                }
                let json = EventJSON.bytes(e)
                if e.kind.transaction != nil || contains(json, mention) { body(json) }
            case .legacy(_, let json):
                if contains(json, mention) { body(json) }
            }
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return false }
        var i = 0
        while i + needle.count <= haystack.count {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// `{"NAME": <what 'iapctl ARGS --json' prints>}`: the CLI's own output, so the page shows
    /// exactly what the shell does.
    func cliArray(_ name: String, _ arguments: [String], _ w: inout JSONWriter) throws(UIRequestError) {
        let result = commandLine.run(arguments)
        guard result.exitCode == 0, (try? JSONParser.parse(result.stdout)) != nil else {
            throw .internalError(
                "iapctl \(arguments.joined(separator: " ")) --json exited \(result.exitCode): \(result.error ?? "no JSON")")
        }
        w.beginObject()
        w.key(name)
        w.raw(Self.trimmed(result.stdout))
        w.endObject()
    }

    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20 { end -= 1 }
        return Array(bytes[..<end])
    }

    /// `GET /ui/api/actions`.
    func actions(_ w: inout JSONWriter) {
        w.beginObject()
        w.key("actions")
        w.beginArray()
        for (command, usage) in policy.available {
            w.beginObject()
            w.key("command")
            w.string(command.joined(separator: " "))
            w.key("usage")
            w.string(usage)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    // MARK: - Events

    private func eventStream(_ request: HTTPRequest) -> HTTPResponse {
        var since: UInt64?
        if let last = request.headers["Last-Event-ID"], !last.isEmpty {
            guard let n = UInt64(last) else {
                return .error(
                    .badRequest, message: "Last-Event-ID '\(last)' is not an event seq; it is the id of the last event received")
            }
            since = n
        } else if let items = request.queryItems(), let text = items.first(where: { $0.name == "since" })?.value {
            guard let n = UInt64(text) else {
                return .error(.badRequest, message: "since '\(text)' is not an event seq; give 0 for the whole log")
            }
            since = n
        }
        let start: UInt64
        if let since {
            start = since
        } else {
            do {
                start = try read { s throws(UIRequestError) in s.state.nextEventSeq - 1 }
            } catch {
                return error.response
            }
        }
        return events.response(since: start)
    }

    // MARK: - Actions

    /// `POST /ui/api/actions`: `{"arguments": [...]}`, run as `iapctl --store STORE --json ...`.
    private func runAction(_ request: HTTPRequest) -> HTTPResponse {
        let arguments: [String]
        do {
            let host = try check.host(of: request)
            try check.action(request, host: host)
            arguments = try Self.arguments(request.body)
            if let why = policy.refusal(arguments) { throw UIRequestError.forbidden(why) }
        } catch let error as UIRequestError {
            return error.response
        } catch {
            return .error(.internalServerError, message: "\(error)")
        }
        let result = commandLine.run(arguments)
        return .json { w in
            w.beginObject()
            w.key("exitCode")
            w.int(Int(result.exitCode))
            w.key("output")
            let stdout = Self.trimmed(result.stdout)
            if !stdout.isEmpty, (try? JSONParser.parse(stdout)) != nil { w.raw(stdout) } else { w.null() }
            w.key("error")
            if let error = result.error { w.string(error) } else { w.null() }
            w.key("warnings")
            w.beginArray()
            for warning in result.stderrLines(prefixed: "warning: ") { w.string(warning) }
            w.endArray()
            w.endObject()
        }
    }

    /// The argument list of an action's body, `{"arguments": ["refund", "2000000000000001"]}`.
    static func arguments(_ body: [UInt8]) throws(UIRequestError) -> [String] {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw .badRequest("the body is not JSON (\(error)); send {\"arguments\": [\"refund\", \"2000000000000001\"]}")
        }
        guard let list = value["arguments"]?.arrayValue else {
            throw .badRequest("the body has no \"arguments\" array; send {\"arguments\": [\"refund\", \"2000000000000001\"]}")
        }
        var arguments: [String] = []
        for item in list {
            guard let word = item.stringValue else {
                throw .badRequest("every argument is a string; found \(item.kindName)")
            }
            arguments.append(word)
        }
        return arguments
    }

    static func date(_ key: String, _ twin: String, _ t: Timestamp?, _ w: inout JSONWriter) {
        w.key(key)
        if let t { w.string(t.rfc3339) } else { w.null() }
        w.key(twin)
        if let t { w.int(t.milliseconds) } else { w.null() }
    }
}
