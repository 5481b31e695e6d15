/// What buying another product of the group an active subscription is in does (App Store Connect
/// help, "Offer auto-renewable subscriptions": upgrade, downgrade, crossgrade).
///
/// Levels rank products inside a group, 1 the highest. An upgrade takes effect at once and the
/// unused part of the current period is refunded pro rata; a downgrade waits for the next renewal.
/// A crossgrade (same level) takes effect at once when both products have the same duration, and
/// at the next renewal otherwise.
public enum GroupChange: String, Hashable, Sendable, Codable {
    case upgrade, downgrade, crossgrade

    /// The change from `current` to `new`, two auto-renewables of one group.
    public init(from current: Product, to new: Product) {
        let from = current.groupLevel ?? 1
        let to = new.groupLevel ?? 1
        self = to < from ? .upgrade : to > from ? .downgrade : .crossgrade
    }

    /// Whether the change starts a new period now (else it waits for the renewal).
    public static func isImmediate(from current: Product, to new: Product) -> Bool {
        switch GroupChange(from: current, to: new) {
        case .upgrade: return true
        case .downgrade: return false
        case .crossgrade:
            guard let a = current.subscriptionPeriod, let b = new.subscriptionPeriod else { return false }
            return a.days == b.days
        }
    }
}

extension SubscriptionPeriod {
    /// The period in comparable units: days for days and weeks, months (times 31) for months and
    /// years, so `P1W` equals `P7D` and `P1Y` equals `P12M` when durations are compared.
    var days: Int {
        switch unit {
        case .day: return value
        case .week: return value * 7
        case .month: return value * 31
        case .year: return value * 12 * 31
        }
    }
}
