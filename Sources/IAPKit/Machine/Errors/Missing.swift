/// Something named does not exist (`StoreError.missing`, exit 3): what was asked for and where
/// to find what exists. `description` is the line the CLI prints after `error: `.
public enum Missing: Hashable, Sendable, CustomStringConvertible {
    // MARK: - Apple-hosted downloads

    /// A transaction (of `product`, in `state`) without downloads.
    case noDownloads(TransactionID, ProductID, state: String)
    /// `--content` naming no download of the transaction; `known` lists its downloads.
    case noSuchDownload(String, of: TransactionID, known: [String])

    // MARK: - Subscriptions

    /// No subscription in the group of `product`.
    case noSubscriptionInGroup(String, product: ProductID)
    /// No subscription with this original transaction id.
    case noSubscription(TransactionID)

    // MARK: - Offer keys, the App Store Server API

    /// `offer-key remove` of a key the store lacks; `known` lists its keys.
    case noOfferKey(String, known: [String])
    /// An original transaction id the store lacks.
    case noOriginalTransaction(TransactionID)
    /// A renewal date extension for an original id with no subscription.
    case noSubscriptionToExtend(TransactionID)

    // MARK: - Signed renewal information

    /// A member's shared transaction whose purchaser subscription is gone.
    case sharedSubscription(member: String, TransactionID)
    /// Renewal information for an original id with no subscription.
    case noSubscriptionForRenewal(TransactionID)

    // MARK: - Family members, non-renewing subscriptions

    /// `jws --member` for a transaction the member has no share of.
    case noSharedTransaction(member: String, TransactionID)
    /// `subscriptions --member` naming a subscription the member does not share.
    case noSharedSubscription(member: String, String)
    /// `subscriptions` naming a non-renewing subscription never bought.
    case noNonRenewingPurchase(ProductID)

    public var description: String {
        switch self {
        case .noSharedTransaction(let member, let id):
            return "\(member) has no FAMILY_SHARED transaction for \(id) (see 'iapctl queue --member \(member)')"
        case .noSharedSubscription(let member, let word):
            return "\(member) has no shared subscription '\(word)' (see 'iapctl subscriptions --member \(member)')"
        case .noNonRenewingPurchase(let id):
            return "no purchase of the non-renewing subscription '\(id)' (buy it with 'iapctl buy \(id)')"
        case .sharedSubscription(let member, let id):
            return "the account has no subscription that \(member)'s transaction \(id) shares (see 'iapctl subscriptions')"
        case .noSubscriptionForRenewal(let id):
            return "no auto-renewable subscription has original transaction id \(id) (see 'iapctl subscriptions')"
        case .noOfferKey(let id, let known):
            return
                "no subscription offer key '\(id)'; \(known.isEmpty ? "the store has none" : "known: \(known.joined(separator: ", "))") (see 'iapctl offer-key list')"
        case .noOriginalTransaction(let id):
            return "no original transaction \(id) in this store (see 'iapctl dump')"
        case .noSubscriptionToExtend(let id):
            return "no auto-renewable subscription has original transaction id \(id)"
        case .noDownloads(let id, let product, let state):
            return
                "transaction \(id) (\(product), \(state)) has no downloads; only purchased or restored products with hosted content have them"
        case .noSubscriptionInGroup(let group, let product):
            return "no subscription in group '\(group)' of '\(product)'; buy one first ('iapctl buy \(product)')"
        case .noSubscription(let id):
            return "no subscription has original transaction id \(id) (list them with 'iapctl subscriptions', no id)"
        case .noSuchDownload(let content, let id, let known):
            return "transaction \(id) has no download '\(content)'; its downloads: \(known.joined(separator: ", "))"
        }
    }
}
