import IAPCrypto

/// The opaque per-account string StoreKit calls `applicationUsername`.
///
/// DYFStoreKit fills it with the lowercase hex SHA-256 of the account name; `UserID.forAccount`
/// does the same.
public struct UserID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// DYFStoreKit's `DYFStore_supplySHA256(accountName)`: lowercase hex SHA-256 of the UTF-8 name.
    public static func forAccount(_ name: String) -> UserID {
        UserID(SHA256.hexDigest(Array(name.utf8)))
    }

    public var description: String { rawValue }

    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
