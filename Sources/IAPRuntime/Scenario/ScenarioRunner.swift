import IAPJSON
import IAPKit

/// Runs the lines of a scenario against one store, each through a ``ScenarioCommandLine`` (in
/// `iapctl run`, the same `run(arguments:...)` the `iapctl` binary calls, in this process), and
/// judges the checks.
///
/// Every command line gets `--store <dir>` first. Each `expect` and `let` line is one check;
/// besides, a command that exits non-zero with no `expect exit` after it counts as a failure,
/// as under `set -e`, so a scenario cannot go wrong unnoticed. A command whose `$NAME` has no
/// value (its `let` failed) is not run, and counts as a failure too.
package final class ScenarioRunner {
    package struct Configuration {
        /// The store every line runs against.
        package var store: String
        /// Where the scenario file is (`$SCENARIO_DIR`).
        package var scenarioDirectory: String
        /// The CLI's commands and global options, to find the command a line names.
        package var vocabulary: ScenarioVocabulary
        /// Global options put after `--store` on every line (`--lock-timeout 5`).
        package var globalArguments: [String] = []

        package init(store: String, scenarioDirectory: String, vocabulary: ScenarioVocabulary) {
            self.store = store
            self.scenarioDirectory = scenarioDirectory
            self.vocabulary = vocabulary
        }
    }

    /// What happened at a line, for the report.
    package enum Event {
        case ran(ScenarioLine, exitCode: Int32)
        case passed(ScenarioLine)
        case failed(ScenarioFailure)
    }

    package private(set) var passed = 0
    package private(set) var failed = 0
    private let configuration: Configuration
    /// Runs each command line (the scenario's own and those its checks run).
    private let commandLine: any ScenarioCommandLine
    private let observe: (Event) -> Void
    private var variables: [String: String]
    /// For a variable whose `let` failed: that line.
    private var unsetBy: [String: Int] = [:]
    private var last: LastCommand?
    /// The commands an `expect exit` follows: the others must exit 0.
    private var exitChecked: Set<Int> = []

    /// The outcome of the last command line.
    private struct LastCommand {
        let line: ScenarioLine
        /// Nil when the line was not run; then `skipped` says why.
        let exitCode: Int32?
        let skipped: String?
        let stdout: [UInt8]
        let stderr: String
        /// The command's name (`buy`), when the line names one.
        var command: String? = nil
        var document: Result<JSONValue, JSONPath.PathFailure>?
    }

    /// A variable without a value.
    private struct Unresolved: Error {
        let message: String
    }

    /// What every command line starts with: `--store DIR` and the global arguments (and
    /// `--json`, for the lines read as JSON).
    private let prefix: [String]
    private let jsonPrefix: [String]

    package init(
        _ configuration: Configuration, commandLine: any ScenarioCommandLine, observe: @escaping (Event) -> Void
    ) {
        self.configuration = configuration
        self.commandLine = commandLine
        prefix = ["--store", configuration.store] + configuration.globalArguments
        jsonPrefix = prefix + ["--json"]
        self.observe = observe
        variables = ["STORE": configuration.store, "SCENARIO_DIR": configuration.scenarioDirectory]
    }

    /// The commands a `let` or `expect json` reads: they run with `--json`, whether or not the
    /// line says so, and are shown as typed.
    private var readAsJSON: Set<Int> = []

    /// Runs every line in order; afterwards ``passed`` and ``failed`` hold the counts.
    package func run(_ lines: [ScenarioLine]) {
        var command: Int?
        for line in lines {
            switch line.kind {
            case .command: command = line.number
            case .expectExit: if let command { exitChecked.insert(command) }
            case .bind, .expectJSON: if let command { readAsJSON.insert(command) }
            default: break
            }
        }
        for line in lines { run(line) }
    }

    private func run(_ line: ScenarioLine) {
        switch line.kind {
        case .command(let words):
            let arguments: [String]
            do {
                arguments = try words.map(resolve)
            } catch {
                last = LastCommand(line: line, exitCode: nil, skipped: error.message, stdout: [], stderr: "")
                fail(line, expected: "the command to run", actual: "not run: \(error.message)")
                return
            }
            let (code, stdout, stderr) = invoke(arguments, json: readAsJSON.contains(line.number))
            last = LastCommand(
                line: line, exitCode: code, skipped: nil, stdout: stdout, stderr: stderr,
                command: ScenarioParser.commandName(in: arguments, vocabulary: configuration.vocabulary))
            observe(.ran(line, exitCode: code))
            if code != 0 && !exitChecked.contains(line.number) {
                fail(
                    line, expected: "exit 0 (write 'expect exit \(code)' after the command if that is intended)",
                    actual: describeExit(code))
            }
        case .expectExit(let expected):
            guard let code = lastExitCode(for: line) else { return }
            check(line, code == expected, expected: "exit \(expected)", actual: describeExit(code))
        case .expectState(let reference, let state):
            expectState(line, reference: reference, state: state)
        case .expectJSON(let path, let equal, let value):
            guard lastExitCode(for: line) != nil, let document = document(for: line) else { return }
            let expected: JSONValue
            switch value {
            case .json(let literal): expected = literal
            case .word(let word):
                guard let text = resolve(word, for: line) else { return }
                expected = .string(text)
            }
            switch path.evaluate(document) {
            case .success(let actual):
                let holds = Self.matches(actual, expected) == equal
                check(line, holds, expected: (equal ? "" : "not ") + Self.show(expected), actual: Self.show(actual))
            case .failure(let why):
                fail(line, expected: (equal ? "" : "not ") + Self.show(expected), actual: why.description)
            }
        case .expectCount(let words, let equal, let count):
            expectCount(line, words: words, equal: equal, count: count)
        case .expectOutput(let stream, let contains, let word):
            guard let last = last, lastExitCode(for: line) != nil, let needle = resolve(word, for: line) else { return }
            let haystack = stream == .stdout ? String(decoding: last.stdout, as: UTF8.self) : last.stderr
            check(
                line, haystack.contains(needle) == contains,
                expected: "\(stream) \(contains ? "containing" : "not containing") \(Self.quote(needle))",
                actual: haystack.isEmpty ? "\(stream) is empty" : Self.quote(haystack))
        case .bind(let name, let path):
            guard lastExitCode(for: line) != nil, let document = document(for: line) else {
                unsetBy[name] = line.number
                variables[name] = nil
                return
            }
            switch path.evaluate(document) {
            case .success(let value):
                variables[name] = value.stringValue ?? value.serialized()
                unsetBy[name] = nil
                pass(line)
            case .failure(let why):
                variables[name] = nil
                unsetBy[name] = line.number
                fail(line, expected: "a value at \(path) to keep as $\(name)", actual: why.description)
            }
        }
    }

    // MARK: Checks that run commands of their own

    private func expectState(_ line: ScenarioLine, reference: ScenarioWord, state: String) {
        guard let id = resolve(reference, for: line) else { return }
        guard TransactionID(parsing: id) != nil else {
            fail(line, expected: state, actual: "'\(id)' is not a transaction id")
            return
        }
        let (code, stdout, stderr) = invoke(["show", id, "--json"])
        guard code == 0 else {
            fail(line, expected: state, actual: "no transaction \(id): \(Self.describe(code, stderr))")
            return
        }
        let actual = (try? JSONParser.parse(stdout))?["state"]?.stringValue ?? "(unreadable 'show' output)"
        check(line, actual == state, expected: state, actual: actual)
    }

    private func expectCount(_ line: ScenarioLine, words: [ScenarioWord], equal: Bool, count: Int) {
        var arguments: [String] = []
        for word in words {
            guard let text = resolve(word, for: line) else { return }
            arguments.append(text)
        }
        if !arguments.contains("--json") { arguments.append("--json") }
        let expected = "\(equal ? "" : "not ")\(count) transaction\(count == 1 ? "" : "s")"
        let (code, stdout, stderr) = invoke(arguments)
        guard code == 0 else {
            fail(line, expected: expected, actual: "'\(arguments.joined(separator: " "))' failed: \(Self.describe(code, stderr))")
            return
        }
        guard let items = (try? JSONParser.parse(stdout))?.arrayValue else {
            fail(line, expected: expected, actual: "'\(arguments[0])' printed no JSON array")
            return
        }
        check(line, (items.count == count) == equal, expected: expected, actual: "\(items.count)")
    }

    // MARK: Running commands

    /// Runs one iapctl command line against the scenario's store; with `json`, as if it said
    /// `--json` (a global option, so it goes before the command's own words).
    private func invoke(_ arguments: [String], json: Bool = false) -> (Int32, [UInt8], String) {
        var line = json ? jsonPrefix : prefix
        line.append(contentsOf: arguments)
        let result = commandLine.run(line)
        return (result.exitCode, result.stdout, result.stderr)
    }

    /// The last command's exit code; nil (and a failure) when it was not run.
    private func lastExitCode(for line: ScenarioLine) -> Int32? {
        guard let last else { return nil }
        if let code = last.exitCode { return code }
        fail(
            line, expected: "a result of line \(last.line.number)",
            actual: "line \(last.line.number) was not run: \(last.skipped ?? "")")
        return nil
    }

    /// The last command's standard output as JSON (JSON Lines read as an array); nil (and a
    /// failure) when it is not JSON.
    private func document(for line: ScenarioLine) -> JSONValue? {
        guard let current = last else { return nil }
        let result =
            current.document
            ?? Self.parseDocument(
                current.stdout, line: current.line.number,
                jsonLines: current.command.map(Self.jsonLinesCommands.contains) ?? false)
        last?.document = result
        switch result {
        case .success(let value): return value
        case .failure(let why):
            fail(line, expected: "JSON on the standard output of line \(current.line.number)", actual: why.description)
            return nil
        }
    }

    /// Commands whose output is JSON Lines, read as an array even when there is one line.
    static let jsonLinesCommands: Set<String> = ["events"]

    private static func parseDocument(_ bytes: [UInt8], line: Int, jsonLines: Bool) -> Result<JSONValue, JSONPath.PathFailure> {
        if !jsonLines, let value = try? JSONParser.parse(bytes) { return .success(value) }
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) else {
            return .failure(JSONPath.PathFailure("line \(line) printed nothing on stdout"))
        }
        var items: [JSONValue] = []
        for row in bytes.split(separator: 0x0A) where !row.isEmpty {
            guard let value = try? JSONParser.parse(Array(row)) else {
                let text = String(decoding: bytes, as: UTF8.self)
                return .failure(JSONPath.PathFailure("line \(line) printed no JSON: \(quote(text))"))
            }
            items.append(value)
        }
        return .success(.array(items))
    }

    // MARK: Variables

    private func resolve(_ word: ScenarioWord) throws(Unresolved) -> String {
        try word.resolved { (name: String) throws(Unresolved) -> String in
            if let value = variables[name] { return value }
            let because = unsetBy[name].map { "its 'let' on line \($0) failed" } ?? "it was never set"
            throw Unresolved(message: "$\(name) has no value: \(because)")
        }
    }

    /// The word's text; nil (and a failure) when one of its variables has no value.
    private func resolve(_ word: ScenarioWord, for line: ScenarioLine) -> String? {
        do {
            return try resolve(word)
        } catch {
            fail(line, expected: "a value for every $NAME", actual: error.message)
            return nil
        }
    }

    // MARK: Outcomes

    private func check(
        _ line: ScenarioLine, _ holds: Bool, expected: @autoclosure () -> String, actual: @autoclosure () -> String
    ) {
        if holds {
            pass(line)
        } else {
            fail(line, expected: expected(), actual: actual())
        }
    }

    private func pass(_ line: ScenarioLine) {
        passed += 1
        observe(.passed(line))
    }

    private func fail(_ line: ScenarioLine, expected: String, actual: String) {
        failed += 1
        observe(.failed(ScenarioFailure(line: line.number, source: line.text, expected: expected, actual: actual)))
    }

    private func describeExit(_ code: Int32) -> String { Self.describe(code, last?.stderr ?? "") }

    /// `exit 3: error: unknown product 'x'; ...` (the first line of stderr, when there is one).
    private static func describe(_ code: Int32, _ stderr: String) -> String {
        let first = stderr.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        return first.isEmpty ? "exit \(code)" : "exit \(code): \(first)"
    }

    // MARK: Comparing and showing values

    /// JSON equality for checks: numbers by value (`1.0` matches `1`), objects whatever their
    /// member order, strings and the rest exactly.
    static func matches(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x == y || (Double(x).map { $0 == Double(y) } ?? false)
        case (.array(let xs), .array(let ys)):
            return xs.count == ys.count && zip(xs, ys).allSatisfy { matches($0, $1) }
        case (.object(let xs), .object(let ys)):
            return xs.count == ys.count && xs.allSatisfy { member in b[member.key].map { matches(member.value, $0) } ?? false }
        default:
            return a == b
        }
    }

    /// A value as the report shows it: compact JSON, cut after 300 characters.
    static func show(_ value: JSONValue) -> String { cut(value.serialized()) }

    /// A text as a JSON string literal (so line breaks show as `\n`), cut after 300 characters.
    static func quote(_ text: String) -> String { cut(JSONValue.string(text).serialized()) }

    private static func cut(_ text: String) -> String {
        let limit = 300
        guard text.unicodeScalars.count > limit else { return text }
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit)))
        return kept + "... (\(text.unicodeScalars.count - limit) more characters)"
    }
}
