/// Subscription offers: what the account may redeem.
extension Machine {
    /// StoreKit's `isEligibleForIntroOffer` for a subscription group: whether a purchase in the
    /// group would start with its product's introductory offer. "You can make introductory offers
    /// to customers who haven't previously received an introductory offer for the given product,
    /// or for any products in the same subscription group" (StoreKit, "Implementing introductory
    /// offers in your app"); the store is one App Store account, so one introductory offer per
    /// group per store. A group the account has never subscribed to is eligible.
    public func isEligibleForIntroOffer(group: String) -> Bool {
        state.subscriptionGroups[group] == nil
    }

    /// `isEligibleForIntroOffer` for a product: nil for a product that is not an auto-renewable
    /// subscription.
    public func isEligibleForIntroOffer(_ product: Product) -> Bool? {
        guard product.type == .autoRenewable else { return nil }
        return isEligibleForIntroOffer(group: product.subscriptionGroup ?? product.id.rawValue)
    }
}
