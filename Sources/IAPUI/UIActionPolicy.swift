/// Which command lines the page may run (`POST /ui/api/actions`): Xcode's Transaction Manager
/// actions and the few controls around them, and nothing else.
///
/// The list names commands by their CLI path. The page may run a command only if it is listed
/// here and this build has it (`UICommandLine.usage(of:)`), so the refund request flow,
/// price increases (Xcode's "Request Price Increase Consent") and consent, and Family Sharing's
/// `family add` and `family remove` appear as soon as their commands exist. A command line is refused
/// before anything runs when it gives a global option (the server sets `--store` and `--json`
/// itself; `--catalog`, `--lock-timeout`, `--help`, `--version` have no place in an action), or
/// sets `downloader`: that setting is a shell command, and the page may change the store but
/// never run a program.
package struct UIActionPolicy: Sendable {
    /// Every command the page may run, in the order `GET /ui/api/actions` lists them.
    package static let whitelist: [[String]] = [
        ["refund", "now"], ["refund", "request"], ["refund", "approve"], ["refund", "decline"], ["refund", "reverse"],
        ["approve"], ["decline"], ["resolve"], ["expire"], ["renew"], ["auto-renew"], ["price-increase"],
        ["price-consent"], ["delete"], ["clear"], ["promote"], ["finish"], ["clock", "advance"], ["config", "set"],
        ["family", "add"], ["family", "remove"],
    ]

    /// Settings the page may not change, and why.
    package static let protectedSettings: [String: String] = [
        "downloader":
            "it is a shell command, and the page may change the store but never run a program; set it with 'iapctl config set downloader'"
    ]

    let commandLine: any UICommandLine

    package init(commandLine: any UICommandLine) {
        self.commandLine = commandLine
    }

    /// The whitelisted commands this build has, with their usage lines.
    package var available: [(command: [String], usage: String)] {
        Self.whitelist.compactMap { path in commandLine.usage(of: path).map { (path, $0) } }
    }

    /// Why an argument list may not run, or nil when it may.
    package func refusal(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.isEmpty else {
            return "an empty command line; name a command, e.g. [\"refund\", TXID]"
        }
        let offered = available.map(\.command)
        guard let parsed = commandLine.parse(arguments) else {
            // The CLI's parser refuses these words; running them only prints its usage error,
            // but only a command the page may run gets to say so.
            let leading = Array(arguments.prefix { !$0.hasPrefix("-") })
            // `refund --bogus` is `refund now --bogus` to the parser: a group's words count too.
            guard offered.contains(where: { leading.starts(with: $0) || $0.starts(with: leading) }) else {
                return notOffered(arguments)
            }
            return nil
        }
        guard offered.contains(parsed.path) else { return notOffered(arguments) }
        if let option = parsed.globalOptions.first {
            return "--\(option) is the server's to set; an action gives only the command's own arguments"
        }
        if parsed.path == ["config", "set"], let key = parsed.positionals.first, let why = Self.protectedSettings[key] {
            return "the page may not set '\(key)': \(why)"
        }
        return nil
    }

    private func notOffered(_ arguments: [String]) -> String {
        let words = arguments.prefix { !$0.hasPrefix("-") }.prefix(2).joined(separator: " ")
        return "'\(words)' is not an action the page may run; it may run: "
            + available.map { $0.command.joined(separator: " ") }.joined(separator: ", ")
    }
}
