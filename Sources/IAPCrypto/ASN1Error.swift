/// Why some bytes are not the ASN.1 (or key, certificate, signature) structure a decoder wanted:
/// the byte offset where reading stopped and what should have been there. Receipts and JWS
/// certificates come from outside the process, so every decoder reports instead of trapping.
///
/// The description reads `at byte 17: expected a length byte`.
public struct ASN1Error: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Offset from the start of the input that was being decoded.
    public let offset: Int
    /// What the decoder needed at `offset`, phrased to follow "expected".
    public let expected: String

    public init(offset: Int, expected: String) {
        self.offset = offset
        self.expected = expected
    }

    public var description: String { "at byte \(offset): expected \(expected)" }
}
