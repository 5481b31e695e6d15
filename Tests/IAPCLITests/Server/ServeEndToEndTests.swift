import Foundation
import IAPKit
import Testing

@testable import IAPJSON

#if canImport(Glibc)
    import Glibc
#endif

/// `iapctl serve` as a user runs it: the built binary on a free loopback port, talked to with
/// curl and Python's urllib. Every wait is bounded; nothing sleeps to synchronize.
@Suite("iapctl serve end to end", .serialized)
struct ServeEndToEndTests {
    @Test("prints its address first, answers /health, keeps one connection for two curl requests, stops on SIGTERM with 0")
    func healthAndKeepAlive() throws {
        let h = CLIHarness()
        let server = try ServerProcess(store: h.store)
        #expect(server.firstLine == "listening on http://127.0.0.1:\(server.port)")
        let r = BoundedRun.curl(["-w", "\n%{http_code} %{num_connects}\n", server.url + "/health", server.url + "/health"])
        #expect(r.code == 0, "\(r)")
        #expect(
            r.stdout == "{\"status\":\"ok\"}\n200 1\n{\"status\":\"ok\"}\n200 0\n", "the second request reuses the connection")
        #expect(server.stop(SIGTERM) == 0)
        // Stopped: nothing listens any more.
        #expect(BoundedRun.curl([server.url + "/health"]).code == 7)
    }

    @Test("SIGINT stops it cleanly too")
    func sigint() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let server = try ServerProcess(store: h.store)
        #expect(BoundedRun.curl([server.url + "/health"]).stdout == "{\"status\":\"ok\"}")
        #expect(server.stop(SIGINT) == 0)
        #expect(server.stderr == "")
    }

    @Test("16 concurrent keep-alive clients (Python threads) get every answer right")
    func concurrentClients() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        let server = try ServerProcess(store: h.store)
        let script = """
            import http.client, sys, threading, json
            port = int(sys.argv[1]); token = sys.argv[2]
            errors = []
            def client(n):
                try:
                    c = http.client.HTTPConnection('127.0.0.1', port, timeout=20)
                    for i in range(25):
                        if i % 2 == 0:
                            c.request('GET', '/health')
                            r = c.getresponse(); body = r.read()
                            if r.status != 200 or json.loads(body) != {'status': 'ok'}: errors.append((n, i, r.status, body))
                        else:
                            c.request('GET', '/inApps/v1/transactions/2000000000000999', headers={'Authorization': 'Bearer ' + token})
                            r = c.getresponse(); body = r.read()
                            if r.status != 404 or json.loads(body)['errorCode'] != 4040010: errors.append((n, i, r.status, body))
                    c.close()
                except Exception as e:
                    errors.append((n, repr(e)))
            threads = [threading.Thread(target=client, args=(n,)) for n in range(16)]
            for t in threads: t.start()
            for t in threads: t.join()
            print(len(errors), errors[:3])
            """
        let r = BoundedRun.python(script, [String(server.port), BearerToken.make()], timeout: 120)
        #expect(r.stdout == "0 []\n", "\(r)")
        // And 16 separate curl processes at once.
        let results = (0..<16).map { _ in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            p.arguments = ["--silent", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_code}", server.url + "/health"]
            let out = Pipe()
            p.standardOutput = out
            try? p.run()
            return (p, out)
        }.map { (p, out) -> String in
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(results == Array(repeating: "200", count: 16))
        #expect(server.stop() == 0)
    }

    @Test("404, 405 with Allow, 413 over --max-body, 400 for a malformed request, each a JSON error")
    func errorStatuses() throws {
        let h = CLIHarness()
        let server = try ServerProcess(store: h.store, ["--max-body", "100"])
        let notFound = BoundedRun.curl(["-i", server.url + "/nope"])
        #expect(notFound.stdout.hasPrefix("HTTP/1.1 404 Not Found\r\n"), "\(notFound)")
        #expect(
            notFound.stdout.hasSuffix(
                "{\"errorCode\":4040000,\"errorMessage\":\"no resource at /nope (see docs/serve.md for the endpoints)\"}"))
        let wrongMethod = BoundedRun.curl(["-i", "-X", "DELETE", server.url + "/health"])
        #expect(wrongMethod.stdout.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"), "\(wrongMethod)")
        #expect(wrongMethod.stdout.contains("\r\nAllow: GET, HEAD\r\n"))
        let tooLarge = BoundedRun.curl([
            "-i", "-X", "POST", "--data-binary", String(repeating: "x", count: 101), server.url + "/verifyReceipt",
        ])
        #expect(tooLarge.stdout.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"), "\(tooLarge)")
        #expect(
            tooLarge.stdout.hasSuffix(
                "{\"errorCode\":4130000,\"errorMessage\":\"request body larger than 100 bytes; send a smaller body\"}"))
        let fits = BoundedRun.curl(["-X", "POST", "--data-binary", "{}", server.url + "/verifyReceipt"])
        #expect(fits.stdout == "{\"status\":21002}", "\(fits)")
        // A raw malformed request over a socket: 400, then the server closes the connection.
        let raw = """
            import socket, sys
            s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=10)
            s.sendall(b'GET /health HTTP/1.1\\r\\nHost : x\\r\\n\\r\\n')
            data = b''
            while True:
                chunk = s.recv(4096)
                if not chunk: break
                data += chunk
            sys.stdout.write(data.decode())
            """
        let bad = BoundedRun.python(raw, [String(server.port)])
        #expect(
            bad.stdout
                == "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 95\r\n\r\n{\"errorCode\":4000000,\"errorMessage\":\"malformed header: whitespace before ':' in field 'Host '\"}",
            "\(bad)")
        #expect(server.stop() == 0)
    }

    @Test("a client that sends half a request and stops gets 408 after --read-timeout, and the connection closes")
    func slowClient() throws {
        let h = CLIHarness()
        let server = try ServerProcess(store: h.store, ["--read-timeout", "0.5"])
        let script = """
            import socket, sys
            s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=20)
            s.sendall(b'GET /health HTTP/1.1\\r\\nHo')
            data = b''
            while True:
                chunk = s.recv(4096)
                if not chunk: break
                data += chunk
            sys.stdout.write(data.decode())
            """
        let r = BoundedRun.python(script, [String(server.port)])
        #expect(r.stdout.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(r)")
        #expect(r.stdout.contains("Connection: close\r\n"))
        #expect(
            r.stdout.hasSuffix(
                "{\"errorCode\":4080000,\"errorMessage\":\"the request did not arrive whole within 0.5 s; send it faster\"}"))
        // The server is still fine.
        #expect(BoundedRun.curl([server.url + "/health"]).stdout == "{\"status\":\"ok\"}")
        #expect(server.stop() == 0)
    }

    @Test("the App Store Server API needs a bearer token (401 via urllib); 400 and 404 as Apple; a CLI buy is seen at once")
    func apiWithCLIWriter() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let server = try ServerProcess(store: h.store)
        let fetch = """
            import urllib.request, urllib.error, sys, json
            req = urllib.request.Request(sys.argv[1])
            if len(sys.argv) > 2: req.add_header('Authorization', 'Bearer ' + sys.argv[2])
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    print(r.status, r.read().decode())
            except urllib.error.HTTPError as e:
                print(e.code, e.read().decode(), e.headers.get('WWW-Authenticate'))
            """
        let token = BearerToken.make()
        let next = TransactionID.first.description
        let noToken = BoundedRun.python(fetch, [server.url + "/inApps/v1/transactions/\(next)"])
        #expect(
            noToken.stdout.hasPrefix("401 {\"errorCode\":4010000,\"errorMessage\":\"missing Authorization header"), "\(noToken)")
        #expect(noToken.stdout.hasSuffix("Bearer realm=\"App Store Server API\"\n"))
        let badID = BoundedRun.python(fetch, [server.url + "/inApps/v1/transactions/abc", token])
        #expect(badID.stdout.hasPrefix("400 {\"errorCode\":4000006,"), "\(badID)")
        let before = BoundedRun.python(fetch, [server.url + "/inApps/v1/transactions/\(next)", token])
        #expect(before.stdout.hasPrefix("404 {\"errorCode\":4040010,"), "\(before)")
        // A CLI writer commits while the server runs; the next request sees the transaction.
        let buy = h.run(["buy", "com.x.coin42", "--json"])
        #expect(buy.code == 0)
        #expect(buy.json?["transactionIdentifier"]?.stringValue == next)
        let after = BoundedRun.python(fetch, [server.url + "/inApps/v1/transactions/\(next)", token])
        // Found, and signed with the store's chain (SignedServeTests checks it with Apple's library).
        #expect(after.stdout.hasPrefix("200 {\"signedTransactionInfo\":\"eyJhbGciOiJFUzI1NiIsIng1YyI6"), "\(after)")
        let foreign = BoundedRun.python(
            fetch, [server.url + "/inApps/v1/transactions/\(next)", BearerToken.make(bid: "com.someone.else")])
        #expect(foreign.stdout.hasPrefix("404 {\"errorCode\":4040010,"), "\(foreign)")
        #expect(server.stop() == 0)
    }

    @Test("a request in flight when SIGTERM arrives is still answered; then the server exits 0")
    func inFlightAtStop() throws {
        let h = CLIHarness()
        let server = try ServerProcess(store: h.store)
        let script = """
            import socket, sys, os, signal
            s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=20)
            s.sendall(b'GET /health HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n')
            first = s.recv(4096)
            s.sendall(b'GET /health HTTP/1.1\\r\\nHo')
            os.kill(int(sys.argv[2]), signal.SIGTERM)
            s.sendall(b'st: x\\r\\n\\r\\n')
            data = b''
            while True:
                chunk = s.recv(4096)
                if not chunk: break
                data += chunk
            print(first.split(b'\\r\\n')[0].decode(), '|', data.split(b'\\r\\n')[0].decode(), '|', data.endswith(b'{"status":"ok"}'))
            """
        let r = BoundedRun.python(script, [String(server.port), String(server.pid)])
        #expect(r.stdout == "HTTP/1.1 200 OK | HTTP/1.1 200 OK | True\n", "\(r)")
        #expect(server.waitForExit() == 0)
    }

    @Test("refuses a non-loopback host without --allow-remote, names that are not addresses, a taken port, a remote webhook")
    func refusals() throws {
        let h = CLIHarness()
        let remote = h.run(["serve", "--host", "0.0.0.0", "--port", "0"])
        #expect(remote.code == 64)
        #expect(
            remote.stderr
                == "error: --host 0.0.0.0 is not a loopback address, so other machines could read this store's purchases; pass --allow-remote to mean it, or use 127.0.0.1 (see 'iapctl help serve')\n"
        )
        let name = h.run(["serve", "--host", "example.com"])
        #expect(name.code == 64)
        #expect(
            name.stderr
                == "error: --host 'example.com' is not an IP address; give 127.0.0.1, ::1 or localhost (names are not resolved) (see 'iapctl help serve')\n"
        )
        let hook = h.run(["serve", "--port", "0", "--webhook", "http://10.1.2.3:80/x"])
        #expect(hook.code == 64)
        #expect(
            hook.stderr
                == "error: --webhook host '10.1.2.3' is not a loopback address; use 127.0.0.1, ::1 or localhost (the webhook only posts to this machine) (see 'iapctl help serve')\n"
        )
        let https = h.run(["serve", "--port", "0", "--webhook", "https://127.0.0.1/x"])
        #expect(https.code == 64)
        #expect(https.stderr.hasPrefix("error: --webhook 'https://127.0.0.1/x' uses https;"))
        #expect(h.run(["init"]).code == 0)
        let server = try ServerProcess(store: h.store)
        let taken = h.run(["serve", "--port", String(server.port)])
        #expect(taken.code == 69)
        #expect(
            taken.stderr
                == "error: port \(server.port) on 127.0.0.1 is in use; pick another with --port, or --port 0 for a free one\n"
        )
        #expect(server.stop() == 0)
        let ipv6 = try ServerProcess(store: h.store, ["--host", "::1"])
        #expect(ipv6.url == "http://[::1]:\(ipv6.port)")
        #expect(BoundedRun.curl(["-g", ipv6.url + "/health"]).stdout == "{\"status\":\"ok\"}")
        #expect(ipv6.stop() == 0)
    }

    @Test("--webhook POSTs each new signed notification to a loopback receiver, retrying a failed delivery")
    func webhook() throws {
        let receiver = """
            import http.server, sys
            fail = int(sys.argv[1]); count = 0
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    global count
                    body = self.rfile.read(int(self.headers['Content-Length']))
                    count += 1
                    code = 500 if count <= fail else 200
                    self.send_response(code); self.send_header('Content-Length', '0'); self.end_headers()
                    print(code, self.path, self.headers['Content-Type'], body.decode(), flush=True)
                def log_message(self, *a): pass
            s = http.server.HTTPServer(('127.0.0.1', 0), H)
            print(s.server_address[1], flush=True)
            s.serve_forever()
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", receiver, "1"]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        defer { kill(python.processIdentifier, SIGKILL) }
        let lines = LineReader(out.fileHandleForReading)
        let port = try #require(lines.next())
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)  // before the server: not posted
        let server = try ServerProcess(
            store: h.store,
            ["--webhook", "http://127.0.0.1:\(port)/apple/notifications", "--webhook-backoff", "0", "--webhook-attempts", "3"])
        #expect(h.run(["buy", "com.x.coin210"]).code == 0)
        #expect(h.run(["buy", "com.x.noads"]).code == 0)
        // Events 1 to 3: the store's creation and the purchase before the server started.
        let expected = try Self.notificationBodies(h, since: 3)
        #expect(expected.count == 2, "one ONE_TIME_CHARGE per purchase; purchasing is not notified")
        // First attempt refused with 500, retried at once (backoff 0), then each notification once.
        #expect(lines.next() == "500 /apple/notifications application/json \(expected[0])")
        #expect(lines.next() == "200 /apple/notifications application/json \(expected[0])")
        #expect(lines.next() == "200 /apple/notifications application/json \(expected[1])")
        #expect(server.stop() == 0)
    }

    /// The bodies the App Store would POST for the notifications after `since`: `{"signedPayload":"..."}`.
    static func notificationBodies(_ h: CLIHarness, since: Int) throws -> [String] {
        let r = h.run(["notifications", "--since", String(since), "--json"])
        try #require(r.code == 0)
        return try r.stdout.split(separator: "\n").map {
            "{\"signedPayload\":\"" + (try #require(try JSONParser.parse(String($0))["signedPayload"]?.stringValue)) + "\"}"
        }
    }
}
