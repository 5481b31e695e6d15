/// Why a scenario file is malformed, at a line and column (both 1-based; columns count Unicode
/// scalars, so a tab or an `é` is one column).
///
/// Rendered as `7:12: unterminated double quote (opened here); close it with "`; `iapctl run`
/// prefixes the file name, as compilers do, and exits 65.
package struct ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let message: String

    package init(line: Int, column: Int, _ message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    package var description: String { "\(line):\(column): \(message)" }
}
