/// A word of a scenario line with where it was written, as ``ScenarioTokenizer`` found it.
struct ScenarioToken: Equatable, Sendable {
    let word: ScenarioWord
    /// The offset of the word's first Unicode scalar in its line (0-based).
    let start: Int
    /// The offset just past the word's last scalar.
    let end: Int
    /// True when the word was written without quotes, backslashes or variables. Only bare words
    /// are keywords: `expect` and `==` are syntax, `'expect'` and `"=="` are plain text.
    let isBare: Bool
    /// The variables the word uses, with the 1-based column of each `$`.
    let variableColumns: [Int]

    /// The 1-based column of the word's first scalar, for messages.
    var column: Int { start + 1 }

    /// The word's text when it is bare, else nil: what keywords are compared with.
    var keyword: String? { isBare ? word.literal : nil }
}
