import Foundation
import IAPKit
import Testing

@testable import IAPJSON

#if canImport(Glibc)
    import Glibc
#endif

/// `iapctl serve`'s group commit (docs/serve.md, `StoreWriterGate`): many write requests at once
/// through the real binary are each answered as they would be one at a time, and leave the store
/// those one-at-a-time requests leave. The order the batches ran in is read back from the
/// event log; the same requests are then sent one by one, in that order, to a second server on a
/// copy of the starting store, and the answers, `dump`, `events` and `doctor` are compared.
@Suite("serve group commit", .serialized)
struct GroupCommitServeTests {
    /// Every request of the mix, by key: f finish, c consumption v2, u consumption of an unknown
    /// id, b consumption without consent, e extension of the one subscription (two succeed, the
    /// rest are past Apple's limit), t the subscription's appAccountToken.
    static let script = """
        import http.client, sys, threading, json, random
        port = int(sys.argv[1]); token = sys.argv[2]; mode = sys.argv[3]
        coins = json.loads(sys.argv[4]); sub = sys.argv[5]
        def request(key):
            kind, n = key[0], int(key[1:])
            consume = lambda pct, consent: json.dumps({"customerConsented": consent, "sampleContentProvided": False,
                "deliveryStatus": "DELIVERED", "refundPreference": "GRANT_PRORATED", "consumptionPercentage": pct})
            if kind == 'f': return 'POST', '/inApps/v1/transactions/%s/finish' % coins[n], None
            if kind == 'c': return 'PUT', '/inApps/v2/transactions/consumption/%s' % coins[n], consume(1000 + n, True)
            if kind == 'u': return 'PUT', '/inApps/v2/transactions/consumption/2000000000000999', consume(1, True)
            if kind == 'b': return 'PUT', '/inApps/v2/transactions/consumption/%s' % coins[n], consume(1, False)
            if kind == 'e': return 'PUT', '/inApps/v1/subscriptions/extend/%s' % sub, json.dumps(
                {"extendByDays": 3, "extendReasonCode": 1, "requestIdentifier": "req-%d" % n})
            if kind == 't': return 'PUT', '/inApps/v1/transactions/%s/appAccountToken' % sub, json.dumps(
                {"appAccountToken": "7e3fb20b-4cdb-47cc-936d-%012d" % n})
        answers = {}
        def send(c, key):
            method, path, body = request(key)
            headers = {'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json'}
            c.request(method, path, body=body, headers=headers)
            r = c.getresponse()
            answers[key] = [r.status, r.read().decode()]
        if mode == 'concurrent':
            rng = random.Random(int(sys.argv[6]))
            plans = []
            for n in range(len(coins)):
                keys = ['%s%d' % (k, n) for k in 'fcubet']
                rng.shuffle(keys)
                plans.append(keys)
            errors = []
            def client(keys):
                try:
                    c = http.client.HTTPConnection('127.0.0.1', port, timeout=60)
                    for key in keys: send(c, key)
                    c.close()
                except Exception as e:
                    errors.append(repr(e))
            threads = [threading.Thread(target=client, args=(p,)) for p in plans]
            for t in threads: t.start()
            for t in threads: t.join()
            if errors: print(json.dumps({"errors": errors})); sys.exit(1)
        else:
            c = http.client.HTTPConnection('127.0.0.1', port, timeout=60)
            for key in json.loads(sys.argv[6]): send(c, key)
        print(json.dumps(answers, sort_keys=True))
        """

    /// The key of the request an event records, if it records one.
    static func key(of event: JSONValue, coins: [String]) -> String? {
        if let pct = event["consumptionInformation"]?["consumptionPercentage"]?.int64Value { return "c\(pct - 1000)" }
        if let request = event["requestIdentifier"]?.stringValue, request.hasPrefix("req-") {
            return "e" + request.dropFirst(4)
        }
        if let token = event["appAccountToken"]?.stringValue, let n = Int(token.suffix(12)) { return "t\(n)" }
        if event["name"]?.stringValue == "transactionFinished",
            let id = event["transaction"]?["transactionIdentifier"]?.stringValue,
            let n = coins.firstIndex(of: id)
        {
            return "f\(n)"
        }
        return nil
    }

