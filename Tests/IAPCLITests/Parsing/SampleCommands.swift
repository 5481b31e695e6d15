@testable import IAPCLI

/// A small command table in the shape of iapctl's, for the parser tests: leaf commands with
/// required, optional and variadic arguments, exclusive and required-one-of groups, repeatable
/// options, nested subcommands and a group with a default subcommand.
enum SampleCommands {
    static let states = ["purchasing", "purchased", "failed", "restored", "deferred"]

    static let buy = CommandSpec(
        name: "buy",
        summary: "Add a payment for a product",
        discussion: """
            The payment joins the queue in the purchasing state and completes as the store's \
            settings say: purchased, failed or deferred for Ask to Buy.
            """,
        arguments: [ArgumentSpec("ID", help: "The product identifier")],
        options: [
            .value("user", "id", help: "The user the payment is for"),
            .value("account", "name", help: "An account name; the user becomes SHA-256(NAME) in lowercase hex"),
            .value("quantity", "n", help: "How many, from 1 to 10 (default: 1)"),
        ],
        exclusive: [["user", "account"]],
        examples: ["iapctl buy com.x.coin42 --quantity 2", "iapctl buy com.x.vip2 --account alice"]
    )

    static let finish = CommandSpec(
        name: "finish",
        summary: "Finish transactions",
        arguments: [ArgumentSpec("TXID", help: "The transactions to finish", optional: true, variadic: true)],
        options: [.flag("all", help: "Finish every finishable transaction")],
        exclusive: [["TXID", "all"]],
        requiresOneOf: [["TXID", "all"]]
    )

    static let config = CommandSpec(
        name: "config",
        summary: "Read or change store settings",
        subcommands: [
            CommandSpec(
                name: "get",
                summary: "Show one setting, or all of them",
                arguments: [ArgumentSpec("KEY", help: "The setting to show", optional: true)]
            ),
            CommandSpec(
                name: "set",
                summary: "Change a setting",
                arguments: [
                    ArgumentSpec("KEY", help: "The setting to change"),
                    ArgumentSpec("VALUE", help: "Its new value"),
                ]
            ),
        ]
    )

    static let download = CommandSpec(
        name: "download",
        summary: "Manage hosted content downloads",
        subcommands: [
            CommandSpec(name: "list", summary: "List downloads"),
            CommandSpec(
                name: "start",
                summary: "Start downloading",
                arguments: [ArgumentSpec("ID", help: "The download")],
                options: [.repeatable("content", "path", help: "A content file to serve")]
            ),
        ],
        defaultSubcommand: "list"
    )

    static let root = CommandSpec(
        name: "iapctl",
        summary: "An in-app purchase simulator",
        subcommands: [
            buy,
            finish,
            CommandSpec(name: "queue", summary: "Show the unfinished transactions, oldest first"),
            config,
            download,
            CommandSpec(
                name: "dump",
                summary: "Print every transaction as JSON",
                options: [
                    .value("state", "state", help: "Only transactions in this state"),
                    .flag("unfinished", help: "Only unfinished transactions"),
                ]
            ),
            CommandSpec(
                name: "events",
                summary: "Print the notification log",
                options: [.value("since", "n", help: "Start after this sequence number")]
            ),
            CommandSpec(
                name: "sha256",
                summary: "Hash text",
                arguments: [ArgumentSpec("TEXT", help: "The text, or - for stdin")]
            ),
            CommandSpec(
                name: "clock",
                summary: "Control the simulated clock",
                subcommands: [
                    CommandSpec(
                        name: "advance",
                        summary: "Move the clock forward",
                        arguments: [ArgumentSpec("SECONDS", help: "How far")]
                    )
                ]
            ),
        ]
    )

    /// Parses, then reads typed values the way the real commands would, so one table covers both
    /// the binder's and the typed accessors' messages.
    static func parseAndRead(_ arguments: [String]) throws(UsageError) -> ParsedInvocation {
        let invocation = try Binder.parse(arguments: arguments, root: root)
        guard !invocation.wantsHelp && !invocation.wantsVersion else { return invocation }
        switch invocation.path {
        case ["buy"]: _ = try invocation.int("quantity", in: 1...10)
        case ["dump"]: _ = try invocation.choice("state", among: states)
        case ["events"]: _ = try invocation.int("since", in: 0...Int.max)
        case ["clock", "advance"]: _ = try invocation.double("SECONDS", in: 0...86_400)
        case ["config", "set"] where invocation.positional("KEY") == "payments-allowed":
            _ = try invocation.bool("VALUE")
        default: break
        }
        return invocation
    }
}
