/// A transaction identifier: unique per store, increasing, printed as a decimal string.
///
/// Numbering starts at 2000000000000001, the shape of the sandbox identifiers Apple hands out,
/// so that backends under test see realistic values.
public struct TransactionID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The first identifier a new store hands out.
    public static let first = TransactionID(2_000_000_000_000_001)

    public let rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Parses a decimal string; nil unless it is all digits and fits in 64 bits.
    public init?(parsing text: String) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = UInt64(text)
        else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }

    public var next: TransactionID { TransactionID(rawValue + 1) }

    public static func < (lhs: TransactionID, rhs: TransactionID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = TransactionID(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "bad transaction id '\(text)'"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
