import IAPJSON
import IAPKit

/// A path into a JSON document, in a small subset of jq's syntax, for `expect json` and `let`:
///
/// | path | means |
/// |---|---|
/// | `.` | the whole document |
/// | `.state` | the member `state` of an object (names: letters, digits, `_`) |
/// | `."odd key"` | a member whose name needs quotes (`\"` and `\\` escape inside) |
/// | `[0]`, `.[0]` | an item of an array; `[-1]` is the last one |
/// | `.transactions[0].state` | steps chain left to right |
/// | `PATH \| length` | the number of items of an array, members of an object, or characters of a string (null has 0) |
/// | `length` | the same as `. \| length` |
package struct JSONPath: Equatable, Sendable, CustomStringConvertible {
    package enum Step: Equatable, Sendable {
        case member(String)
        case index(Int)
    }

    package let steps: [Step]
    /// Ends in `| length`.
    package let length: Bool

    package init(steps: [Step], length: Bool = false) {
        self.steps = steps
        self.length = length
    }

    /// The path written in its plainest form: `.transactions[0].state`, `.products | length`.
    package var description: String {
        var text = steps.isEmpty ? "." : Self.render(steps[...])
        if length { text += " | length" }
        return text
    }

    private static func render(_ steps: ArraySlice<Step>) -> String {
        guard !steps.isEmpty else { return "." }
        return steps.map { step -> String in
            switch step {
            case .member(let name):
                if let first = name.unicodeScalars.first, ScenarioTokenizer.isNameStart(first),
                    name.unicodeScalars.allSatisfy(ScenarioTokenizer.isNameContinuation)
                {
                    return "." + name
                }
                return ".\(JSONValue.string(name).serialized())"
            case .index(let i): return "[\(i)]"
            }
        }.joined()
    }

    // MARK: Parsing

    /// Parses a path written at `column` of line `line`.
    ///
    /// - Throws: ``ScenarioError`` at the column of the first character that does not fit.
    package static func parse(_ text: some Collection<Unicode.Scalar>, line: Int, column: Int) throws(ScenarioError) -> JSONPath {
        let p = Array(text)
        func fail(_ offset: Int, _ message: String) -> ScenarioError {
            ScenarioError(line: line, column: column + offset, message)
        }
        let example = "paths look like .transactions[0].state, .[0].transactionIdentifier or .products | length"
        guard !p.isEmpty else { throw fail(0, "missing path; \(example)") }
        if String(String.UnicodeScalarView(p)) == "length" { return JSONPath(steps: [], length: true) }
        guard p[0] == "." || p[0] == "[" else {
            throw fail(0, "a path starts with '.' or '['; \(example)")
        }
        var steps: [Step] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case ".":
                i += 1
                guard i < p.count, !ScenarioTokenizer.isBlank(p[i]), p[i] != "|" else {
                    guard steps.isEmpty, p[i - 1] == ".", i == 1 else {
                        throw fail(i - 1, "a member name must follow '.'; \(example)")
                    }
                    continue
                }
                if p[i] == "[" { continue }
                if p[i] == "\"" {
                    let open = i
                    var name = String.UnicodeScalarView()
                    i += 1
                    while true {
                        guard i < p.count else { throw fail(open, "unterminated quoted member name; close it with \"") }
                        if p[i] == "\"" { break }
                        if p[i] == "\\", i + 1 < p.count, p[i + 1] == "\"" || p[i + 1] == "\\" { i += 1 }
                        name.append(p[i])
                        i += 1
                    }
                    i += 1
                    steps.append(.member(String(name)))
                } else if ScenarioTokenizer.isNameStart(p[i]) {
                    var end = i
                    while end < p.count, ScenarioTokenizer.isNameContinuation(p[end]) { end += 1 }
                    steps.append(.member(String(String.UnicodeScalarView(p[i..<end]))))
                    i = end
                } else {
                    throw fail(i, "unexpected '\(p[i])' after '.'; write a member name, [index] or \"quoted name\"")
                }
            case "[":
                let open = i
                i += 1
                var digits = ""
                if i < p.count, p[i] == "-" {
                    digits = "-"
                    i += 1
                }
                while i < p.count, ("0"..."9").contains(p[i]) {
                    digits.unicodeScalars.append(p[i])
                    i += 1
                }
                guard i < p.count, p[i] == "]", let index = Int(digits), digits.count <= 10 else {
                    throw fail(open, "expected an index such as [0] or [-1]")
                }
                i += 1
                steps.append(.index(index))
            case " ", "\t", "|":
                while i < p.count, ScenarioTokenizer.isBlank(p[i]) { i += 1 }
                guard i < p.count, p[i] == "|" else { throw fail(i, "expected '| length' after the path") }
                i += 1
                while i < p.count, ScenarioTokenizer.isBlank(p[i]) { i += 1 }
                let rest = String(String.UnicodeScalarView(p[i...]))
                guard rest == "length" else {
                    throw fail(i, "only 'length' may follow '|' in a path; got '\(rest)'")
                }
                return JSONPath(steps: steps, length: true)
            default:
                throw fail(i, "unexpected '\(p[i])' in the path; \(example)")
            }
        }
        return JSONPath(steps: steps)
    }

    // MARK: Evaluating

    /// The value the path names in `document`, or why there is none: `no member 'stat' in
    /// .transactions[0] (it has: transactionIdentifier, state, ...)`.
    package func evaluate(_ document: JSONValue) -> Result<JSONValue, PathFailure> {
        var current = document
        for (n, step) in steps.enumerated() {
            let here = Self.render(steps[..<n])
            switch step {
            case .member(let name):
                guard case .object(let members) = current else {
                    return .failure(PathFailure("\(here) is \(current.kindName), not an object with member '\(name)'"))
                }
                guard let value = current[name] else {
                    let names = members.prefix(12).map(\.key).joined(separator: ", ")
                    let more = members.count > 12 ? ", ..." : ""
                    let has = members.isEmpty ? "it is empty" : "it has: \(names)\(more)"
                    return .failure(PathFailure("no member '\(name)' in \(here) (\(has))"))
                }
                current = value
            case .index(let index):
                guard case .array(let items) = current else {
                    return .failure(PathFailure("\(here) is \(current.kindName), not an array to index with [\(index)]"))
                }
                let position = index < 0 ? items.count + index : index
                guard position >= 0, position < items.count else {
                    let size = items.count == 1 ? "1 item" : "\(items.count) items"
                    return .failure(PathFailure("index \(index) is out of range: \(here) has \(size)"))
                }
                current = items[position]
            }
        }
        guard length else { return .success(current) }
        switch current {
        case .array(let items): return .success(.number(String(items.count)))
        case .object(let members): return .success(.number(String(members.count)))
        case .string(let s): return .success(.number(String(s.unicodeScalars.count)))
        case .null: return .success(.number("0"))
        case .bool, .number:
            let here = Self.render(steps[...])
            return .failure(PathFailure("\(here) is \(current.kindName), which has no length"))
        }
    }

    /// Why a path names nothing in a document.
    package struct PathFailure: Error, Equatable, Sendable, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }
}
