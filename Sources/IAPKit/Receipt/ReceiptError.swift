import IAPCrypto

/// Why bytes are not an App Store receipt: the byte offset in the receipt (base64-decoded, as
/// `receipt --der` writes it) where reading stopped, and what should have been there.
public struct ReceiptError: Error, Equatable, Sendable, CustomStringConvertible {
    public let offset: Int
    public let expected: String

    public init(offset: Int, expected: String) {
        self.offset = offset
        self.expected = expected
    }

    init(_ error: ASN1Error, shiftedBy base: Int = 0) {
        self.init(offset: base + error.offset, expected: error.expected)
    }

    public var description: String { "at byte \(offset): expected \(expected)" }

    /// The one-line message the CLI prints for a receipt read from `source` (exit 65).
    public func storeError(source: String) -> StoreError {
        .badInput(.receipt(source: source, reason: "\(self)"))
    }
}
