import IAPTime

/// The offers part of the store's working state (`StoreState.offers`): the subscription offer
/// keys, the nonces of signed offers already spent, each subscription's offer state, and the
/// offer requests of purchases still waiting.
public struct StoreOffers: Hashable, Sendable, Codable {
    /// The app's subscription offer keys, by key id.
    public var keys: [String: OfferKeyRecord] = [:]
    /// Nonces already used (lowercase UUID text), with when the signature that carried each
    /// stopped being valid: "A one-time UUID value", so each is kept for good.
    public var spentNonces: [String: Timestamp] = [:]
    /// Offer state by subscription (original transaction id).
    public var subscriptions: [TransactionID: SubscriptionOfferState] = [:]
    /// Offer requests of purchasing or deferred transactions, by transaction id.
    public var requests: [TransactionID: OfferRequest] = [:]

    public init() {}

    public var isEmpty: Bool { keys.isEmpty && spentNonces.isEmpty && subscriptions.isEmpty && requests.isEmpty }

    /// The keys in id order, for verifying and listing.
    public var orderedKeys: [OfferKeyRecord] { keys.values.sorted { $0.id < $1.id } }
}
