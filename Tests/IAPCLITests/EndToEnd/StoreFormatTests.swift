import Foundation
import IAPJSON
import Testing

/// Store format 2 against format 1 (Fixtures/stores/format1): a store iapctl 0.1.0 wrote reads
/// exactly as that release printed it, is migrated by its first write without changing what any
/// command prints, and a new store running the same history prints the same bytes (the JSON
/// output is made from typed records, not stored).
@Suite("Store formats: format 1 reads and migrates, format 2 prints the same")
struct StoreFormatTests {
    /// The commands whose output the fixture recorded, with the golden file of each.
    static let outputs: [(arguments: [String], file: String)] = [
        (["dump"], "dump.out"), (["events"], "events.out"), (["queue"], "queue.out"),
        (["notifications"], "notifications.out"), (["notifications", "--json"], "notifications_json.out"),
        (["subscriptions"], "subscriptions.out"), (["ledger"], "ledger.out"),
        (["show", "2000000000000006", "--json"], "show_2000000000000006_json.out"), (["receipt", "--json"], "receipt_json.out"),
    ]

    static func golden(_ file: String) -> String {
        (try? String(contentsOfFile: CLIHarness.fixture("stores/format1/" + file), encoding: .utf8)) ?? "<missing \(file)>"
    }

    /// Whether `output` prints what 0.1.0 printed for `file`. JSON output may have gained members
    /// since: it must hold every member 0.1.0 printed, in order, with the same value. Issue 11
    /// added each certificate's key, signature algorithm, CA flag and Apple markers to `receipt
    /// --json`; issue 13 added `orderIdentifier` to every transaction and `appTransactionId` to
    /// every signed payload, which changes the JWS bytes, so signed payloads are compared by their
    /// decoded payloads (nested ones too), projected the same way.
    static func matches(_ output: String, _ file: String) -> Bool {
        let expected = golden(file)
        if output == expected { return true }
        guard output.hasSuffix("\n") == expected.hasSuffix("\n") else { return false }
        func same(_ o: Substring, _ t: Substring) -> Bool {
            if o == t { return true }
            guard let ours = try? JSONParser.parse(Array(o.utf8)), let theirs = try? JSONParser.parse(Array(t.utf8)) else {
                return false
            }
            let shape = decodedJWS(theirs)
            return projected(decodedJWS(ours), onto: shape) == shape
        }
        if same(Substring(output), Substring(expected)) { return true }
        let ours = output.split(separator: "\n", omittingEmptySubsequences: false)
        let theirs = expected.split(separator: "\n", omittingEmptySubsequences: false)
        return ours.count == theirs.count && zip(ours, theirs).allSatisfy { same($0, $1) }
    }

