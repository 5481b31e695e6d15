/// The protocol version of a request line: HTTP/1.0 or HTTP/1.1 (a higher 1.x minor version is
/// served as 1.1, as RFC 9112 section 2.3 asks).
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    public var description: String { "HTTP/\(major).\(minor)" }

    /// Whether connections persist unless a `Connection: close` says otherwise (1.1 and later).
    public var persistsByDefault: Bool { major > 1 || (major == 1 && minor >= 1) }
}
