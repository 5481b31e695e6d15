import IAPJSON
import IAPKit

/// Reads a scenario file (`docs/scenarios.md`) into ``ScenarioLine``s, or says where it is wrong.
///
/// Everything that can be known before a line runs is checked here, so a malformed file stops
/// before it touches a store: the quoting (``ScenarioTokenizer``), the expectation forms, paths,
/// exit codes and states, that each command names an iapctl command (not another `run`; the
/// ``ScenarioVocabulary`` says which commands there are), that no
/// line sets `--store` itself, that each `$NAME` is defined by an earlier `let` (or is one of
/// ``predefinedVariables``), and that checks on "the last command" have a command before them.
/// What the command's own arguments mean is left to the command, because a scenario may well
/// want to check how iapctl answers a bad one (`expect exit 64`).
package enum ScenarioParser {
    /// Variables `iapctl run` sets before the first line: the store directory, and the directory
    /// of the scenario file (for paths to files beside it).
    package static let predefinedVariables: Set<String> = ["STORE", "SCENARIO_DIR"]

    /// The commands `expect count` may run: they print a JSON array of transactions.
    static let countCommands = ["dump", "queue"]

    static let expectationKinds = ["exit", "state", "json", "count", "stdout", "stderr"]

    /// Parses a file's bytes, which must be UTF-8 (a leading byte order mark is skipped).
    ///
    /// - Throws: ``ScenarioError`` at the first invalid byte, or at the first malformed line.
    package static func parse(bytes: [UInt8], vocabulary: ScenarioVocabulary) throws(ScenarioError) -> [ScenarioLine] {
        // Valid UTF-8 (nearly every file) is taken whole; only an invalid file is decoded scalar
        // by scalar, to name where it goes wrong.
        if let text = String(validating: bytes, as: UTF8.self) { return try parse(text, vocabulary: vocabulary) }
        var line = 1
        var column = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var text = String.UnicodeScalarView()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                text.append(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                break loop
            case .error:
                throw ScenarioError(line: line, column: column, "invalid UTF-8; save the scenario as UTF-8 text")
            }
        }
        return try parse(String(text), vocabulary: vocabulary)
    }

    /// Parses the text of a scenario file.
    ///
    /// - Throws: ``ScenarioError`` naming the line and column of the first mistake.
    package static func parse(_ text: String, vocabulary: ScenarioVocabulary) throws(ScenarioError) -> [ScenarioLine] {
        var parser = State(vocabulary: vocabulary)
        var lines: [ScenarioLine] = []
        var number = 1
        for var raw in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            if number == 1 && raw.first == "\u{FEFF}" { raw.removeFirst() }
            if let line = try parser.line(raw, number: number) { lines.append(line) }
            number += 1
        }
        return lines
    }

    /// The command a command line names: its first word that is not an option or the value of a
    /// global option (`--catalog FILE buy X` names `buy`); nil when there is none.
    package static func commandName(in arguments: [String], vocabulary: ScenarioVocabulary) -> String? {
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            i += 1
            if word == "--" { return nil }
            guard word.hasPrefix("-") && word != "-" else { return word }
            if word.hasPrefix("--"), !word.contains("="), vocabulary.takesValue(globalOption: word.dropFirst(2)) {
                i += 1
            }
        }
        return nil
    }

    /// Whether `name` can be a variable: letters, digits and `_`, not starting with a digit.
    package static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ScenarioTokenizer.isNameStart(first) else { return false }
        return name.unicodeScalars.allSatisfy(ScenarioTokenizer.isNameContinuation)
    }

    /// What the parser knows from the lines above the current one.
    private struct State {
        let vocabulary: ScenarioVocabulary
        var defined = ScenarioParser.predefinedVariables
        var sawCommand = false
        /// Command lines without variables seen before, as written, with their text and kind:
        /// what they parse to depends on nothing above them, so a repeated line (a load test's
        /// thousand `buy`s) is tokenized and checked once.
        var commandLines: [Substring: (text: String, kind: ScenarioLine.Kind)] = [:]

        mutating func line(_ raw: Substring.UnicodeScalarView, number: Int) throws(ScenarioError) -> ScenarioLine? {
            let key = Substring(raw)
            if let seen = commandLines[key] {
                sawCommand = true
                return ScenarioLine(number: number, text: seen.text, kind: seen.kind)
            }
            var scalars = Array(raw)
            if scalars.last == "\r" { scalars.removeLast() }
            let tokens = try ScenarioTokenizer.tokenize(scalars, number: number)
            guard let first = tokens.first else { return nil }
            for token in tokens {
                for (name, column) in zip(token.word.variables, token.variableColumns) where !defined.contains(name) {
                    throw ScenarioError(
                        line: number, column: column,
                        "undefined variable $\(name); keep a value first with 'let \(name) = PATH'")
                }
            }
            var parser = LineParser(scalars: scalars, tokens: tokens, number: number, defined: defined, vocabulary: vocabulary)
            let kind: ScenarioLine.Kind
            switch first.keyword {
            case "expect":
                kind = try parser.expectation(sawCommand: sawCommand)
            case "let":
                kind = try parser.binding(sawCommand: sawCommand)
                if case .bind(let name, _) = kind { defined.insert(name) }
            default:
                kind = try parser.command()
                sawCommand = true
            }
            let start = scalars.firstIndex { !ScenarioTokenizer.isBlank($0) } ?? 0
            let end = (scalars.lastIndex { !ScenarioTokenizer.isBlank($0) } ?? -1) + 1
            let text = String(String.UnicodeScalarView(scalars[start..<max(start, end)]))
            if case .command = kind, tokens.allSatisfy({ $0.word.variables.isEmpty }) { commandLines[key] = (text, kind) }
            return ScenarioLine(number: number, text: text, kind: kind)
        }
    }

    /// Parses one line's tokens into its kind.
    private struct LineParser {
        let scalars: [Unicode.Scalar]
        var tokens: [ScenarioToken]
        let number: Int
        /// The variables earlier lines define.
        let defined: Set<String>
        let vocabulary: ScenarioVocabulary

        func fail(_ column: Int, _ message: String) -> ScenarioError {
            ScenarioError(line: number, column: column, message)
        }

        /// The column just after the last word: where a missing word would go.
        var endColumn: Int { (tokens.last?.end ?? 0) + 1 }

        func text(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }

        // MARK: Commands

        mutating func command() throws(ScenarioError) -> ScenarioLine.Kind {
            if tokens[0].keyword == "iapctl" {
                guard tokens.count > 1 else {
                    throw fail(endColumn, "missing command after 'iapctl'; write a command such as 'buy com.x.coin42'")
                }
                tokens.removeFirst()
            }
            try checkCommand(tokens[...])
            return .command(tokens.map(\.word))
        }

        /// Checks that the words name an iapctl command (other than `run`) and do not set `--store`.
        /// A line without a command word (`--version`) is left to iapctl.
        func checkCommand(_ words: ArraySlice<ScenarioToken>) throws(ScenarioError) {
            var name: ScenarioToken?
            var i = words.startIndex
            while i < words.endIndex {
                let token = words[i]
                i += 1
                guard let text = token.word.literal else {
                    if name == nil {
                        throw fail(token.column, "the command name must be written out, not taken from a variable")
                    }
                    continue
                }
                if text == "--" { break }
                if text == "--store" || text.hasPrefix("--store=") {
                    throw fail(
                        token.column,
                        "'iapctl run' gives every line its --store; remove it here (run the scenario with 'iapctl run --store DIR' to use a particular store)"
                    )
                }
                guard name == nil else { continue }
                if text.hasPrefix("-") && text != "-" {
                    if text.hasPrefix("--"), !text.contains("="), vocabulary.takesValue(globalOption: text.dropFirst(2)) {
                        i += 1
                    }
                } else {
                    name = token
                }
            }
            guard let name, let word = name.word.literal else { return }
            if word == "events",
                let follow = words.first(where: { $0.word.literal == "--follow" })
            {
                throw fail(follow.column, "'events --follow' never ends, so the next line would never run; drop --follow")
            }
            if word == "run" {
                throw fail(name.column, "a scenario cannot run another scenario; put the other file's lines here instead")
            }
            guard vocabulary.isCommand(word) else {
                let hint =
                    DidYouMean.suggestion(for: word, among: vocabulary.commandNames).map { "; did you mean '\($0)'?" } ?? ""
                throw fail(
                    name.column,
                    "unknown command '\(word)'\(hint) (a line is an iapctl command, an 'expect' or a 'let'; see 'iapctl help')")
            }
        }

        // MARK: Expectations

        func expectation(sawCommand: Bool) throws(ScenarioError) -> ScenarioLine.Kind {
            let forms =
                "expect exit N, expect state TXID STATE, expect json PATH == VALUE, expect count dump ... == N, expect stdout ~ TEXT or expect stderr ~ TEXT"
            guard tokens.count > 1 else { throw fail(endColumn, "expect what? write \(forms)") }
            guard let what = tokens[1].keyword, ScenarioParser.expectationKinds.contains(what) else {
                let word = tokens[1].word.description
                let hint =
                    DidYouMean.suggestion(for: word, among: ScenarioParser.expectationKinds).map { " (did you mean '\($0)'?)" }
                    ?? ""
                throw fail(tokens[1].column, "unknown expectation '\(word)'\(hint); write \(forms)")
            }
            if !sawCommand && !["state", "count"].contains(what) {
                throw fail(tokens[0].column, "'expect \(what)' checks the last command, but no command comes before it")
            }
            switch what {
            case "exit": return try exit()
            case "state": return try state()
            case "json": return try json()
            case "count": return try count()
            default: return try output(ScenarioLine.Stream(rawValue: what)!)
            }
        }

        private func exit() throws(ScenarioError) -> ScenarioLine.Kind {
            guard tokens.count > 2 else { throw fail(endColumn, "missing exit code; write expect exit 0") }
            guard let text = tokens[2].keyword, text.count <= 3, let code = Int32(text), (0...255).contains(code) else {
                throw fail(tokens[2].column, "bad exit code '\(tokens[2].word)'; use a number from 0 to 255")
            }
            try noMore(after: 2, "the exit code")
            return .expectExit(code)
        }

        private func state() throws(ScenarioError) -> ScenarioLine.Kind {
            guard tokens.count > 3 else {
                throw fail(endColumn, "expect state needs a transaction and a state: expect state $TX purchased")
            }
            let reference = tokens[2]
            if let id = reference.word.literal, TransactionID(parsing: id) == nil {
                throw fail(
                    reference.column,
                    "bad transaction id '\(id)'; write a decimal id such as 2000000000000001, or a $NAME kept with let")
            }
            let names = TransactionState.allNames
            guard let state = tokens[3].keyword, names.contains(state) else {
                let word = tokens[3].word.description
                let hint = DidYouMean.suggestion(for: word, among: names).map { " (did you mean '\($0)'?)" } ?? ""
                throw fail(tokens[3].column, "unknown state '\(word)'\(hint); use one of: \(names.joined(separator: ", "))")
            }
            try noMore(after: 3, "the state")
            return .expectState(transaction: reference.word, state: state)
        }

        private func json() throws(ScenarioError) -> ScenarioLine.Kind {
            guard let op = comparison(from: 2) else {
                throw fail(endColumn, "expect json needs a comparison: expect json PATH == VALUE")
            }
            guard op > 2 else {
                throw fail(tokens[op].column, "missing path before '\(tokens[op].word)'; write expect json .state == purchased")
            }
            let path = try JSONPath.parse(
                scalars[tokens[2].start..<tokens[op - 1].end], line: number, column: tokens[2].column)
            guard op + 1 < tokens.count else {
                throw fail(
                    endColumn,
                    "missing value after '\(tokens[op].word)'; write a JSON literal (\"text\", 1, true, null) or one word")
            }
            return .expectJSON(path: path, equal: tokens[op].keyword == "==", value: try value(from: op + 1))
        }

        /// The right side of a comparison: a JSON literal when the text parses as one (and has no
        /// `$`), else exactly one word, meaning a string.
        private func value(from index: Int) throws(ScenarioError) -> ScenarioLine.Value {
            let raw = text(tokens[index].start..<tokens[tokens.count - 1].end)
            if !raw.contains("$"), let literal = try? JSONParser.parse(raw) { return .json(literal) }
            guard index == tokens.count - 1 else {
                throw fail(
                    tokens[index].column,
                    "the value \(raw) is neither a JSON literal nor one word; quote it as one word, or as a JSON string")
            }
            return .word(tokens[index].word)
        }

        private func count() throws(ScenarioError) -> ScenarioLine.Kind {
            let usage =
                "write expect count dump [--product ID] [--state S] [--unfinished] [--user ID] == N (or expect count queue == N)"
            guard tokens.count > 2, let command = tokens[2].keyword, ScenarioParser.countCommands.contains(command) else {
                throw fail(tokens.count > 2 ? tokens[2].column : endColumn, "expect count lists transactions; \(usage)")
            }
            guard let op = comparison(from: 3) else { throw fail(endColumn, "missing '== N'; \(usage)") }
            try checkCommand(tokens[2..<op])
            guard op + 1 < tokens.count else { throw fail(endColumn, "missing count after '\(tokens[op].word)'; \(usage)") }
            guard let text = tokens[op + 1].keyword, text.count <= 18, let n = Int(text), n >= 0 else {
                throw fail(tokens[op + 1].column, "bad count '\(tokens[op + 1].word)'; use a whole number such as 3")
            }
            try noMore(after: op + 1, "the count")
            return .expectCount(command: tokens[2..<op].map(\.word), equal: tokens[op].keyword == "==", count: n)
        }

        private func output(_ stream: ScenarioLine.Stream) throws(ScenarioError) -> ScenarioLine.Kind {
            let usage = "write expect \(stream) ~ TEXT (contains) or expect \(stream) !~ TEXT (does not contain)"
            guard tokens.count > 2, let op = tokens[2].keyword, op == "~" || op == "!~" else {
                throw fail(tokens.count > 2 ? tokens[2].column : endColumn, "expected '~' or '!~'; \(usage)")
            }
            guard tokens.count > 3 else { throw fail(endColumn, "missing text after '\(op)'; \(usage)") }
            return .expectOutput(stream, contains: op == "~", text: try writtenText(from: 3))
        }

        /// The text from word `index` to the end of the line, as written: iapctl's messages are
        /// full of quotes (`did you mean '--quantity'?`), which shell rules would strip. `$NAME`
        /// and `${NAME}` are still replaced. One wholly quoted word (`"  two spaces"`) means its
        /// content, for text with leading blanks or a `#`.
        private func writtenText(from index: Int) throws(ScenarioError) -> ScenarioWord {
            let first = tokens[index]
            if index == tokens.count - 1, isWhollyQuoted(first) { return first.word }
            var word = ScenarioWord()
            var literal = String.UnicodeScalarView()
            var i = first.start
            let end = tokens[tokens.count - 1].end
            while i < end {
                if scalars[i] == "$", let (name, next) = variable(at: i, end: end) {
                    guard defined.contains(name) else {
                        throw fail(
                            i + 1,
                            "undefined variable $\(name); keep a value first with 'let \(name) = PATH' (to match a literal $, single-quote the whole text)"
                        )
                    }
                    word.append(.text(String(literal)))
                    literal = String.UnicodeScalarView()
                    word.append(.variable(name))
                    i = next
                } else {
                    literal.append(scalars[i])
                    i += 1
                }
            }
            word.append(.text(String(literal)))
            return word
        }

        /// `$NAME` or `${NAME}` at `i`: the name and the offset after it.
        private func variable(at i: Int, end: Int) -> (String, Int)? {
            if i + 1 < end, scalars[i + 1] == "{", let close = scalars[(i + 2)..<end].firstIndex(of: "}") {
                let name = String(String.UnicodeScalarView(scalars[(i + 2)..<close]))
                return ScenarioParser.isVariableName(name) ? (name, close + 1) : nil
            }
            guard i + 1 < end, ScenarioTokenizer.isNameStart(scalars[i + 1]) else { return nil }
            var j = i + 1
            while j < end, ScenarioTokenizer.isNameContinuation(scalars[j]) { j += 1 }
            return (String(String.UnicodeScalarView(scalars[(i + 1)..<j])), j)
        }

        /// Whether the token is exactly one quoted string: `'...'` or `"..."`.
        private func isWhollyQuoted(_ token: ScenarioToken) -> Bool {
            let quote = scalars[token.start]
            guard quote == "'" || quote == "\"", token.end - token.start >= 2, scalars[token.end - 1] == quote else {
                return false
            }
            var i = token.start + 1
            while i < token.end - 1 {
                if quote == "\"" && scalars[i] == "\\" {
                    i += 2
                    continue
                }
                if scalars[i] == quote { return false }
                i += 1
            }
            return i == token.end - 1
        }

        // MARK: let

        func binding(sawCommand: Bool) throws(ScenarioError) -> ScenarioLine.Kind {
            let usage = "write let NAME = PATH, such as let TX = .transactionIdentifier"
            guard tokens.count > 1, let name = tokens[1].keyword, ScenarioParser.isVariableName(name) else {
                let column = tokens.count > 1 ? tokens[1].column : endColumn
                throw fail(column, "let needs a name of letters, digits and _ (not starting with a digit); \(usage)")
            }
            guard !ScenarioParser.predefinedVariables.contains(name) else {
                throw fail(tokens[1].column, "$\(name) is set by 'iapctl run'; choose another name")
            }
            guard tokens.count > 2, tokens[2].keyword == "=" else {
                throw fail(tokens.count > 2 ? tokens[2].column : endColumn, "expected '=' after the name; \(usage)")
            }
            guard tokens.count > 3 else { throw fail(endColumn, "missing path after '='; \(usage)") }
            guard sawCommand else {
                throw fail(tokens[0].column, "'let' keeps a value from the last command's output, but no command comes before it")
            }
            let path = try JSONPath.parse(
                scalars[tokens[3].start..<tokens[tokens.count - 1].end], line: number, column: tokens[3].column)
            return .bind(name: name, path: path)
        }

        // MARK: Helpers

        /// The index of the first bare `==` or `!=` at or after `start`.
        private func comparison(from start: Int) -> Int? {
            guard start < tokens.count else { return nil }
            return tokens[start...].firstIndex { $0.keyword == "==" || $0.keyword == "!=" }
        }

        private func noMore(after index: Int, _ what: String) throws(ScenarioError) {
            if index + 1 < tokens.count {
                throw fail(tokens[index + 1].column, "unexpected '\(tokens[index + 1].word)' after \(what)")
            }
        }
    }
}
