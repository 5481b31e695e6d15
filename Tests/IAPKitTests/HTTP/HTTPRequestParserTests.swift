import IAPKit
import Testing

@testable import IAPHTTP

/// Every event of parsing `text`, fed whole, stopping after a failure.
private func events(_ text: String, limits: HTTPRequestParser.Limits = .init(), keepContinue: Bool = false) -> [HTTPRequestParser
    .Event]
{
    events(Array(text.utf8), pieces: [text.utf8.count], limits: limits, keepContinue: keepContinue)
}

private func events(_ bytes: [UInt8], pieces: [Int], limits: HTTPRequestParser.Limits = .init(), keepContinue: Bool = false)
    -> [HTTPRequestParser.Event]
{
    var parser = HTTPRequestParser(limits: limits)
    var out: [HTTPRequestParser.Event] = []
    var offset = 0
    for size in pieces {
        let end = min(bytes.count, offset + size)
        parser.append(bytes[offset..<end])
        offset = end
        while let e = parser.next() {
            if case .expectContinue = e, !keepContinue { continue }
            out.append(e)
            if case .failure = e { return out }
        }
    }
    return out
}

/// The same input a byte at a time.
private func eventsByteByByte(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> [HTTPRequestParser.Event] {
    events(Array(text.utf8), pieces: Array(repeating: 1, count: text.utf8.count), limits: limits)
}

private func request(
    _ method: String, _ target: String, _ headers: [(String, String)], body: String = "", keepAlive: Bool = true,
    version: HTTPVersion = .http1_1
) -> HTTPRequest {
    HTTPRequest(
        method: method, target: target, version: version, headers: HTTPHeaders(headers), body: Array(body.utf8),
        keepAlive: keepAlive)
}

@Suite("HTTP request parser")
struct HTTPRequestParserTests {
    @Test("a GET with headers: method, target, path, query, version, fields in order, keep-alive")
    func simpleGet() {
        let text =
            "GET /inApps/v1/transactions/2000000000000001?x=1&y=%20z HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAuthorization: Bearer a.b.c\r\nX-Two:  spaced value \t\r\n\r\n"
        let expected = request(
            "GET", "/inApps/v1/transactions/2000000000000001?x=1&y=%20z",
            [("Host", "127.0.0.1:8080"), ("Authorization", "Bearer a.b.c"), ("X-Two", "spaced value")])
        #expect(events(text) == [.request(expected)])
        #expect(eventsByteByByte(text) == [.request(expected)])
        #expect(expected.path == "/inApps/v1/transactions/2000000000000001")
        #expect(expected.query == "x=1&y=%20z")
        #expect(expected.queryItems() == [.init(name: "x", value: "1"), .init(name: "y", value: " z")])
        #expect(expected.headers["authorization"] == "Bearer a.b.c")
        #expect(expected.headers["AUTHORIZATION"] == "Bearer a.b.c")
    }

    @Test("Content-Length body, and two pipelined requests in one buffer come out in order")
    func pipelining() {
        let text =
            "POST /verifyReceipt HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET /health HTTP/1.1\r\nHost: h\r\n\r\n"
        let expected: [HTTPRequestParser.Event] = [
            .request(request("POST", "/verifyReceipt", [("Host", "h"), ("Content-Length", "5")], body: "hello")),
            .request(request("GET", "/health", [("Host", "h")])),
        ]
        #expect(events(text) == expected)
        #expect(eventsByteByByte(text) == expected)
    }

    @Test("chunked bodies: sizes in hex, extensions ignored, trailers checked and dropped")
    func chunked() {
        let text =
            "POST /p HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n1A;name=value\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: t\r\n\r\n"
        let expected = request(
            "POST", "/p", [("Host", "h"), ("Transfer-Encoding", "chunked")], body: "helloabcdefghijklmnopqrstuvwxyz")
        #expect(events(text) == [.request(expected)])
        #expect(eventsByteByByte(text) == [.request(expected)])
        let empty = "POST /p HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n"
        #expect(events(empty) == [.request(request("POST", "/p", [("Host", "h"), ("Transfer-Encoding", "Chunked")]))])
    }

    @Test("keep-alive rules: 1.1 persists unless Connection: close; 1.0 only with keep-alive")
    func keepAlive() {
        func keep(_ text: String) -> Bool? {
            guard case .request(let r) = events(text).first else { return nil }
            return r.keepAlive
        }
        #expect(keep("GET / HTTP/1.1\r\nHost: h\r\n\r\n") == true)
        #expect(keep("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n") == false)
        #expect(keep("GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, CLOSE\r\n\r\n") == false)
        #expect(keep("GET / HTTP/1.0\r\n\r\n") == false)
        #expect(keep("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n") == true)
        #expect(keep("GET / HTTP/1.2\r\nHost: h\r\n\r\n") == true)
    }

    @Test("lenient where RFC 9112 allows: empty lines before the request line, bare LF line ends, absolute-form targets")
    func lenient() {
        let expected = request("GET", "/health", [("Host", "h")])
        #expect(events("\r\n\r\nGET /health HTTP/1.1\r\nHost: h\r\n\r\n") == [.request(expected)])
        #expect(events("GET /health HTTP/1.1\nHost: h\n\n") == [.request(expected)])
        guard case .request(let absolute) = events("GET http://127.0.0.1:8080/health?a=b HTTP/1.1\r\nHost: x\r\n\r\n").first
        else {
            Issue.record("absolute form refused")
            return
        }
        #expect(absolute.path == "/health")
        #expect(absolute.query == "a=b")
        guard case .request(let star) = events("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n").first else {
            Issue.record("asterisk form refused")
            return
        }
        #expect(star.path == "*")
    }

    @Test("Expect: 100-continue asks for the interim response once, only while the body is missing")
    func expectContinue() {
        var parser = HTTPRequestParser()
        parser.append(Array("POST /p HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8))
        #expect(parser.next() == .expectContinue)
        #expect(parser.next() == nil)
        parser.append(Array("abc".utf8))
        guard case .request(let r) = parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(r.body == Array("abc".utf8))
        // Body already there: no interim response needed.
        let whole = "POST /p HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc"
        #expect(events(whole, keepContinue: true).count == 1)
    }

    /// Every malformed request: the status it gets and the exact reason.
    static let malformed: [(name: String, text: String, status: Int, reason: String)] = [
        ("no spaces", "GET\r\n\r\n", 400, "malformed request line: expected 'METHOD /path HTTP/1.1', got 'GET'"),
        (
            "double space", "GET  / HTTP/1.1\r\n\r\n", 400,
            "malformed request line: expected 'METHOD /path HTTP/1.1', got 'GET  / HTTP/1.1'"
        ),
        (
            "tab separator", "GET\t/ HTTP/1.1\r\n\r\n", 400,
            "malformed request line: expected 'METHOD /path HTTP/1.1', got 'GET\\x09/ HTTP/1.1'"
        ),
        ("method not a token", "G(T / HTTP/1.1\r\n\r\n", 400, "malformed request line: method 'G(T' is not a token"),
        (
            "control byte in target", "GET /a\u{1}b HTTP/1.1\r\n\r\n", 400,
            "malformed request line: request target '/a\\x01b' has a space or control byte"
        ),
        (
            "relative target", "GET health HTTP/1.1\r\nHost: h\r\n\r\n", 400,
            "malformed request line: request target 'health' must start with '/'"
        ),
        ("asterisk on GET", "GET * HTTP/1.1\r\n\r\n", 400, "malformed request line: '*' is a target for OPTIONS only"),
        (
            "absolute without host", "GET http:///x HTTP/1.1\r\n\r\n", 400,
            "malformed request line: absolute target 'http:///x' has no host"
        ),
        ("lower-case version", "GET / http/1.1\r\n\r\n", 400, "malformed request line: version 'http/1.1' is not HTTP/1.1"),
        ("garbage version", "GET / HTTP/1.1x\r\n\r\n", 400, "malformed request line: version 'HTTP/1.1x' is not HTTP/1.1"),
        (
            "bare CR in request line", "GET / HTTP/1.1\rX\r\n\r\n", 400,
            "malformed request line: version 'HTTP/1.1\\x0dX' is not HTTP/1.1"
        ),
        ("HTTP/2.0", "GET / HTTP/2.0\r\n\r\n", 505, "unsupported protocol version 'HTTP/2.0'; use HTTP/1.1"),
        ("HTTP/0.9", "GET / HTTP/0.9\r\n\r\n", 505, "unsupported protocol version 'HTTP/0.9'; use HTTP/1.1"),
        ("header without colon", "GET / HTTP/1.1\r\nHost h\r\n\r\n", 400, "malformed header: 'Host h' has no ':'"),
        (
            "space before colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400,
            "malformed header: whitespace before ':' in field 'Host '"
        ),
        ("empty name", "GET / HTTP/1.1\r\n: h\r\n\r\n", 400, "malformed header: ': h' has an empty field name"),
        ("name not a token", "GET / HTTP/1.1\r\nHo(st: h\r\n\r\n", 400, "malformed header: field name 'Ho(st' is not a token"),
        (
            "obsolete folding", "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", 400,
            "malformed header: obsolete line folding in ' folded'; put each field on one line"
        ),
        (
            "NUL in value", "GET / HTTP/1.1\r\nHost: h\u{0}\r\n\r\n", 400,
            "malformed header: control character in the value of 'Host'"
        ),
        (
            "bare CR in value", "GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", 400,
            "malformed header: control character in the value of 'Host'"
        ),
        ("no Host on 1.1", "GET / HTTP/1.1\r\n\r\n", 400, "bad Host header: missing; an HTTP/1.1 request must name its host"),
        ("two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "bad Host header: 2 Host fields; send exactly one"),
        ("Host with a path", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400, "bad Host header: 'a/b' is not host[:port]"),
        (
            "Content-Length not a number", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n", 400,
            "invalid Content-Length 'abc'; give one decimal byte count"
        ),
        (
            "negative Content-Length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", 400,
            "invalid Content-Length '-1'; give one decimal byte count"
        ),
        (
            "empty Content-Length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n", 400,
            "invalid Content-Length ''; give one decimal byte count"
        ),
        (
            "conflicting Content-Length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400,
            "invalid Content-Length '1, 2'; give one decimal byte count"
        ),
        (
            "Content-Length and chunked", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            400, "ambiguous message framing: both Content-Length and Transfer-Encoding"
        ),
        (
            "chunked on 1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400,
            "ambiguous message framing: Transfer-Encoding on an HTTP/1.0 request"
        ),
        (
            "chunked twice", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 400,
            "ambiguous message framing: chunked applied more than once"
        ),
        (
            "empty Transfer-Encoding", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \r\n\r\n", 400,
            "ambiguous message framing: empty Transfer-Encoding"
        ),
        (
            "gzip", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501,
            "unsupported Transfer-Encoding 'gzip'; only chunked is accepted"
        ),
        (
            "chunk size not hex", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400,
            "malformed chunked body: chunk size 'zz' is not hexadecimal"
        ),
        (
            "empty chunk size", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", 400,
            "malformed chunked body: chunk size '' is not hexadecimal"
        ),
        (
            "junk after chunk size", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5 x\r\n", 400,
            "malformed chunked body: chunk size '5 x' is not hexadecimal"
        ),
        (
            "chunk longer than its size", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
            400, "malformed chunked body: chunk data longer than its size"
        ),
        (
            "chunk CR without LF", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\rx", 400,
            "malformed chunked body: chunk data longer than its size"
        ),
        (
            "bad trailer", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nno colon\r\n\r\n", 400,
            "malformed chunked body: trailer: 'no colon' has no ':'"
        ),
        (
            "Expect other than 100-continue", "POST / HTTP/1.1\r\nHost: h\r\nExpect: 200-ok\r\n\r\n", 417,
            "unsupported Expect '200-ok'; only 100-continue is understood"
        ),
    ]

    @Test("malformed requests get one failure with the status and the reason", arguments: malformed.indices)
    func malformedRequest(index: Int) {
        let c = Self.malformed[index]
        let whole = events(c.text)
        #expect(whole.count == 1, "\(c.name): \(whole)")
        guard case .failure(let error) = whole.last else {
            Issue.record("\(c.name): no failure")
            return
        }
        #expect(error.status.code == c.status, "\(c.name)")
        #expect(error.description == c.reason, "\(c.name)")
        #expect(eventsByteByByte(c.text) == whole, "\(c.name): byte by byte differs")
    }

    @Test("a failed parser stays failed: the connection cannot be resynchronized")
    func staysFailed() {
        var parser = HTTPRequestParser()
        parser.append(Array("BAD\r\n".utf8))
        guard case .failure(let e) = parser.next() else {
            Issue.record("no failure")
            return
        }
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(parser.next() == .failure(e))
        #expect(parser.hasFailed)
    }

    static let small = HTTPRequestParser.Limits(
        requestLineBytes: 32, headerBytes: 64, headerCount: 3, bodyBytes: 10, chunkLineBytes: 8)

    @Test("limits: request line 414, header bytes and count 431, body 413 (declared or de-chunked), chunk line 400")
    func limits() {
        func failure(_ text: String) -> HTTPParseError? {
            let all = events(text, limits: Self.small)
            #expect(eventsByteByByte(text, limits: Self.small) == all, "split-dependent: \(text.debugDescription)")
            if case .failure(let e) = all.last { return e }
            return nil
        }
        let line32 = "GET /" + String(repeating: "a", count: 18) + " HTTP/1.1"  // exactly 32 bytes
        #expect(line32.utf8.count == 32)
        #expect(failure(line32 + "\r\nHost: h\r\n\r\n") == nil)
        #expect(
            failure("GET /" + String(repeating: "a", count: 19) + " HTTP/1.1\r\nHost: h\r\n\r\n")
                == .requestLineTooLong(limit: 32))
        // A long line that has not ended yet is refused as soon as it passes the limit.
        #expect(failure("GET /" + String(repeating: "a", count: 100)) == .requestLineTooLong(limit: 32))
        #expect(
            failure("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "v", count: 60) + "\r\n\r\n")
                == .headersTooLarge(limit: 64))
        #expect(failure("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n") == .tooManyHeaders(limit: 3))
        #expect(failure("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n") == .bodyTooLarge(limit: 10))
        #expect(
            failure("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n") == .bodyTooLarge(limit: 10))
        #expect(failure("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789") == nil)
        #expect(
            failure("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n5\r\n")
                == .bodyTooLarge(limit: 10))
        #expect(failure("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nFFFF\r\n") == .bodyTooLarge(limit: 10))
        // A size that would overflow 64 bits is refused as too large, never wrapped.
        let huge = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "F", count: 40) + "\r\n"
        #expect(events(huge) == [.failure(.bodyTooLarge(limit: HTTPRequestParser.Limits().bodyBytes))])
        #expect(
            failure("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1;abcdefgh\r\n")
                == .malformedChunk("chunk size line longer than 8 bytes"))
        #expect(
            failure(
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: " + String(repeating: "t", count: 60)
                    + "\r\n\r\n") == .headersTooLarge(limit: 64))
        #expect(HTTPParseError.bodyTooLarge(limit: 10).status == .contentTooLarge)
        #expect(HTTPParseError.requestLineTooLong(limit: 1).status.code == 414)
        #expect(HTTPParseError.tooManyHeaders(limit: 1).status.code == 431)
    }

    @Test("idle only between requests: a partial request or stray bytes are not idle (408 material)")
    func idleness() {
        var parser = HTTPRequestParser()
        #expect(parser.isIdle)
        parser.append(Array("GET / HT".utf8))
        #expect(parser.next() == nil)
        #expect(!parser.isIdle)
        parser.append(Array("TP/1.1\r\nHost: h\r\n\r\n".utf8))
        guard case .request = parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(parser.isIdle)
    }

    @Test("the target splits at the first ?, and a fragment is dropped wherever it stands")
    func targetSplit() {
        let cases: [(String, String, String?)] = [
            ("/h", "/h", nil), ("/h?", "/h", ""), ("/h?a=1?b", "/h", "a=1?b"), ("/h?a#f", "/h", "a"),
            ("/h#f?a", "/h", nil), ("/é/€?x=é", "/é/€", "x=é"), ("#", "", nil),
        ]
        for (target, path, query) in cases {
            let r = HTTPRequest(method: "GET", target: target)
            #expect(r.path == path, "\(target)")
            #expect(r.query == query, "\(target)")
        }
    }

    @Test("query decoding: + is a space, bad escapes and invalid UTF-8 are refused")
    func queryDecoding() {
        #expect(
            HTTPRequest(method: "GET", target: "/h?a=b+c&d&e=%E2%82%AC").queryItems() == [
                .init(name: "a", value: "b c"), .init(name: "d", value: ""), .init(name: "e", value: "€"),
            ])
        #expect(HTTPRequest(method: "GET", target: "/h?a=%zz").queryItems() == nil)
        #expect(HTTPRequest(method: "GET", target: "/h?a=%4").queryItems() == nil)
        #expect(HTTPRequest(method: "GET", target: "/h?a=%FF").queryItems() == nil)
        #expect(HTTPRequest(method: "GET", target: "/h").queryItems() == [])
    }

    @Test("the fuzz entry accepts hostile inputs and agrees with itself on every split")
    func fuzzEntry() {
        var seeds: [[UInt8]] = Self.malformed.map { Array($0.text.utf8) }
        seeds.append(
            Array(
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n"
                    .utf8))
        seeds.append([])
        seeds.append([0x0D, 0x0A, 0x0D])
        seeds.append([UInt8](repeating: 0x41, count: 3000))
        // A deterministic pseudo-random walk over bytes that matter to HTTP.
        let alphabet = Array(
            "GET POST / HTTP/1.1\r\n:Host Content-Length Transfer-Encoding chunked 0123456789abcdefXYZ;\t\u{0}".utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for length in stride(from: 1, through: 400, by: 7) {
            var input: [UInt8] = []
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                input.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            seeds.append(Array("POST / HTTP/1.1\r\nHost: h\r\n".utf8) + input)
            seeds.append(input)
        }
        for seed in seeds { HTTPFuzzEntry.parse(seed) }
        #expect(HTTPFuzzEntry.parse(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8)) == 2)
    }
}
