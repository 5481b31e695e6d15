/// Splits one scenario line into words, with the quoting rules of the POSIX shell, so a command
/// line copied from a terminal means the same in a scenario:
///
/// - spaces and tabs separate words;
/// - `#` at the start of a word begins a comment that runs to the end of the line (`a#b` is one word);
/// - `'...'` is literal text: no escapes, no variables;
/// - `"..."` keeps spaces; inside it `\"`, `\\` and `\$` stand for `"`, `\` and `$`, and any other
///   backslash is kept as written (as in `sh`); `$NAME` and `${NAME}` are replaced;
/// - outside quotes a backslash makes the next character literal (`\ `, `\#`, `\'`);
/// - `$NAME` or `${NAME}` outside single quotes is a variable (letters, digits and `_`, not starting
///   with a digit); a `$` not followed by a name is a plain `$`.
///
/// A line does not continue on the next one: an unterminated quote or a backslash at the end of
/// the line is an error, as are control characters other than tab.
enum ScenarioTokenizer {
    /// - Parameters:
    ///   - line: the line's Unicode scalars, without the line break.
    ///   - number: the line number, for errors.
    /// - Throws: ``ScenarioError`` naming the column of the first mistake.
    static func tokenize(_ line: [Unicode.Scalar], number: Int) throws(ScenarioError) -> [ScenarioToken] {
        var tokens: [ScenarioToken] = []
        var i = 0
        func fail(_ offset: Int, _ message: String) -> ScenarioError {
            ScenarioError(line: number, column: offset + 1, message)
        }
        while true {
            while i < line.count, isBlank(line[i]) { i += 1 }
            guard i < line.count, line[i] != "#" else { return tokens }
            let start = i
            var word = ScenarioWord()
            var text = ""
            var bare = true
            var variableColumns: [Int] = []
            func flush() {
                if !text.isEmpty { word.append(.text(text)) }
                text = ""
            }
            /// Reads `$NAME` or `${NAME}` at `i`; false (and nothing read) when `$` starts no name.
            func variable() throws(ScenarioError) -> Bool {
                let dollar = i
                if i + 1 < line.count, line[i + 1] == "{" {
                    guard let close = line[(i + 2)...].firstIndex(of: "}") else {
                        throw fail(dollar, "unterminated '${'; close the variable name with '}'")
                    }
                    let name = String(String.UnicodeScalarView(line[(i + 2)..<close]))
                    guard ScenarioParser.isVariableName(name) else {
                        throw fail(dollar, "bad variable name '\(name)'; use letters, digits and _, not starting with a digit")
                    }
                    flush()
                    word.append(.variable(name))
                    variableColumns.append(dollar + 1)
                    i = close + 1
                    return true
                }
                guard i + 1 < line.count, isNameStart(line[i + 1]) else { return false }
                var end = i + 1
                while end < line.count, isNameContinuation(line[end]) { end += 1 }
                flush()
                word.append(.variable(String(String.UnicodeScalarView(line[(i + 1)..<end]))))
                variableColumns.append(dollar + 1)
                i = end
                return true
            }
            while i < line.count, !isBlank(line[i]) {
                let c = line[i]
                if let problem = controlCharacter(c) { throw fail(i, problem) }
                switch c {
                case "'":
                    bare = false
                    guard let close = line[(i + 1)...].firstIndex(of: "'") else {
                        throw fail(i, "unterminated single quote; close it with ' (a single-quoted text cannot contain ')")
                    }
                    for s in line[(i + 1)..<close] {
                        if let problem = controlCharacter(s) { throw fail(i, problem) }
                        text.unicodeScalars.append(s)
                    }
                    i = close + 1
                case "\"":
                    bare = false
                    let open = i
                    i += 1
                    while true {
                        guard i < line.count else {
                            throw fail(open, "unterminated double quote; close it with \"")
                        }
                        let d = line[i]
                        if let problem = controlCharacter(d) { throw fail(i, problem) }
                        if d == "\"" {
                            i += 1
                            break
                        }
                        if d == "\\", i + 1 < line.count, ["\"", "\\", "$"].contains(line[i + 1]) {
                            text.unicodeScalars.append(line[i + 1])
                            i += 2
                        } else if d == "$", try variable() {
                            continue
                        } else {
                            text.unicodeScalars.append(d)
                            i += 1
                        }
                    }
                case "\\":
                    bare = false
                    guard i + 1 < line.count else {
                        throw fail(i, "backslash at the end of the line; a command cannot continue on the next line")
                    }
                    if let problem = controlCharacter(line[i + 1]) { throw fail(i + 1, problem) }
                    text.unicodeScalars.append(line[i + 1])
                    i += 2
                case "$":
                    if try variable() {
                        bare = false
                    } else {
                        text.unicodeScalars.append(c)
                        i += 1
                    }
                default:
                    text.unicodeScalars.append(c)
                    i += 1
                }
            }
            flush()
            tokens.append(
                ScenarioToken(word: word, start: start, end: i, isBare: bare, variableColumns: variableColumns))
        }
    }

    static func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_"
    }

    static func isNameContinuation(_ c: Unicode.Scalar) -> Bool {
        isNameStart(c) || ("0"..."9").contains(c)
    }

    /// The complaint about a control character (tab is a blank), or nil for printable text.
    private static func controlCharacter(_ c: Unicode.Scalar) -> String? {
        guard (c.value < 0x20 && c != "\t") || c.value == 0x7F else { return nil }
        let hex = String(c.value, radix: 16, uppercase: true)
        return "control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex); a scenario is plain text (remove it)"
    }
}
