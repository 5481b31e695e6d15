/// Dispatches requests by method and path pattern: `/inApps/v1/transactions/{transactionId}`.
///
/// A pattern is a sequence of `/`-separated segments; a literal segment must match exactly and a
/// `{name}` segment captures one non-empty segment, percent-decoded. A path that no pattern
/// matches gets 404; a path that matches under other methods only gets 405 with `Allow` listing
/// them (RFC 9110 section 15.5.6). Every GET route also answers HEAD.
public struct Router: Sendable {
    public typealias Handler = @Sendable (HTTPRequest, PathParameters) -> HTTPResponse

    private struct Route: Sendable {
        let method: String
        let pattern: String
        let segments: [Segment]
        let handler: Handler
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// What a request resolves to.
    public enum Match {
        case found(Handler, PathParameters)
        case methodNotAllowed(allow: [String])
        case notFound
        /// The path has a malformed percent escape.
        case badPath
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds a route. Patterns start with `/`; `{name}` segments capture.
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        precondition(pattern.hasPrefix("/"), "route patterns start with '/': \(pattern)")
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { s -> Segment in
            if s.hasPrefix("{") && s.hasSuffix("}") && s.count > 2 { return .parameter(String(s.dropFirst().dropLast())) }
            return .literal(String(s))
        }
        routes.append(Route(method: method, pattern: pattern, segments: Array(segments), handler: handler))
    }

    /// The patterns registered, with their methods, in order (for documentation and tests).
    public var table: [(method: String, pattern: String)] { routes.map { ($0.method, $0.pattern) } }

    /// Resolves a method and a raw (still percent-encoded) path.
    public func match(method: String, path: String) -> Match {
        guard path.hasPrefix("/") else { return .notFound }
        var decoded: [String] = []
        // Split on the bytes: `/` is ASCII, so each piece's bounds are valid `String` indices, and
        // a byte split skips the grapheme breaking a `Character` split does for every request.
        for raw in path.utf8.split(separator: 0x2F, omittingEmptySubsequences: false).dropFirst() {
            guard let d = PercentDecoding.decode(path[raw.startIndex..<raw.endIndex]) else { return .badPath }
            decoded.append(d)
        }
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Router.bind(route.segments, to: decoded) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .found(route.handler, parameters)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
            if route.method == "GET" && !allowed.contains("HEAD") { allowed.append("HEAD") }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allow: allowed)
    }

    /// Answers a request: the handler's response, or the JSON 400, 404 or 405.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        switch match(method: request.method, path: request.path) {
        case .found(let handler, let parameters):
            return handler(request, parameters)
        case .methodNotAllowed(let allow):
            var response = HTTPResponse.error(
                .methodNotAllowed,
                message: "method \(request.method) is not allowed on \(request.path); use \(allow.joined(separator: " or "))")
            response.headers.add("Allow", allow.joined(separator: ", "))
            return response
        case .notFound:
            return .error(
                .notFound,
                message: "no resource at \(HTTPRequestParser.printable(request.path)) (see docs/serve.md for the endpoints)")
        case .badPath:
            return .error(.badRequest, message: "malformed percent escape in path '\(HTTPRequestParser.printable(request.path))'")
        }
    }

    private static func bind(_ segments: [Segment], to path: [String]) -> PathParameters? {
        guard segments.count == path.count else { return nil }
        var values: [(String, String)] = []
        for (segment, value) in zip(segments, path) {
            switch segment {
            case .literal(let text): guard text == value else { return nil }
            case .parameter(let name):
                guard !value.isEmpty else { return nil }
                values.append((name, value))
            }
        }
        return PathParameters(values)
    }
}

/// The values a route pattern captured, by name.
public struct PathParameters: Sendable, Equatable {
    private let values: [String: String]

    public init(_ pairs: [(String, String)] = []) {
        values = Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }

    public subscript(name: String) -> String? { values[name] }
}
