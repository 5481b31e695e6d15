/// Why text is not the PEM a decoder wanted: the byte offset in the text and what was expected
/// there. The description reads `at byte 120: expected a '-----END CERTIFICATE-----' line`.
public struct PEMError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let offset: Int
    public let expected: String

    public init(offset: Int, expected: String) {
        self.offset = offset
        self.expected = expected
    }

    public var description: String { "at byte \(offset): expected \(expected)" }
}
