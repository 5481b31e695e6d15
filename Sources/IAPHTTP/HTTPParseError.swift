/// Why `HTTPRequestParser` refused a request: the status to answer with and a reason that names
/// the offending part, for the JSON error body. After any of these the connection closes.
public enum HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request line is longer than the limit (414).
    case requestLineTooLong(limit: Int)
    /// The header section is larger than the limit (431).
    case headersTooLarge(limit: Int)
    /// More header fields than the limit (431).
    case tooManyHeaders(limit: Int)
    /// The body (declared or de-chunked so far) is larger than the limit (413).
    case bodyTooLarge(limit: Int)
    /// The request line is not `METHOD SP target SP HTTP/x.y` (400).
    case malformedRequestLine(String)
    /// A well-formed version other than HTTP/1.x (505).
    case unsupportedVersion(String)
    /// A header line that is not `name: value`, or has forbidden bytes (400).
    case malformedHeader(String)
    /// `Content-Length` that is not one non-negative decimal integer (400).
    case invalidContentLength(String)
    /// Framing that could be read two ways: `Content-Length` with `Transfer-Encoding`, a
    /// transfer coding on HTTP/1.0, `chunked` not last (400). Refusing these prevents smuggling.
    case ambiguousFraming(String)
    /// A transfer coding other than `chunked` (501, RFC 9112 section 6.1).
    case unsupportedTransferEncoding(String)
    /// A chunk size line, chunk terminator or trailer that breaks the chunked syntax (400).
    case malformedChunk(String)
    /// An HTTP/1.1 request without exactly one `Host` (400, RFC 9112 section 3.2).
    case badHost(String)
    /// An `Expect` other than `100-continue` (417).
    case unsupportedExpectation(String)

    public var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: return .uriTooLong
        case .headersTooLarge, .tooManyHeaders: return .headerFieldsTooLarge
        case .bodyTooLarge: return .contentTooLarge
        case .malformedRequestLine, .malformedHeader, .invalidContentLength, .ambiguousFraming, .malformedChunk, .badHost:
            return .badRequest
        case .unsupportedVersion: return .versionNotSupported
        case .unsupportedTransferEncoding: return .notImplemented
        case .unsupportedExpectation: return .expectationFailed
        }
    }

    public var description: String {
        switch self {
        case .requestLineTooLong(let limit): return "request line longer than \(limit) bytes; shorten the URL"
        case .headersTooLarge(let limit): return "header section larger than \(limit) bytes; send fewer or shorter headers"
        case .tooManyHeaders(let limit): return "more than \(limit) header fields; send fewer"
        case .bodyTooLarge(let limit): return "request body larger than \(limit) bytes; send a smaller body"
        case .malformedRequestLine(let why): return "malformed request line: \(why)"
        case .unsupportedVersion(let v): return "unsupported protocol version '\(v)'; use HTTP/1.1"
        case .malformedHeader(let why): return "malformed header: \(why)"
        case .invalidContentLength(let v): return "invalid Content-Length '\(v)'; give one decimal byte count"
        case .ambiguousFraming(let why): return "ambiguous message framing: \(why)"
        case .unsupportedTransferEncoding(let v): return "unsupported Transfer-Encoding '\(v)'; only chunked is accepted"
        case .malformedChunk(let why): return "malformed chunked body: \(why)"
        case .badHost(let why): return "bad Host header: \(why)"
        case .unsupportedExpectation(let v): return "unsupported Expect '\(v)'; only 100-continue is understood"
        }
    }
}
