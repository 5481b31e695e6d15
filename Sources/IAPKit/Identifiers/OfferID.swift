/// The identifier of a subscription offer, as App Store Connect and StoreKit spell it: a
/// promotional offer's or win-back offer's `offerId`, or an offer code's reference name (for
/// offer codes StoreKit's `Transaction.Offer.id` "contains the reference name of the offer code
/// you set up in App Store Connect"). Introductory offers have none.
public struct OfferID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static func < (lhs: OfferID, rhs: OfferID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
