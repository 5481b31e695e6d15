/// "Did you mean" support, with one definition of "close" for every suggestion iapctl makes
/// (commands, options, values, settings, product ids, catalog keys, locales).
///
/// Two words are close when the edits between them (insertions, deletions, substitutions and
/// swaps of neighbours, ignoring case) are at most a third of the longer word's length. A typo
/// in a long word is caught (`purchsed`, `storefrnt`, `consumible`, `by` for `buy`), while a
/// one-character value is never "close" to a different one: `--reason 7` is not a misspelt `0`.
public enum Suggestions {
    /// Whether `candidate` is close enough to `input` to be offered as what the user meant.
    public static func isClose(_ input: String, _ candidate: String) -> Bool {
        distance(input.lowercased(), candidate.lowercased()) * 3 <= max(input.count, candidate.count)
    }

    /// Up to `limit` candidates close to `input`, nearest first; empty when none is close.
    public static func closest(to input: String, among candidates: [String], limit: Int = 3) -> [String] {
        let lowered = input.lowercased()
        let ranked: [(name: String, distance: Int)] = candidates.filter { isClose(input, $0) }
            .map { ($0, distance(lowered, $0.lowercased())) }
        let sorted = ranked.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return sorted.prefix(limit).map(\.name)
    }

    /// The single close candidate to offer as "did you mean" (the nearest, then the first in
    /// alphabetical order), or nil when none is close.
    public static func nearest(to input: String, among candidates: [String]) -> String? {
        candidates.filter { isClose(input, $0) }
            .map { ($0, distance(input.lowercased(), $0.lowercased())) }
            .min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// Edit distance over Unicode scalars, counting a swap of two neighbours as one edit
    /// (optimal string alignment): `purhcased` is one edit from `purchased`, as a reader sees it.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