    @Test("16 clients' concurrent writes get the one-at-a-time answers and leave the one-at-a-time store")
    func concurrentWritesEqualSerial() throws {
        var random = SeededRandom.fromEnvironment(default: 0x6772_6F75_7031, test: "serve group commit")
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.weekly"]).code == 0)
        var coins: [String] = []
        for _ in 0..<16 {
            let bought = h.run(["buy", "com.x.coin42", "--json"])
            #expect(bought.code == 0, "\(bought)")
            guard let id = bought.json?["transactionIdentifier"]?.stringValue
            else {
                Issue.record("no transaction id in \(bought.stdout)")
                return
            }
            coins.append(id)
        }
        let sub = "2000000000000001"
        let setupEvents = h.run(["events"]).stdout
        let serialStore = h.directory + "/serial-store"
        try FileManager.default.copyItem(atPath: h.store, toPath: serialStore)
        let coinList = "[" + coins.map { "\"\($0)\"" }.joined(separator: ",") + "]"

        let server = try ServerProcess(store: h.store)
        let concurrent = BoundedRun.python(
            Self.script, [String(server.port), BearerToken.make(), "concurrent", coinList, sub, String(random.next() >> 1)],
            timeout: 180)
        #expect(server.stop() == 0)
        #expect(concurrent.code == 0, "\(concurrent)")
        let answers = try JSONParser.parse(Array(concurrent.stdout.utf8))

        // The order the writes committed in: the events after the setup, one per changing request.
        let allEvents = h.run(["events"]).stdout
        #expect(allEvents.hasPrefix(setupEvents))
        var order: [String] = []
        for line in allEvents.dropFirst(setupEvents.count).split(separator: "\n") {
            let event = try JSONParser.parse(Array(line.utf8))
            guard let key = Self.key(of: event, coins: coins) else { continue }
            if !order.contains(key) { order.append(key) }
        }
        let all = (0..<coins.count).flatMap { n in "fcubet".map { "\($0)\(n)" } }
        #expect(order.filter { $0.hasPrefix("e") }.count == 2, "two extensions within Apple's limit: \(order)")
        order += all.filter { !order.contains($0) }.sorted()

        let serialServer = try ServerProcess(store: serialStore)
        let orderList = "[" + order.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let serial = BoundedRun.python(
            Self.script, [String(serialServer.port), BearerToken.make(), "serial", coinList, sub, orderList], timeout: 180)
        #expect(serialServer.stop() == 0)
        #expect(serial.code == 0, "\(serial)")
        let serialAnswers = try JSONParser.parse(Array(serial.stdout.utf8))
        for key in all {
            #expect(
                answers[key] == serialAnswers[key],
                "\(key): concurrent \(String(describing: answers[key])), one at a time \(String(describing: serialAnswers[key]))")
        }
        #expect(answers["u0"]?[0] == .number("404") && answers["b0"]?[0] == .number("400") && answers["c0"]?[0] == .number("202"))

