import IAPTime

/// StoreKit 2's `recentSubscriptionStartDate`: "the earliest start date of a subscription in a
/// series of auto-renewable subscription purchases that ignores all lapses of paid service
/// shorter than 60 days" (App Store Server API, recentSubscriptionStartDate).
///
/// Apple finds "the start date of the most recent auto-renewable subscription purchase that's
/// preceded by a gap in paid service of more than 60 days in the production environment, or 10
/// minutes in the sandbox environment". iapctl's sandbox runs on full-length periods (a month is
/// a month on the simulated clock), so it uses the production gap in every environment. Upgrades,
/// crossgrades and renewals continue a series; only a resubscription after a longer gap starts a
/// new one.
public enum RecentSubscriptionStart {
    /// 60 days, in milliseconds.
    public static let maximumGap: Int64 = 60 * 86_400_000

    /// When paid service last ended for `sub`: the end of its period, or a refund's date if
    /// earlier.
    public static func paidServiceEnd(_ sub: Subscription) -> Timestamp {
        if case .revoked(let date, _) = sub.status { return min(date, sub.expiresDate) }
        return sub.expiresDate
    }

    /// The series start after resubscribing at `start`, when the series began at `current` and
    /// paid service last ended at `previousEnd`.
    public static func afterResubscribing(current: Timestamp, previousEnd: Timestamp, start: Timestamp) -> Timestamp {
        start.milliseconds - previousEnd.milliseconds > maximumGap ? start : current
    }
}
