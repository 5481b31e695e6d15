/// "Did you mean" support: ranks candidates by edit distance, and by shared prefix as a tie-break.
public enum Suggestions {
    /// Up to `limit` candidates close enough to `input` to be a likely typo, nearest first.
    /// When none is close, the first `limit` candidates in order, so a message can still list
    /// what exists.
    public static func closest(to input: String, among candidates: [String], limit: Int = 3) -> [String] {
        let ranked = candidates.map { ($0, distance(input.lowercased(), $0.lowercased())) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        let threshold = max(2, input.count / 3)
        let close = ranked.filter { $0.1 <= threshold }.prefix(limit).map(\.0)
        return close.isEmpty ? Array(ranked.prefix(limit).map(\.0)) : Array(close)
    }

    /// The single candidate close enough to be offered as "did you mean", or nil.
    public static func nearest(to input: String, among candidates: [String]) -> String? {
        let threshold = max(2, input.count / 3)
        return candidates.map { ($0, distance(input.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= threshold }
            .min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// Levenshtein distance over Unicode scalars.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
