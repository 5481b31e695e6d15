import IAPTime

/// A subscription's length, written as an ISO 8601 duration of one unit (`P1W`, `P1M`, `P3M`,
/// `P1Y`), as App Store Connect and Xcode's `.storekit` files do.
public struct SubscriptionPeriod: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Unit: String, Sendable, Codable, CaseIterable {
        case day, week, month, year

        var letter: Character {
            switch self {
            case .day: return "D"
            case .week: return "W"
            case .month: return "M"
            case .year: return "Y"
            }
        }
    }

    public let value: Int
    public let unit: Unit

    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses `P<n><D|W|M|Y>` with 1 <= n <= 999.
    public init?(iso8601 text: String) {
        let upper = Array(text.uppercased())
        guard upper.count >= 3, upper.first == "P", let letter = upper.last,
            let n = Int(String(upper[1..<(upper.count - 1)])), (1...999).contains(n),
            String(upper[1..<(upper.count - 1)]).allSatisfy(\.isNumber),
            let unit = Unit.allCases.first(where: { $0.letter == letter })
        else { return nil }
        value = n
        self.unit = unit
    }

    public var iso8601: String { "P\(value)\(unit.letter)" }

    public var description: String { iso8601 }

    /// Whether this is a weekly period, which gets Apple's 6-day billing grace period rather than 16.
    public var isWeekly: Bool { unit == .week || (unit == .day && value == 7) }

    /// The date one period after `start`, by calendar months and years (Jan 31 + P1M = Feb 28/29),
    /// as the App Store computes renewal dates.
    public func advance(_ start: Timestamp, times: Int = 1) -> Timestamp {
        let n = Int64(value * times)
        switch unit {
        case .day: return start.adding(milliseconds: n * 86_400_000)
        case .week: return start.adding(milliseconds: n * 7 * 86_400_000)
        case .month, .year:
            var c = CivilTime(start)
            let months = unit == .month ? n : n * 12
            let total = c.year * 12 + (c.month - 1) + months
            c.year = total >= 0 ? total / 12 : (total - 11) / 12
            c.month = total - c.year * 12 + 1
            c.day = min(c.day, CivilTime.daysIn(month: c.month, year: c.year))
            return c.timestamp
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let period = SubscriptionPeriod(iso8601: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad period '\(text)'"))
        }
        self = period
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
