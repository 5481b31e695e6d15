/// An incremental HTTP/1.1 request parser (RFC 9112): bytes in, requests out, no I/O.
///
/// Feed whatever arrived with `append(_:)`, then call `next()` until it returns nil (more bytes
/// needed). Several requests in one buffer (pipelining) come out one per call, in order. Bodies
/// are framed by `Content-Length` or `Transfer-Encoding: chunked`; anything that could be framed
/// two ways is refused, so a request can never be smuggled past the parser. Every limit is
/// checked before the bytes it guards are buffered in full, and no input makes it trap: a
/// malformed request gives one `.failure` with the status to answer (400, 413, 414, 417, 431,
/// 501, 505) and a reason, after which the parser stays failed and the connection must close.
///
/// Like swift-nio's protocol state machines, the parser is a struct whose private state enum
/// carries each phase's data, and one mutating function per input returns what to do.
public struct HTTPRequestParser: Sendable {
    /// What the parser accepts. The defaults fit the App Store Server API and `verifyReceipt`
    /// bodies (a receipt is a few KiB of base64) with a wide margin.
    public struct Limits: Sendable, Equatable {
        /// The request line, without its line ending (414 beyond it).
        public var requestLineBytes: Int
        /// All header lines together, line endings included, plus chunked trailers (431).
        public var headerBytes: Int
        /// Header fields, trailers included (431).
        public var headerCount: Int
        /// The body, after de-chunking (413).
        public var bodyBytes: Int
        /// One chunk-size line, extensions included (400).
        public var chunkLineBytes: Int

        public init(
            requestLineBytes: Int = 8192, headerBytes: Int = 32 << 10, headerCount: Int = 100, bodyBytes: Int = 1 << 20,
            chunkLineBytes: Int = 1024
        ) {
            self.requestLineBytes = requestLineBytes
            self.headerBytes = headerBytes
            self.headerCount = headerCount
            self.bodyBytes = bodyBytes
            self.chunkLineBytes = chunkLineBytes
        }
    }

    /// What `next()` found.
    public enum Event: Equatable, Sendable {
        /// A complete request.
        case request(HTTPRequest)
        /// The head of a request with `Expect: 100-continue` is in and its body is not: the
        /// client waits for `100 Continue` before sending it (RFC 9110 section 10.1.1).
        case expectContinue
        /// The request is malformed or over a limit; answer `failure.status` and close.
        case failure(HTTPParseError)
    }

    /// A request whose head is parsed and whose body is being read.
    private struct Pending: Sendable {
        var request: HTTPRequest
        var headerBytes: Int
        var headerCount: Int
        var wantsContinue: Bool
    }

    private enum State: Sendable {
        /// Waiting for a request line; `skipped` counts the empty lines' bytes before it.
        case requestLine(skipped: Int)
        case headers(Pending)
        case fixedBody(Pending, length: Int)
        case chunkSize(Pending)
        case chunkData(Pending, remaining: Int)
        case chunkEnd(Pending)
        case trailers(Pending)
        case failed(HTTPParseError)
    }

