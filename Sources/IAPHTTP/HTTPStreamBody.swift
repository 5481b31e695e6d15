/// A response body that is produced while the connection stays open, such as a stream of
/// server-sent events (`text/event-stream`, WHATWG HTML section 9.2).
///
/// The server sends the response head without `Content-Length` and with `Connection: close`
/// (the body ends when the connection does, RFC 9112 section 6.3 rule 8), then calls `produce`
/// on the connection's own thread with a writer; the connection closes when `produce` returns.
/// `produce` must return once the writer reports the client gone or the server stopping.
public final class HTTPStreamBody: Sendable, Equatable {
    public let produce: @Sendable (any HTTPStreamWriter) -> Void

    public init(produce: @escaping @Sendable (any HTTPStreamWriter) -> Void) {
        self.produce = produce
    }

    /// Two stream bodies are the same only if they are one object: a closure has no value.
    public static func == (a: HTTPStreamBody, b: HTTPStreamBody) -> Bool { a === b }
}

/// What a streaming body writes to: the connection, as the server sees it.
public protocol HTTPStreamWriter {
    /// Sends `bytes` now; false once the client has gone (the body should end).
    func write(_ bytes: [UInt8]) -> Bool

    /// Waits until one of `descriptors` is readable, `timeout` seconds pass, the client closes
    /// its side, or the server begins to stop; says which came first.
    func wait(readable descriptors: [Int32], timeout: Double) -> HTTPStreamWake
}

/// Why `HTTPStreamWriter.wait` returned.
public enum HTTPStreamWake: Sendable, Equatable {
    /// One of the descriptors is readable.
    case readable
    case timedOut
    /// The client closed the connection (or sent something a stream does not expect).
    case clientGone
    /// The server is stopping: end the body.
    case stopping
}
