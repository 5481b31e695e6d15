/// One parsed HTTP/1.x request: what `HTTPRequestParser` produces and a `Router` dispatches.
public struct HTTPRequest: Sendable, Equatable {
    /// The method token, case-sensitive (`GET`, `POST`).
    public var method: String
    /// The request-target as sent (`/inApps/v1/transactions/1?x=1`, or an absolute URI).
    public var target: String
    /// The path part of the target, still percent-encoded; always starts with `/` (or is `*`).
    public var path: String
    /// The query part of the target without the `?`, still encoded; nil when there is none.
    public var query: String?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// The body, de-chunked when it came with `Transfer-Encoding: chunked`.
    public var body: [UInt8]
    /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection:
    /// close`, HTTP/1.0 only with `Connection: keep-alive` (RFC 9112 section 9.3).
    public var keepAlive: Bool

    public init(
        method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], keepAlive: Bool = true
    ) {
        self.method = method
        self.target = target
        let (path, query) = HTTPRequest.split(target)
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.keepAlive = keepAlive
    }

    /// Splits an origin-form target at the first `?`; a `#fragment` (never sent by clients, but
    /// harmless) is dropped.
    static func split(_ target: String) -> (path: String, query: String?) {
        // By bytes: `#` and `?` are ASCII, so their indices bound valid substrings, and a byte
        // search skips the grapheme breaking a `Character` search does (for every request).
        let utf8 = target.utf8
        let end = utf8.firstIndex(of: 0x23) ?? utf8.endIndex
        guard let q = utf8[..<end].firstIndex(of: 0x3F) else { return (String(target[..<end]), nil) }
        return (String(target[..<q]), String(target[utf8.index(after: q)..<end]))
    }

    /// One `name=value` pair of the query, decoded.
    public struct QueryItem: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The query's `name=value` pairs in order, percent-decoded (`+` is a space, as in HTML
    /// forms); nil when an escape is malformed or decodes to invalid UTF-8.
    public func queryItems() -> [QueryItem]? {
        guard let query, !query.isEmpty else { return [] }
        var items: [QueryItem] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(parts[0], plusIsSpace: true),
                let value = PercentDecoding.decode(parts.count > 1 ? parts[1] : "", plusIsSpace: true)
            else { return nil }
            items.append(QueryItem(name: name, value: value))
        }
        return items
    }
}

/// `%XX` decoding of URI components (RFC 3986 section 2.1).
public enum PercentDecoding {
    /// The decoded text, or nil for a malformed escape or invalid UTF-8.
    public static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        guard text.utf8.contains(0x25) || (plusIsSpace && text.utf8.contains(0x2B)) else { return String(text) }
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var i = 0
        while i < utf8.count {
            let b = utf8[i]
            if b == 0x25 {
                guard i + 2 < utf8.count, let h = hex(utf8[i + 1]), let l = hex(utf8[i + 2]) else { return nil }
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(plusIsSpace && b == 0x2B ? 0x20 : b)
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }
}