        let serialHarness = CLIHarness()
        serialHarness.store = serialStore
        #expect(h.run(["events"]).stdout == serialHarness.run(["events"]).stdout)
        #expect(h.run(["dump"]).stdout == serialHarness.run(["dump"]).stdout)
        #expect(h.run(["show", sub, "--json"]).stdout == serialHarness.run(["show", sub, "--json"]).stdout)
        let doctor = h.run(["doctor"])
        #expect(doctor.code == 0, "\(doctor)")
        #expect(serialHarness.run(["doctor"]).code == 0)
    }

    @Test("a CLI writer beside a busy serve gets the lock between batches: no busy exit")
    func cliWriterBesideServe() throws {
        let h = CLIHarness()
        var coins: [String] = []
        for _ in 0..<16 {
            let bought = h.run(["buy", "com.x.coin42", "--json"])
            if let id = bought.json?["transactionIdentifier"]?.stringValue {
                coins.append(id)
            }
        }
        #expect(coins.count == 16)
        let server = try ServerProcess(store: h.store)
        let load = """
            import http.client, sys, threading, json
            port = int(sys.argv[1]); token = sys.argv[2]; coins = json.loads(sys.argv[3]); stop = []
            def client(n):
                c = http.client.HTTPConnection('127.0.0.1', port, timeout=60)
                body = json.dumps({"customerConsented": True, "deliveryStatus": "DELIVERED"})
                while not stop:
                    c.request('PUT', '/inApps/v2/transactions/consumption/%s' % coins[n], body=body,
                              headers={'Authorization': 'Bearer ' + token})
                    r = c.getresponse(); r.read()
                    if r.status != 202: print("answer", r.status); stop.append(1)
            threads = [threading.Thread(target=client, args=(n,)) for n in range(16)]
            for t in threads: t.start()
            sys.stdout.write("started\\n"); sys.stdout.flush()
            sys.stdin.readline(); stop.append(1)
            for t in threads: t.join()
            print("done")
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c", load, String(server.port), BearerToken.make(),
            "[" + coins.map { "\"\($0)\"" }.joined(separator: ",") + "]",
        ]
        let input = Pipe()
        let output = Pipe()
        python.standardInput = input
        python.standardOutput = output
        try python.run()
        let lines = LineReader(output.fileHandleForReading)
        #expect(lines.next(timeout: 60) == "started")
        // The CLI's own writes while 16 clients keep serve's writer busy: each one commits.
        for _ in 0..<10 {
            let r = h.run(["buy", "com.x.coin42"])
            #expect(r.code == 0, "\(r)")
        }
        input.fileHandleForWriting.write(Data("\n".utf8))
        #expect(lines.next(timeout: 60) == "done")
        python.waitUntilExit()
        #expect(server.stop() == 0)
        #expect(h.run(["doctor"]).code == 0)
    }

    @Test("kill -9 of serve under 16 writing clients at a seeded point: every answered write is in the store")
    func killNineUnderLoad() throws {
        var random = SeededRandom.fromEnvironment(default: 0x6B69_6C6C_39, test: "serve group commit kill -9")
        for round in 0..<3 {
            let h = CLIHarness()
            var coins: [String] = []
            for _ in 0..<4 {
                if let id = h.run(["buy", "com.x.coin42", "--json"]).json?["transactionIdentifier"]?.stringValue {
                    coins.append(id)
                }
            }
            try #require(coins.count == 4)
            let server = try ServerProcess(store: h.store)
            // Each client prints a request's unique consumptionPercentage once it is answered 202.
            let load = """
                import http.client, sys, threading, json
                port = int(sys.argv[1]); token = sys.argv[2]; coins = json.loads(sys.argv[3]); lock = threading.Lock()
                def client(n):
                    try:
                        c = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
                        for i in range(4000):
                            pct = 1 + n * 5000 + i
                            body = json.dumps({"customerConsented": True, "consumptionPercentage": pct})
                            c.request('PUT', '/inApps/v2/transactions/consumption/%s' % coins[n % len(coins)], body=body,
                                      headers={'Authorization': 'Bearer ' + token})
                            r = c.getresponse(); r.read()
                            if r.status == 202:
                                with lock: sys.stdout.write("%d\\n" % pct); sys.stdout.flush()
                    except Exception:
                        pass
                threads = [threading.Thread(target=client, args=(n,)) for n in range(16)]
                for t in threads: t.start()
                for t in threads: t.join()
                """
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = [
                "python3", "-c", load, String(server.port), BearerToken.make(),
                "[" + coins.map { "\"\($0)\"" }.joined(separator: ",") + "]",
            ]
            let output = Pipe()
            python.standardOutput = output
            python.standardError = FileHandle.nullDevice
            try python.run()
            let lines = LineReader(output.fileHandleForReading)
            let killAfter = Int.random(in: 20...400, using: &random)
            var answered: Set<Int64> = []
            while answered.count < killAfter, let line = lines.next(timeout: 60), let pct = Int64(line) { answered.insert(pct) }
            kill(server.pid, SIGKILL)
            // Answers the clients read before the kill are acknowledged too.
            while let line = lines.next(timeout: 60), let pct = Int64(line) { answered.insert(pct) }
            python.waitUntilExit()
            _ = server.waitForExit()
            #expect(answered.count >= killAfter, "round \(round)")
            var stored: Set<Int64> = []
            for line in h.run(["events"]).stdout.split(separator: "\n") {
                if let pct = try JSONParser.parse(Array(line.utf8))["consumptionInformation"]?["consumptionPercentage"]?
                    .int64Value
                {
                    stored.insert(pct)
                }
            }
            let lost = answered.subtracting(stored)
            #expect(lost.isEmpty, "round \(round): \(lost.count) answered writes lost, e.g. \(lost.sorted().prefix(5))")
            let doctor = h.run(["doctor"])
            #expect(doctor.code == 0, "round \(round): \(doctor)")
        }
    }
}