    /// `value` with every compact JWS string replaced by its decoded payload, recursively.
    static func decodedJWS(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, text.hasPrefix("eyJ") else { return value }
            var b64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while b64.count % 4 != 0 { b64 += "=" }
            guard let data = Data(base64Encoded: b64), let payload = try? JSONParser.parse(Array(data)) else { return value }
            return decodedJWS(payload)
        case .object(let members): return .object(members.map { (key: $0.key, value: decodedJWS($0.value)) })
        case .array(let items): return .array(items.map(decodedJWS))
        default: return value
        }
    }

    /// `value` cut down to the members `shape` has (recursively, element by element in arrays).
    static func projected(_ value: JSONValue, onto shape: JSONValue) -> JSONValue {
        switch (value, shape) {
        case (.object(let members), .object(let wanted)):
            return .object(
                wanted.map { w in
                    (
                        key: w.key,
                        value: members.first { $0.key == w.key }.map { projected($0.value, onto: w.value) }
                            ?? .string("<missing \(w.key)>")
                    )
                })
        case (.array(let items), .array(let wanted)) where items.count == wanted.count:
            return .array(zip(items, wanted).map { projected($0, onto: $1) })
        default:
            return value
        }
    }

    /// A copy of the format-1 store in the harness's store directory.
    static func copyFixture(into h: CLIHarness) throws {
        try FileManager.default.createDirectory(atPath: h.store, withIntermediateDirectories: true)
        for file in ["state", "journal", "catalog"] {
            try FileManager.default.copyItem(
                atPath: CLIHarness.fixture("stores/format1/store/" + file), toPath: h.store + "/" + file)
        }
    }

    @Test("a format-1 store reads as 0.1.0 printed it, and doctor names the format")
    func readsFormat1() throws {
        let h = CLIHarness()
        try Self.copyFixture(into: h)
        let journal = h.bytes("store/journal")
        for (arguments, file) in Self.outputs {
            let result = h.run(arguments)
            #expect(result.code == 0, "\(arguments): \(result)")
            #expect(Self.matches(result.stdout, file), "\(arguments) differs from \(file)")
        }
        let doctor = h.run(["doctor"])
        #expect(doctor.code == 0, "\(doctor)")
        #expect(doctor.stdout.contains("store format 1"), "\(doctor)")
        // Reading never migrates: the journal is as 0.1.0 left it.
        #expect(h.bytes("store/journal") == journal)
    }

    @Test("the first write migrates a format-1 store to format 2; every output stays the same")
    func migratesFormat1() throws {
        let h = CLIHarness()
        try Self.copyFixture(into: h)
        let set = h.run(["config", "set", "locale", "auto"])
        #expect(set.code == 0, "\(set)")
        let doctor = h.run(["doctor"])
        #expect(doctor.code == 0, "\(doctor)")
        #expect(doctor.stdout.contains("store format 2"), "\(doctor)")
        #expect(doctor.stdout.contains("store is clean"), "\(doctor)")
        for (arguments, file) in Self.outputs where arguments != ["events"] {
            let result = h.run(arguments)
            #expect(Self.matches(result.stdout, file), "\(arguments) differs from \(file) after migration")
        }
        // The events are those of 0.1.0, then the setting change.
        let events = h.run(["events"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let before = Self.golden("events.out").split(separator: "\n", omittingEmptySubsequences: true).count
        #expect(Self.matches(events.prefix(before).joined(separator: "\n") + "\n", "events.out"))
        #expect(events.dropFirst(before).joined(separator: "\n").contains(#""name":"settingChanged""#))
        #expect(!FileManager.default.fileExists(atPath: h.store + "/journal.v2"))
        // And it keeps working as a format-2 store.
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        #expect(h.run(["doctor"]).code == 0)
    }

    @Test("a new store running the fixture's history prints the same bytes")
    func sameHistorySameOutput() throws {
        let h = CLIHarness()
        let history = Self.golden("history.txt").split(separator: "\n")
        for line in history {
            // The history quotes one account name; every other word is plain.
            var words: [String] = []
            var rest = Substring(line)
            while !rest.isEmpty {
                rest = rest.drop { $0 == " " }
                if rest.first == "\"" {
                    let body = rest.dropFirst()
                    let end = body.firstIndex(of: "\"") ?? body.endIndex
                    words.append(String(body[..<end]))
                    rest = body[end...].dropFirst()
                } else {
                    let end = rest.firstIndex(of: " ") ?? rest.endIndex
                    if !rest[..<end].isEmpty { words.append(String(rest[..<end])) }
                    rest = rest[end...]
                }
            }
            h.run(words)
        }
        // A store this release creates records its creation as event 1 (storeCreated), which a
        // 0.1.0 store lacks: the outputs that number events are compared after it, one lower,
        // and a notification's UUID (made from its event's number) is left out.
        let numbered: Set<String> = ["events.out", "notifications.out", "notifications_json.out"]
        for (arguments, file) in Self.outputs where !numbered.contains(file) {
            #expect(Self.matches(h.run(arguments).stdout, file), "\(arguments) differs from \(file)")
        }
        let events = h.run(["events"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(events.first?.hasPrefix(#"{"seq":1,"name":"storeCreated","#) == true)
        #expect(Self.matches(events.dropFirst().map { Self.renumbered($0) }.joined(separator: "\n"), "events.out"))
        let text = h.run(["notifications"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(Self.matches(text.map { Self.renumbered($0) }.joined(separator: "\n"), "notifications.out"))
        let json = h.run(["notifications", "--json"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let theirs = Self.golden("notifications_json.out").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(json.count == theirs.count)
        for (o, t) in zip(json.map { Self.renumbered($0) }, theirs) where o != t {
            let ours = try #require(try? JSONParser.parse(Array(o.utf8)))
            let golden = Self.withoutUUID(Self.decodedJWS(try JSONParser.parse(Array(t.utf8))))
            #expect(Self.projected(Self.withoutUUID(Self.decodedJWS(ours)), onto: golden) == golden, "\(o)")
        }
        let doctor = h.run(["doctor"])
        #expect(doctor.code == 0 && doctor.stdout.contains("store format 2"), "\(doctor)")
    }

    /// A line of `events` or `notifications` (JSON `{"seq":N,...`, or text `N ...`) with its
    /// event number one lower.
    static func renumbered(_ line: Substring) -> String {
        let json = line.hasPrefix(#"{"seq":"#)
        let rest = json ? line.dropFirst(7) : line
        let digits = rest.prefix { $0.isNumber }
        guard let n = Int(digits), n > 1 else { return String(line) }
        return (json ? #"{"seq":"# : "") + String(n - 1) + rest.dropFirst(digits.count)
    }

    /// `value` without any `notificationUUID` member, recursively.
    static func withoutUUID(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.filter { $0.key != "notificationUUID" }.map { (key: $0.key, value: withoutUUID($0.value)) })
        case .array(let items): return .array(items.map(withoutUUID))
        default: return value
        }
    }

    @Test("a purchase and its finish cost at most 400 bytes of journal")
    func journalBudget() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let start = h.bytes("store/journal").count
        #expect(h.run(["buy", "com.x.coin42", "--account", "Handsome Jon"]).code == 0)
        #expect(h.run(["finish", "--all"]).code == 0)
        let bytes = h.bytes("store/journal").count - start
        #expect(bytes <= 400, "\(bytes) bytes of journal for a purchase and its finish")
    }
}
