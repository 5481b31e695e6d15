import IAPTime

/// Which win-back offers a lapsed subscriber may redeem (`eligibleWinBackOfferIds`), under App
/// Store Connect's rules or Xcode's per-offer toggle (see `WinBackOffer.Eligibility`).
///
/// "A win-back offer is a free or discounted offer for an auto-renewable subscription for eligible
/// customers whose subscription is churned. A churned subscription is one that has an
/// expirationDate in the past, and a willAutoRenew value of false" (StoreKit, "Supporting
/// win-back offers in your app"); "Subscriptions in a Billing Grace Period or billing retry state
/// aren't eligible" (App Store Server API, eligibleWinBackOfferIds). The rules (WWDC24
/// "Implement App Store Offers"): paid subscription duration, at least N months, counting "only
/// the most recent consecutive months of paid service" in the group; time since last subscribed,
/// between a minimum and a maximum number of months; and the optional wait between offers, which
/// starts when the redeemed offer's period ends. The list puts high-priority offers first, then
/// the catalog's order ("sorted with the best offers first").
public enum WinBackEligibility {
    /// What the rules read of a subscription.
    public struct Subscriber: Hashable, Sendable {
        /// Expired with auto-renew off (not in grace or billing retry, not refunded).
        public var churned: Bool
        /// The start of the latest run of paid service (`recentSubscriptionStartDate`).
        public var paidSince: Timestamp
        /// When paid service ended (the subscription's expiry).
        public var paidUntil: Timestamp
        /// The win-back offers redeemed before, with when each offer's period ended.
        public var redemptions: [OfferID: Timestamp]

        public init(churned: Bool, paidSince: Timestamp, paidUntil: Timestamp, redemptions: [OfferID: Timestamp]) {
            self.churned = churned
            self.paidSince = paidSince
            self.paidUntil = paidUntil
            self.redemptions = redemptions
        }
    }

    /// Why a win-back offer cannot be redeemed now, or nil when it can.
    public static func refusal(_ offer: WinBackOffer, for s: Subscriber, at now: Timestamp) -> String? {
        guard s.churned else {
            return
                "win-back offers are for lapsed subscribers: the subscription must have expired with auto-renew off (not in billing retry or its grace period)"
        }
        guard offer.isAvailable(at: now) else {
            let start = offer.startDate.map { String($0.rfc3339.prefix(10)) } ?? "any day"
            let end = offer.endDate.map { String($0.rfc3339.prefix(10)) } ?? "no end"
            return "win-back offer '\(offer.id)' is available from \(start) to \(end), not on \(String(now.rfc3339.prefix(10)))"
        }
        switch offer.eligibility {
        case .whenChurned(let eligible):
            return eligible ? nil : "win-back offer '\(offer.id)' has its eligibility turned off (Xcode's toggle)"
        case .rules(let paidMonths, let since, let wait):
            let paid = months(from: s.paidSince, to: s.paidUntil)
            if paid < paidMonths {
                return
                    "win-back offer '\(offer.id)' needs \(paidMonths) month(s) of paid service; the subscriber paid for \(paid)"
            }
            let lapsed = months(from: s.paidUntil, to: now)
            if !since.contains(lapsed) {
                return
                    "win-back offer '\(offer.id)' is for subscribers lapsed \(since.lowerBound) to \(since.upperBound) month(s); this one lapsed \(lapsed) month(s) ago"
            }
            if let last = s.redemptions[offer.id] {
                guard let wait else { return nil }
                let waited = months(from: last, to: now)
                if waited < wait {
                    return
                        "win-back offer '\(offer.id)' was redeemed before; it can be redeemed again \(wait) month(s) after that offer ended (\(waited) so far)"
                }
            }
            return nil
        }
    }

    /// The offers of `product` the subscriber may redeem now, best first.
    public static func eligible(_ product: Product, for s: Subscriber, at now: Timestamp) -> [OfferID] {
        let offers = product.offers.winBack.filter { refusal($0, for: s, at: now) == nil }
        return (offers.filter { $0.priority == .high } + offers.filter { $0.priority != .high }).map(\.id)
    }

    /// Whole calendar months from `a` to `b`: the largest n with a + n months <= b (0 when b is
    /// before a).
    public static func months(from a: Timestamp, to b: Timestamp) -> Int {
        guard b > a else { return 0 }
        let ca = CivilTime(a)
        let cb = CivilTime(b)
        var n = Int((cb.year - ca.year) * 12 + (cb.month - ca.month))
        while n > 0 && SubscriptionPeriod(value: n, unit: .month).advance(a) > b { n -= 1 }
        while SubscriptionPeriod(value: n + 1, unit: .month).advance(a) <= b { n += 1 }
        return max(0, n)
    }
}
