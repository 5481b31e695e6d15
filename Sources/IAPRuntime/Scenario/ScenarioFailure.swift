/// A check that did not hold, as `iapctl run` reports it:
///
/// ```
/// scenario.iap:12: expect json .state == purchased
///   expected: "purchased"
///   actual:   "failed"
/// ```
package struct ScenarioFailure: Equatable, Sendable {
    /// The line of the check (or of the command that failed on its own).
    package let line: Int
    /// That line as written.
    package let source: String
    package let expected: String
    package let actual: String

    /// The report's lines for a file shown as `file`.
    package func rendered(file: String) -> String {
        "\(file):\(line): \(source)\n  expected: \(expected)\n  actual:   \(actual)\n"
    }
}
