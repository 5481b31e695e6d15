import IAPJSON
import IAPKit

/// One meaningful line of a scenario file: a command to run, an expectation to check, or a
/// `let` that keeps a value. Blank lines and comments are not lines in this sense.
package struct ScenarioLine: Equatable, Sendable {
    /// The 1-based line number in the file.
    package let number: Int
    /// The line as written, without surrounding blanks: what failure reports quote.
    package let text: String
    package let kind: Kind

    package enum Kind: Equatable, Sendable {
        /// An iapctl command line, without the program name; `--store` is added when it runs.
        case command([ScenarioWord])
        /// `expect exit N`: the last command exited with N.
        case expectExit(Int32)
        /// `expect state TXID STATE`: the transaction is in that state now.
        case expectState(transaction: ScenarioWord, state: String)
        /// `expect json PATH == VALUE` (or `!=`) on the last command's standard output.
        case expectJSON(path: JSONPath, equal: Bool, value: Value)
        /// `expect count dump [FILTERS] == N` (or `queue`): how many transactions the command lists.
        case expectCount(command: [ScenarioWord], equal: Bool, count: Int)
        /// `expect stdout ~ TEXT`, `expect stderr !~ TEXT`: the last command's output contains the
        /// text, or does not. The text is the rest of the line as written (quotes kept), with
        /// variables replaced; one wholly quoted word means its content.
        case expectOutput(Stream, contains: Bool, text: ScenarioWord)
        /// `let NAME = PATH`: keep the value at PATH in the last command's JSON as `$NAME`.
        case bind(name: String, path: JSONPath)
    }

    package enum Stream: String, Equatable, Sendable {
        case stdout, stderr
    }

    /// The right side of `expect json PATH == VALUE`.
    package enum Value: Equatable, Sendable {
        /// A JSON literal: `"purchased"`, `1`, `true`, `null`, `[]`.
        case json(JSONValue)
        /// One bare or quoted word, meaning a string: `purchased`, `$TX`, `'two words'`.
        case word(ScenarioWord)
    }

    /// Whether the line checks something (counts in `N passed, M failed`).
    package var isCheck: Bool {
        if case .command = kind { return false }
        return true
    }
}
