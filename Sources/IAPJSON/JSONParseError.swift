/// Why a JSON text could not be parsed, with the byte offset where the parser stopped.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let offset: Int
    public let expected: String

    public init(offset: Int, expected: String) {
        self.offset = offset
        self.expected = expected
    }

    public var description: String { "invalid JSON at byte \(offset): expected \(expected)" }
}
