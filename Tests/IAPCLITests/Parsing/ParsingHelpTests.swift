import Testing

@testable import IAPCLI

/// Help pages are rendered from the spec; these goldens pin the layout. Re-record on purpose when
/// the layout changes.
struct ParsingHelpTests {
    /// Equality, reporting the first line that differs so a failure is readable.
    private func expectGolden(_ actual: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard actual != expected else { return }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let common = min(actualLines.count, expectedLines.count)
        let index = (0..<common).first { actualLines[$0] != expectedLines[$0] } ?? common
        let got = index < actualLines.count ? String(actualLines[index]) : "<end>"
        let want = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
        Issue.record("line \(index + 1) differs:\n got: \(got)\nwant: \(want)", sourceLocation: sourceLocation)
    }

    static let globalOptions = """
        GLOBAL OPTIONS:
          --store <dir>             The store directory (default: $IAPCTL_STORE, else
                                    ./.iapctl)
          --catalog <file>          The catalog for a new store (default: the built-in)
          --json                    Print one JSON document on stdout instead of text
          --lock-timeout <seconds>  Seconds to wait for a busy store, then exit 75
          -h, --help                Show help for the command
          --version                 Show the version
        """

    @Test func leafCommand() {
        let expected = """
            OVERVIEW: Add a payment for a product

            The payment joins the queue in the purchasing state and completes as the store's
            settings say: purchased, failed or deferred for Ask to Buy.

            USAGE: iapctl buy <ID> [--user <id> | --account <name>] [--quantity <n>]

            ARGUMENTS:
              <ID>                      The product identifier

            OPTIONS:
              --user <id>               The user the payment is for
              --account <name>          An account name; the user becomes SHA-256(NAME) in
                                        lowercase hex
              --quantity <n>            How many, from 1 to 10 (default: 1)

            EXAMPLES:
              iapctl buy com.x.coin42 --quantity 2
              iapctl buy com.x.vip2 --account alice


            """ + Self.globalOptions + "\n"
        expectGolden(HelpRenderer.render(SampleCommands.buy, path: ["buy"]), expected)
    }

    @Test func topLevelListsEveryCommandWithItsSummary() throws {
        let expected = """
            OVERVIEW: An in-app purchase simulator

            USAGE: iapctl <command> [<arguments>] [<options>]

            COMMANDS:
              buy                       Add a payment for a product
              finish                    Finish transactions
              queue                     Show the unfinished transactions, oldest first
              config <subcommand>       Read or change store settings
              download <subcommand>     Manage hosted content downloads
              dump                      Print every transaction as JSON
              events                    Print the notification log
              sha256                    Hash text
              clock <subcommand>        Control the simulated clock
              help                      Show help for a command


            """ + Self.globalOptions + """


                See 'iapctl help <command>' for details about a command.

                """
        expectGolden(HelpRenderer.render(SampleCommands.root, path: []), expected)
        #expect(try Binder.parse(arguments: ["help"], root: SampleCommands.root).helpText == expected)
        #expect(throws: UsageError.missingCommand(CommandPath(program: "iapctl"))) {
            try Binder.parse(arguments: [], root: SampleCommands.root)
        }
    }

    @Test func groupListsItsSubcommands() {
        let expected = """
            OVERVIEW: Manage hosted content downloads

            USAGE: iapctl download [<subcommand>]

            SUBCOMMANDS:
              list                      List downloads (default)
              start                     Start downloading


            """ + Self.globalOptions + """


                See 'iapctl help download <subcommand>' for details about a subcommand.

                """
        expectGolden(HelpRenderer.render(SampleCommands.download, path: ["download"]), expected)
    }

    @Test func variadicAndRepeatableShapes() throws {
        let finish = HelpRenderer.render(SampleCommands.finish, path: ["finish"])
        #expect(finish.contains("USAGE: iapctl finish [<TXID> ...] [--all]\n"))
        #expect(finish.contains("\n  <TXID> ...                The transactions to finish\n"))

        let start = try #require(SampleCommands.download.subcommand(named: "start"))
        let page = HelpRenderer.render(start, path: ["download", "start"])
        #expect(page.contains("USAGE: iapctl download start <ID> [--content <path> ...]\n"))
        #expect(page.contains("\n  --content <path>          A content file to serve (can be repeated)\n"))
    }

    @Test func sectionsComeInOrderAndOnlyWhenTheyApply() {
        func titles(_ page: String) -> [String] {
            page.split(separator: "\n").filter { $0.first?.isUppercase == true && $0.contains(":") }
                .map { String($0.prefix { $0 != ":" }) }
        }
        #expect(
            titles(HelpRenderer.render(SampleCommands.buy, path: ["buy"]))
                == ["OVERVIEW", "USAGE", "ARGUMENTS", "OPTIONS", "EXAMPLES", "GLOBAL OPTIONS"])
        #expect(
            titles(HelpRenderer.render(SampleCommands.config, path: ["config"]))
                == ["OVERVIEW", "USAGE", "SUBCOMMANDS", "GLOBAL OPTIONS"])
        let queue = CommandSpec(name: "queue", summary: "Show the queue")
        #expect(titles(HelpRenderer.render(queue, path: ["queue"])) == ["OVERVIEW", "USAGE", "GLOBAL OPTIONS"])
    }

    @Test func longLabelsPutTheirHelpOnTheNextLineAndLongUsageFolds() {
        let spec = CommandSpec(
            name: "verify",
            summary: "Verify a receipt",
            discussion:
                "First paragraph.\n\nExamples that keep their layout:\n  iapctl verify r.b64\n  iapctl verify -",
            options: [
                .value("shared-secret-for-subscriptions", "secret", help: "The app-specific shared secret"),
                .value("bundle-id", "id", help: "The expected bundle identifier"),
                .value("app-version", "version", help: "The expected app version"),
                .flag("exclude-old-transactions", help: "Only the latest renewal of each subscription"),
            ]
        )
        let page = HelpRenderer.render(spec, path: ["verify"])
        #expect(page.contains("USAGE: iapctl verify [<options>]\n"))
        #expect(
            page.contains(
                """
                  --shared-secret-for-subscriptions <secret>
                                              The app-specific shared secret
                  --bundle-id <id>            The expected bundle identifier

                """))
        #expect(
            page.contains(
                "First paragraph.\n\nExamples that keep their layout:\n  iapctl verify r.b64\n  iapctl verify -\n"))
        #expect(page.split(separator: "\n").allSatisfy { $0.count <= HelpRenderer.lineWidth })
    }

    @Test func renderingIsDeterministic() {
        let first = HelpRenderer.render(SampleCommands.root, path: [])
        for _ in 0..<10 { #expect(HelpRenderer.render(SampleCommands.root, path: []) == first) }
    }

    /// The Transaction Manager takes each command's usage from `usageLine` without rendering its
    /// page: for every command of this build it is the page's own `USAGE:` line.
    @Test func usageLineIsThePagesUsageLine() {
        var paths: [(CommandSpec, [String])] = CommandTable.leaves.map { ($0.spec, [$0.spec.name]) }
        for group in CommandTable.groups {
            paths.append((group.spec, [group.spec.name]))
            for child in group.children { paths.append((child.spec, [group.spec.name, child.spec.name])) }
        }
        #expect(paths.count > 40)
        for (spec, path) in paths {
            let page = HelpRenderer.render(spec, path: path)
            let line = page.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }.map { String($0.dropFirst(7)) }
            #expect(HelpRenderer.usageLine(spec, path: path) == line, "\(path)")
        }
    }
}
