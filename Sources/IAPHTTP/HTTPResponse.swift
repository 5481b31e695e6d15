import IAPJSON

/// A response: status, header fields in the order they were added, and a body.
///
/// Serialization is deterministic: no `Date` or `Server` field is added, `Content-Length` is
/// always written last among the framing fields, and the same response gives the same bytes.
/// (RFC 9110 section 6.6.1 lets a server without a trustworthy clock omit `Date`; iapctl's
/// answers come from a simulated clock, so a wall-clock date would be misleading.)
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Whether the server must close the connection after sending this response, whatever the
    /// request asked (set for responses to framing errors).
    public var closesConnection: Bool
    /// A body produced after the head while the connection stays open (server-sent events);
    /// `body` is then empty, and the connection closes when the stream ends.
    public var stream: HTTPStreamBody?

    public init(
        status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], closesConnection: Bool = false,
        stream: HTTPStreamBody? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closesConnection = closesConnection || stream != nil
        self.stream = stream
    }

    /// A JSON response built with the ordered writer.
    public static func json(_ status: HTTPStatus = .ok, _ build: (inout JSONWriter) -> Void) -> HTTPResponse {
        var w = JSONWriter(capacity: 512)
        build(&w)
        return HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: w.bytes)
    }

    /// An error in the App Store Server API's shape: `{"errorCode": 4040010, "errorMessage": "..."}`.
    public static func error(_ status: HTTPStatus, code: Int, message: String) -> HTTPResponse {
        json(status) { w in
            w.beginObject()
            w.key("errorCode")
            w.int(code)
            w.key("errorMessage")
            w.string(message)
            w.endObject()
        }
    }

    /// An HTTP-level error (bad framing, unknown path, wrong method). Its `errorCode` follows the
    /// App Store Server API's numbering, status times 10000: 4000000 is Apple's
    /// GeneralBadRequestError, 5000000 its GeneralInternalError, and the others extend the pattern.
    public static func error(_ status: HTTPStatus, message: String) -> HTTPResponse {
        error(status, code: status.code * 10_000, message: message)
    }

    /// The response for a request the parser refused; the connection closes after it, since the
    /// stream can no longer be trusted to be framed.
    public static func parseFailure(_ failure: HTTPParseError) -> HTTPResponse {
        var r = error(failure.status, message: failure.description)
        r.closesConnection = true
        return r
    }

    /// The bytes on the wire.
    ///
    /// - Parameters:
    ///   - headOnly: answering a HEAD request: the same fields, no body (RFC 9110 section 9.3.2).
    ///   - keepAlive: whether the connection stays open; false adds `Connection: close`.
    ///   - version: the request's version; an HTTP/1.0 client that asked for keep-alive gets
    ///     `Connection: keep-alive` back, since persistence is not its default.
    public func serialized(headOnly: Bool = false, keepAlive: Bool = true, version: HTTPVersion = .http1_1) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + body.count)
        out.append(contentsOf: "HTTP/1.1 \(status.code) \(status.reason)\r\n".utf8)
        for field in headers where !HTTPHeaders.same(field.name, "Content-Length") && !HTTPHeaders.same(field.name, "Connection")
        {
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: [0x3A, 0x20])
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: [0x0D, 0x0A])
        }
        if !keepAlive || closesConnection {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if !version.persistsByDefault {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        // A streamed body has no length: it ends when the connection closes.
        if status.code >= 200 && status.code != 204 && status.code != 304 && stream == nil {
            out.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8)
        }
        out.append(contentsOf: [0x0D, 0x0A])
        if !headOnly && status.code >= 200 { out.append(contentsOf: body) }
        return out
    }
}