    public let limits: Limits
    private var state: State = .requestLine(skipped: 0)
    private var buffer: [UInt8] = []
    /// The first unconsumed byte of `buffer`.
    private var start = 0
    /// Where the search for the next line feed resumes, so a line arriving a byte at a time is
    /// scanned once, not once per byte.
    private var scan = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Adds received bytes.
    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scan = 0
        } else if start >= 64 << 10 && start * 2 >= buffer.count {
            buffer.removeFirst(start)
            scan -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// True between requests with nothing of a next one received: a connection in this state
    /// may be closed without an answer; in any other it holds a partial request (408 on timeout).
    public var isIdle: Bool {
        if case .requestLine(let skipped) = state { return skipped == 0 && start == buffer.count }
        return false
    }

    /// Whether the parser has refused the stream.
    public var hasFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    /// The next complete request, interim `expectContinue`, or failure; nil when more bytes
    /// are needed.
    public mutating func next() -> Event? {
        while true {
            switch state {
            case .failed(let error):
                return .failure(error)
            case .requestLine(let skipped):
                switch takeLine(limit: limits.requestLineBytes - skipped) {
                case .needMore: return nil
                case .tooLong: return fail(.requestLineTooLong(limit: limits.requestLineBytes))
                case .line(let range):
                    // RFC 9112 section 2.2: ignore empty lines before a request line.
                    if range.isEmpty {
                        state = .requestLine(skipped: skipped + 2)
                        continue
                    }
                    switch HTTPRequestParser.parseRequestLine(buffer[range]) {
                    case .failure(let error): return fail(error)
                    case .success(let request):
                        state = .headers(Pending(request: request, headerBytes: 0, headerCount: 0, wantsContinue: false))
                    }
                }
            case .headers(var pending):
                switch takeLine(limit: limits.headerBytes - pending.headerBytes) {
                case .needMore: return nil
                case .tooLong: return fail(.headersTooLarge(limit: limits.headerBytes))
                case .line(let range):
                    pending.headerBytes += range.count + 2
                    if range.isEmpty {
                        if let event = finishHead(pending) { return event }
                        continue
                    }
                    guard pending.headerCount < limits.headerCount else {
                        return fail(.tooManyHeaders(limit: limits.headerCount))
                    }
                    switch HTTPRequestParser.parseField(buffer[range]) {
                    case .failure(let error): return fail(error)
                    case .success(let field):
                        pending.request.headers.add(field.name, field.value)
                        pending.headerCount += 1
                        state = .headers(pending)
                    }
                }
            case .fixedBody(var pending, let length):
                guard buffer.count - start >= length else { return interim(&pending) { .fixedBody($0, length: length) } }
                pending.request.body = Array(buffer[start..<start + length])
                consume(length)
                return complete(pending)
            case .chunkSize(var pending):
                switch takeLine(limit: limits.chunkLineBytes) {
                case .needMore: return interim(&pending) { .chunkSize($0) }
                case .tooLong: return fail(.malformedChunk("chunk size line longer than \(limits.chunkLineBytes) bytes"))
                case .line(let range):
                    switch HTTPRequestParser.parseChunkSize(buffer[range], room: limits.bodyBytes - pending.request.body.count) {
                    case .failure(let error):
                        if case .bodyTooLarge = error { return fail(.bodyTooLarge(limit: limits.bodyBytes)) }
                        return fail(error)
                    case .success(0): state = .trailers(pending)
                    case .success(let size): state = .chunkData(pending, remaining: size)
                    }
                }
            case .chunkData(var pending, let remaining):
                let available = min(buffer.count - start, remaining)
                if available == 0 { return interim(&pending) { .chunkData($0, remaining: remaining) } }
                pending.request.body.append(contentsOf: buffer[start..<start + available])
                consume(available)
                state = remaining == available ? .chunkEnd(pending) : .chunkData(pending, remaining: remaining - available)
            case .chunkEnd(var pending):
                guard start < buffer.count else { return interim(&pending) { .chunkEnd($0) } }
                if buffer[start] == 0x0A {
                    consume(1)
                } else if buffer[start] == 0x0D {
                    guard start + 1 < buffer.count else { return interim(&pending) { .chunkEnd($0) } }
                    guard buffer[start + 1] == 0x0A else { return fail(.malformedChunk("chunk data longer than its size")) }
                    consume(2)
                } else {
                    return fail(.malformedChunk("chunk data longer than its size"))
                }
                state = .chunkSize(pending)
            case .trailers(var pending):
                switch takeLine(limit: limits.headerBytes - pending.headerBytes) {
                case .needMore: return interim(&pending) { .trailers($0) }
                case .tooLong: return fail(.headersTooLarge(limit: limits.headerBytes))
                case .line(let range):
                    pending.headerBytes += range.count + 2
                    if range.isEmpty { return complete(pending) }
                    guard pending.headerCount < limits.headerCount else {
                        return fail(.tooManyHeaders(limit: limits.headerCount))
                    }
                    // Trailer fields are checked like header fields and then dropped: nothing
                    // iapctl serves reads them, and RFC 9110 section 6.5.1 forbids merging them
                    // blindly into the header section.
                    if case .failure(let error) = HTTPRequestParser.parseField(buffer[range]) {
                        if case .malformedHeader(let why) = error { return fail(.malformedChunk("trailer: \(why)")) }
                        return fail(error)
                    }
                    pending.headerCount += 1
                    state = .trailers(pending)
                }
            }
        }
    }

    // MARK: - Steps

    private mutating func fail(_ error: HTTPParseError) -> Event {
        state = .failed(error)
        return .failure(error)
    }

    private mutating func complete(_ pending: Pending) -> Event {
        state = .requestLine(skipped: 0)
        return .request(pending.request)
    }

    /// Waiting for body bytes: asks for `100 Continue` once if the client expects it.
    private mutating func interim(_ pending: inout Pending, _ make: (Pending) -> State) -> Event? {
        if pending.wantsContinue {
            pending.wantsContinue = false
            state = make(pending)
            return .expectContinue
        }
        state = make(pending)
        return nil
    }

    private mutating func consume(_ count: Int) {
        start += count
        if scan < start { scan = start }
    }

    private enum Line {
        case line(Range<Int>)
        case needMore
        case tooLong
    }

    /// The next line without its CRLF (a bare LF is accepted too, as RFC 9112 section 2.2
    /// allows), consumed; `tooLong` when more than `limit` bytes arrived without a line end.
    private mutating func takeLine(limit: Int) -> Line {
        var i = max(scan, start)
        while i < buffer.count && buffer[i] != 0x0A { i += 1 }
        guard i < buffer.count else {
            scan = buffer.count
            // One byte more than the limit may be the CR of a line that fits.
            return buffer.count - start > max(limit, 0) + 1 ? .tooLong : .needMore
        }
        var end = i
        if end > start && buffer[end - 1] == 0x0D { end -= 1 }
        guard end - start <= max(limit, 0) else { return .tooLong }
        let range = start..<end
        start = i + 1
        scan = start
        return .line(range)
    }

    /// Applies the rules that need the whole head: Host, framing, Expect, persistence.
    private mutating func finishHead(_ head: Pending) -> Event? {
        var pending = head
        let request = pending.request
        let headers = request.headers
        let hosts = headers.values("Host")
        if request.version.persistsByDefault && hosts.isEmpty {
            return fail(.badHost("missing; an HTTP/1.1 request must name its host"))
        }
        if hosts.count > 1 { return fail(.badHost("\(hosts.count) Host fields; send exactly one")) }
        if let host = hosts.first, host.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x2C || $0 == 0x2F }) {
            return fail(.badHost("'\(HTTPRequestParser.printable(host))' is not host[:port]"))
        }

        let codings = headers.listElements("Transfer-Encoding").map { $0.lowercased() }
        let hasTransferEncoding = headers.contains("Transfer-Encoding")
        let hasContentLength = headers.contains("Content-Length")
        var chunked = false
        var length = 0
        if hasTransferEncoding {
            if !request.version.persistsByDefault {
                return fail(.ambiguousFraming("Transfer-Encoding on an HTTP/1.0 request"))
            }
            if hasContentLength { return fail(.ambiguousFraming("both Content-Length and Transfer-Encoding")) }
            if let other = codings.first(where: { $0 != "chunked" }) { return fail(.unsupportedTransferEncoding(other)) }
            guard codings.count == 1 else {
                return fail(.ambiguousFraming(codings.isEmpty ? "empty Transfer-Encoding" : "chunked applied more than once"))
            }
            chunked = true
        } else if hasContentLength {
            let values = headers.values("Content-Length")
            var found: Int?
            for value in values {
                let parts = value.split(separator: ",", omittingEmptySubsequences: false).map { HTTPHeaders.trimmed($0) }
                for part in parts {
                    guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                        return fail(.invalidContentLength(HTTPRequestParser.printable(value)))
                    }
                    // More than 18 digits cannot be a body under any limit.
                    guard part.utf8.count <= 18, let n = Int(part) else { return fail(.bodyTooLarge(limit: limits.bodyBytes)) }
                    if let f = found, f != n {
                        return fail(.invalidContentLength(values.joined(separator: ", ")))
                    }
                    found = n
                }
            }
            length = found ?? 0
            if length > limits.bodyBytes { return fail(.bodyTooLarge(limit: limits.bodyBytes)) }
        }

        if request.version.persistsByDefault, let expect = headers["Expect"] {
            guard HTTPHeaders.same(HTTPHeaders.trimmed(Substring(expect)), "100-continue") else {
                return fail(.unsupportedExpectation(HTTPRequestParser.printable(expect)))
            }
            pending.wantsContinue = chunked || length > 0
        }

        let connection = headers.listElements("Connection").map { $0.lowercased() }
        if connection.contains("close") {
            pending.request.keepAlive = false
        } else {
            pending.request.keepAlive = request.version.persistsByDefault || connection.contains("keep-alive")
        }

        if chunked {
            state = .chunkSize(pending)
        } else if length > 0 {
            state = .fixedBody(pending, length: length)
        } else {
            return complete(pending)
        }
        return nil
    }

    // MARK: - Syntax

    /// `tchar` of RFC 9110 section 5.6.2: the characters of methods and field names.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// `method SP request-target SP HTTP-version`, exactly (RFC 9112 section 3).
    static func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<HTTPRequest, HTTPParseError> {
        // The two spaces, found without building a list (this runs for every request).
        var spaces: (Int, Int) = (-1, -1)
        var count = 0
        for i in line.indices where line[i] == 0x20 {
            if count == 0 { spaces.0 = i } else if count == 1 { spaces.1 = i }
            count += 1
        }
        guard count == 2 else {
            return .failure(.malformedRequestLine("expected 'METHOD /path HTTP/1.1', got '\(printable(line))'"))
        }
        let method = line[line.startIndex..<spaces.0]
        let target = line[spaces.0 + 1..<spaces.1]
        let version = line[spaces.1 + 1..<line.endIndex]
        guard !method.isEmpty, method.allSatisfy(isTokenByte) else {
            return .failure(.malformedRequestLine("method '\(printable(method))' is not a token"))
        }
        guard !target.isEmpty, target.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            return .failure(.malformedRequestLine("request target '\(printable(target))' has a space or control byte"))
        }
        let v = Array(version)
        func digit(_ b: UInt8) -> Int? { b >= 0x30 && b <= 0x39 ? Int(b - 0x30) : nil }
        guard v.count == 8, v[0..<5].elementsEqual("HTTP/".utf8), v[6] == UInt8(ascii: "."),
            let major = digit(v[5]), let minor = digit(v[7])
        else {
            return .failure(.malformedRequestLine("version '\(printable(version))' is not HTTP/1.1"))
        }
        guard major == 1 else { return .failure(.unsupportedVersion(printable(version))) }
        let methodText = String(decoding: method, as: UTF8.self)
        let targetText = String(decoding: target, as: UTF8.self)
        var request = HTTPRequest(method: methodText, target: targetText, version: HTTPVersion(major: 1, minor: min(minor, 1)))
        if target.first == UInt8(ascii: "/") {
            return .success(request)
        }
        if targetText == "*" {
            guard methodText == "OPTIONS" else {
                return .failure(.malformedRequestLine("'*' is a target for OPTIONS only"))
            }
            request.path = "*"
            request.query = nil
            return .success(request)
        }
        // Absolute form (RFC 9112 section 3.2.2), as proxies send it: keep the path and query.
        let lower = targetText.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            let rest = targetText.dropFirst(scheme.count)
            guard let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else {
                request.path = "/"
                request.query = nil
                return .success(request)
            }
            guard authorityEnd > rest.startIndex else {
                return .failure(.malformedRequestLine("absolute target '\(printable(target))' has no host"))
            }
            let (path, query) = HTTPRequest.split(String(rest[authorityEnd...]))
            request.path = path.isEmpty ? "/" : path
            request.query = query
            return .success(request)
        }
        return .failure(.malformedRequestLine("request target '\(printable(target))' must start with '/'"))
    }

    /// `field-name ":" OWS field-value OWS` (RFC 9112 section 5).
    static func parseField(_ line: ArraySlice<UInt8>) -> Result<HTTPHeaders.Field, HTTPParseError> {
        guard let first = line.first else { return .failure(.malformedHeader("empty line")) }
        if first == 0x20 || first == 0x09 {
            return .failure(.malformedHeader("obsolete line folding in '\(printable(line))'; put each field on one line"))
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            return .failure(.malformedHeader("'\(printable(line))' has no ':'"))
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty else { return .failure(.malformedHeader("'\(printable(line))' has an empty field name")) }
        if let last = name.last, last == 0x20 || last == 0x09 {
            return .failure(.malformedHeader("whitespace before ':' in field '\(printable(name))'"))
        }
        guard name.allSatisfy(isTokenByte) else {
            return .failure(.malformedHeader("field name '\(printable(name))' is not a token"))
        }
        var value = line[(colon + 1)...]
        while let f = value.first, f == 0x20 || f == 0x09 { value = value.dropFirst() }
        while let l = value.last, l == 0x20 || l == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .failure(.malformedHeader("control character in the value of '\(printable(name))'"))
        }
        return .success(
            HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
    }

    /// `chunk-size [ chunk-ext ]` (RFC 9112 section 7.1): the size, or `.bodyTooLarge` when it
    /// exceeds `room` (the body bytes still allowed), detected before any overflow.
    static func parseChunkSize(_ line: ArraySlice<UInt8>, room: Int) -> Result<Int, HTTPParseError> {
        var size = 0
        var i = line.startIndex
        while i < line.endIndex, let d = PercentDecoding.hex(line[i]) {
            size = size * 16 + Int(d)
            if size > room { return .failure(.bodyTooLarge(limit: 0)) }
            i += 1
        }
        guard i > line.startIndex else {
            return .failure(.malformedChunk("chunk size '\(printable(line))' is not hexadecimal"))
        }
        var rest = line[i...]
        while let f = rest.first, f == 0x20 || f == 0x09 { rest = rest.dropFirst() }
        if let f = rest.first {
            // Chunk extensions are allowed and ignored; they must still be visible text.
            guard f == UInt8(ascii: ";"), rest.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                return .failure(.malformedChunk("chunk size '\(printable(line))' is not hexadecimal"))
            }
        }
        return .success(size)
    }

    /// Up to 60 bytes of `bytes` for a message, with control and non-ASCII bytes as `\xNN`.
    static func printable<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out = ""
        for (n, b) in bytes.enumerated() {
            if n == 60 {
                out += "..."
                break
            }
            if b >= 0x20 && b < 0x7F && b != 0x27 && b != 0x5C {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                let hex = Array("0123456789abcdef".unicodeScalars)
                out += "\\x"
                out.unicodeScalars.append(hex[Int(b >> 4)])
                out.unicodeScalars.append(hex[Int(b & 0xF)])
            }
        }
        return out
    }

    package static func printable(_ text: String) -> String { printable(Array(text.utf8)) }
}
