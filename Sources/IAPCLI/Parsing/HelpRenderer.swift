/// Renders a command's help page from its ``CommandSpec``, so help can never disagree with what
/// the parser accepts.
///
/// Sections, each only when it has content, in this order: `OVERVIEW`, `USAGE`, `ARGUMENTS`,
/// `OPTIONS`, `SUBCOMMANDS` (`COMMANDS` at the top level, where the built-in `help` is listed last),
/// `EXAMPLES`, then `GLOBAL OPTIONS` on every page. Row labels share one column per page; help text
/// wraps at ``lineWidth``. Output depends only on the spec (declaration order), never on the terminal.
enum HelpRenderer {
    /// Lines wrap at this width, a terminal's default.
    static let lineWidth = 80
    /// Labels up to this long share the help column; longer ones put their help on the next line.
    static let maximumLabelWidth = 26
    /// A usage line longer than this lists options as `[<options>]`.
    static let maximumUsageWidth = 80

    private struct Row {
        let label: String
        let help: String
    }

    /// - Parameters:
    ///   - spec: the command to describe; the root spec for the top-level page.
    ///   - path: the command names below the program (`["config", "set"]`), empty for the top level.
    ///   - programName: the program, as in usage lines and hints.
    /// - Returns: the page, ending with a newline.
    static func render(_ spec: CommandSpec, path: [String], programName: String = "iapctl") -> String {
        let invocation = ([programName] + path).joined(separator: " ")
        let isTopLevel = path.isEmpty

        var sections: [(title: String, rows: [Row])] = []
        if !spec.arguments.isEmpty {
            sections.append(("ARGUMENTS", spec.arguments.map(row(for:))))
        }
        if !spec.options.isEmpty {
            sections.append(("OPTIONS", spec.options.map(row(for:))))
        }
        if spec.isGroup || isTopLevel {
            var rows = spec.subcommands.map { row(for: $0, isDefault: $0.name == spec.defaultSubcommand) }
            if isTopLevel { rows.append(row(for: CommandSpec.help, isDefault: false)) }
            sections.append((isTopLevel ? "COMMANDS" : "SUBCOMMANDS", rows))
        }
        let globalRows = GlobalOptions.specs.map(row(for:))
        let column = labelColumn(for: sections.flatMap(\.rows) + globalRows)

        var lines: [String] = []
        lines.append("OVERVIEW: " + spec.summary)
        if !spec.discussion.isEmpty {
            lines.append("")
            lines.append(contentsOf: paragraphs(spec.discussion))
        }
        lines.append("")
        lines.append("USAGE: " + usage(for: spec, invocation: invocation, isTopLevel: isTopLevel))
        for section in sections {
            lines.append("")
            lines.append(section.title + ":")
            lines.append(contentsOf: section.rows.flatMap { format($0, column: column) })
        }
        if !spec.examples.isEmpty {
            lines.append("")
            lines.append("EXAMPLES:")
            lines.append(contentsOf: spec.examples.map { "  " + $0 })
        }
        lines.append("")
        lines.append("GLOBAL OPTIONS:")
        lines.append(contentsOf: globalRows.flatMap { format($0, column: column) })
        if isTopLevel {
            lines.append("")
            lines.append("See '\(programName) help <command>' for details about a command.")
        } else if spec.isGroup {
            lines.append("")
            lines.append(
                "See '\(programName) help \(path.joined(separator: " ")) <subcommand>' for details about a subcommand.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Usage line

    /// The words after `USAGE: ` on the command's help page (`iapctl buy <product> [--quantity <n>] ...`),
    /// without rendering the page: `serve` asks it of every command when it mounts the
    /// Transaction Manager, and rendering every page for it cost more than the rest of start-up.
    static func usageLine(_ spec: CommandSpec, path: [String], programName: String = "iapctl") -> String {
        usage(for: spec, invocation: ([programName] + path).joined(separator: " "), isTopLevel: path.isEmpty)
    }

    private static func usage(for spec: CommandSpec, invocation: String, isTopLevel: Bool) -> String {
        if isTopLevel { return "\(invocation) <command> [<arguments>] [<options>]" }
        if spec.isGroup { return invocation + (spec.defaultSubcommand == nil ? " <subcommand>" : " [<subcommand>]") }
        let arguments = spec.arguments.map(\.usage)
        let full = ([invocation] + arguments + optionUsages(spec)).joined(separator: " ")
        if full.count <= maximumUsageWidth || spec.options.isEmpty { return full }
        return ([invocation] + arguments + ["[<options>]"]).joined(separator: " ")
    }

    /// `[--all]`, `[--quantity <n>]`, `[--content <path> ...]`; the options of an exclusive group
    /// are shown together where the first of them is declared: `[--user <id> | --account <name>]`.
    private static func optionUsages(_ spec: CommandSpec) -> [String] {
        let optionGroups = spec.exclusive.filter { group in group.allSatisfy { spec.option(named: $0) != nil } }
        var shown = Set<String>()
        var pieces: [String] = []
        for option in spec.options where !shown.contains(option.name) {
            if let group = optionGroups.first(where: { $0.contains(option.name) }) {
                let members = group.compactMap(spec.option(named:))
                shown.formUnion(group)
                pieces.append("[" + members.map(core(of:)).joined(separator: " | ") + "]")
            } else {
                shown.insert(option.name)
                pieces.append("[" + core(of: option) + "]")
            }
        }
        return pieces
    }

    private static func core(of option: OptionSpec) -> String {
        option.kind == .repeatableValue ? option.synopsis + " ..." : option.synopsis
    }

    // MARK: Rows

    private static func row(for argument: ArgumentSpec) -> Row {
        Row(label: argument.isVariadic ? argument.label + " ..." : argument.label, help: argument.help)
    }

    private static func row(for option: OptionSpec) -> Row {
        let label = (option.short.map { "-\($0), " } ?? "") + option.synopsis
        let help = option.kind == .repeatableValue ? option.help + " (can be repeated)" : option.help
        return Row(label: label, help: help)
    }

    private static func row(for command: CommandSpec, isDefault: Bool) -> Row {
        Row(
            label: command.isGroup ? command.name + " <subcommand>" : command.name,
            help: isDefault ? command.summary + " (default)" : command.summary)
    }

    /// The column help text starts at: two spaces, the widest label that fits, two spaces.
    private static func labelColumn(for rows: [Row]) -> Int {
        let widths = rows.map(\.label.count).filter { $0 <= maximumLabelWidth }
        return 2 + (widths.max() ?? maximumLabelWidth) + 2
    }

    private static func format(_ row: Row, column: Int) -> [String] {
        let label = "  " + row.label
        let wrapped = wrap(row.help, width: max(30, lineWidth - column))
        let indent = String(repeating: " ", count: column)
        guard let first = wrapped.first else { return [label] }
        var lines: [String]
        if label.count + 2 <= column {
            lines = [label + String(repeating: " ", count: column - label.count) + first]
        } else {
            lines = [label, indent + first]
        }
        lines.append(contentsOf: wrapped.dropFirst().map { indent + $0 })
        return lines
    }

    // MARK: Text

    /// Discussion text: paragraphs separated by blank lines are wrapped at ``lineWidth``; a
    /// paragraph whose lines are indented is kept as written (for command lines and tables).
    private static func paragraphs(_ text: String) -> [String] {
        let blocks = text.split(separator: "\n\n", omittingEmptySubsequences: true).map(String.init)
        return blocks.enumerated().flatMap { index, block -> [String] in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let body =
                lines.contains { $0.hasPrefix(" ") } ? lines : wrap(lines.joined(separator: " "), width: lineWidth)
            return index == 0 ? body : [""] + body
        }
    }

    /// Greedy word wrap; explicit newlines are kept; a word longer than `width` gets a line of its own.
    private static func wrap(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            var lines: [String] = []
            var current = ""
            for word in line.split(separator: " ") {
                if current.isEmpty {
                    current = String(word)
                } else if current.count + 1 + word.count <= width {
                    current += " " + word
                } else {
                    lines.append(current)
                    current = String(word)
                }
            }
            lines.append(current)
            return lines
        }
    }
}
