/// Splits argv into ``Token``s: the first of the two parsing steps (then ``Binder``).
///
/// Rules, in the order they apply to each word:
/// - after a `--`, every word is a ``Token/word(_:)``, even `--json` or `-h`;
/// - `--` is the ``Token/terminator``;
/// - `--name=value` is split at the first `=` (so a value may itself contain `=`); `--name` alone
///   has no attached value and may take the next word as its value when bound;
/// - a lone `-` is a word, because by convention it names stdin;
/// - a dash followed by a digit (`-5`, `-1.5`, `-.5`) is a word, so negative numbers can be option
///   values and arguments: no short option of iapctl is a digit, so this is never ambiguous;
/// - any other word starting with one dash is a ``Token/shortOption(_:)``.
enum ArgumentTokenizer {
    static func tokenize(_ arguments: [String]) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(arguments.count)
        var afterTerminator = false
        for argument in arguments {
            if afterTerminator {
                tokens.append(.word(argument))
            } else if argument == "--" {
                afterTerminator = true
                tokens.append(.terminator)
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    tokens.append(
                        .longOption(name: String(body[..<equals]), value: String(body[body.index(after: equals)...])))
                } else {
                    tokens.append(.longOption(name: String(body), value: nil))
                }
            } else if argument == "-" || !argument.hasPrefix("-") || startsLikeNegativeNumber(argument) {
                tokens.append(.word(argument))
            } else {
                tokens.append(.shortOption(String(argument.dropFirst())))
            }
        }
        return tokens
    }

    /// `-5`, `-0.25`, `-.5`: a dash, an optional dot, then an ASCII digit.
    private static func startsLikeNegativeNumber(_ argument: String) -> Bool {
        var rest = argument.utf8.dropFirst()
        if rest.first == UInt8(ascii: ".") { rest = rest.dropFirst() }
        guard let first = rest.first else { return false }
        return first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")
    }
}
