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

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The hash the standard library's `Dictionary` and `Set` bucket by, as `Int` and the other
    /// fixed-width integers compute theirs: one mix of the value with the table's seed
    /// (SplitMix64's finalizer) instead of a full SipHash round through `Hasher`. Transaction ids
    /// key the machine's hottest tables (subscriptions, offers, the effects' positions); a clock
    /// advance looks one up about ten times per renewal, and `Hasher` was a quarter of its cost.
    /// The ids are the store's own, handed out in sequence, never chosen by a client, so the
    /// table needs no defence against chosen collisions. Iteration order stays seeded, as before.
    public func _rawHashValue(seed: Int) -> Int {
        var x = rawValue ^ UInt64(truncatingIfNeeded: seed)
        x = (x ^ (x &>> 30)) &* 0xbf58_476d_1ce4_e5b9
        x = (x ^ (x &>> 27)) &* 0x94d0_49bb_1331_11eb
        return Int(truncatingIfNeeded: x ^ (x &>> 31))
    }

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
