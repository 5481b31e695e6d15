import IAPKit

/// Picks the one name to offer after "did you mean" for a mistyped option or command.
///
/// In order: the only name that starts with the input (`--quant` means `--quantity` even though
/// `--quiet` is fewer edits away); else IAPKit's ``Suggestions/nearest(to:among:)``, which catches
/// typos (`--quantitty`, `by`); else the only name that starts with the same letter and contains the
/// input's letters in order, for abbreviations, whose edit distance is large (`--qty` is five edits
/// from `--quantity`).
package enum DidYouMean {
    package static func suggestion(for input: String, among candidates: [String]) -> String? {
        guard !input.isEmpty else { return nil }
        let lowered = input.lowercased()
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(lowered) }
        if prefixed.count == 1 { return prefixed[0] }
        if let near = Suggestions.nearest(to: input, among: candidates) { return near }
        let abbreviated = candidates.filter { isAbbreviation(lowered, of: $0.lowercased()) }
        return abbreviated.count == 1 ? abbreviated[0] : nil
    }

    private static func isAbbreviation(_ input: String, of candidate: String) -> Bool {
        guard input.first == candidate.first else { return false }
        var remaining = candidate[...]
        for character in input {
            guard let found = remaining.firstIndex(of: character) else { return false }
            remaining = remaining[remaining.index(after: found)...]
        }
        return true
    }
}
