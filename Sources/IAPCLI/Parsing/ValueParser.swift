import IAPRuntime

/// Turns option and argument text into typed values, with the exact usage message on failure.
///
/// Shared by ``ParsedInvocation``'s typed accessors and ``GlobalOptions`` so that every number in
/// every command is rejected with the same wording:
/// `'--quantity' expects an integer from 1 to 10, got 'abc'`.
enum ValueParser {
    static func int(_ text: String, for name: ParameterName, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw .invalidValue(name, expected: "an integer" + describe(range), got: text, suggestion: nil)
        }
        return value
    }

    /// Finite numbers only: `nan` and `inf` parse as `Double` but are never a sensible input.
    static func double(
        _ text: String, for name: ParameterName, in range: ClosedRange<Double>
    ) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw .invalidValue(name, expected: "a number" + describe(range), got: text, suggestion: nil)
        }
        return value
    }

    /// One of a fixed set of words, case-sensitive, with a "did you mean" for near misses.
    static func choice(_ text: String, for name: ParameterName, among choices: [String]) throws(UsageError) -> String {
        guard choices.contains(text) else {
            throw .invalidValue(
                name, expected: "one of: " + choices.joined(separator: ", "), got: text,
                suggestion: DidYouMean.suggestion(for: text, among: choices))
        }
        return text
    }

    /// `true`/`false`, also `yes`/`no`, `on`/`off` and `1`/`0`, as shells and config files write them.
    static func bool(_ text: String, for name: ParameterName) throws(UsageError) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw .invalidValue(name, expected: "true or false", got: text, suggestion: nil)
        }
    }

    /// ` from 1 to 10`, ` of at least 0`, ` of at most 5`, or nothing for an unbounded range.
    private static func describe(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound == Int.min, range.upperBound == Int.max) {
        case (true, true): return ""
        case (false, true): return " of at least \(range.lowerBound)"
        case (true, false): return " of at most \(range.upperBound)"
        case (false, false): return " from \(range.lowerBound) to \(range.upperBound)"
        }
    }

    private static func describe(_ range: ClosedRange<Double>) -> String {
        let unboundedBelow = range.lowerBound == -.greatestFiniteMagnitude || range.lowerBound == -.infinity
        let unboundedAbove = range.upperBound == .greatestFiniteMagnitude || range.upperBound == .infinity
        switch (unboundedBelow, unboundedAbove) {
        case (true, true): return ""
        case (false, true): return " of at least \(format(range.lowerBound))"
        case (true, false): return " of at most \(format(range.upperBound))"
        case (false, false): return " from \(format(range.lowerBound)) to \(format(range.upperBound))"
        }
    }

    /// `86400`, not `86400.0`; `0.5` stays `0.5`. (String surgery rather than rounding, which
    /// would pull in libm for one message.)
    private static func format(_ value: Double) -> String {
        let text = String(value)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
