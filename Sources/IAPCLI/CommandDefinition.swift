import IAPKit

/// A command: its declaration (for parsing and help) and what it does.
struct CommandDefinition: Sendable {
    let spec: CommandSpec
    let run: @Sendable (CommandContext) throws -> ExitCode

    init(_ spec: CommandSpec, run: @escaping @Sendable (CommandContext) throws -> ExitCode) {
        self.spec = spec
        self.run = run
    }
}

/// Every command of `iapctl`, by path (`"config set"`), in the order help lists them.
enum CommandTable {
    static let groups: [(spec: CommandSpec, children: [CommandDefinition])] = [
        (ConfigCommand.group, ConfigCommand.children),
        (DownloadCommand.group, DownloadCommand.children),
        (FaultCommand.group, FaultCommand.children),
        (ReceiptCommand.group, ReceiptCommand.children),
        (ClockCommand.group, ClockCommand.children),
        (CatalogCommand.group, CatalogCommand.children),
        (JWSCommand.group, JWSCommand.children),
        (OfferKeyCommand.group, OfferKeyCommand.children),
        (RefundCommand.group, RefundCommand.children),
        (NotificationsCommand.group, NotificationsCommand.children),
        (FamilyCommand.group, FamilyCommand.children),
    ]

    static let leaves: [CommandDefinition] = [
        InitCommand.definition, ProductsCommand.definition, CanPayCommand.definition, BuyCommand.definition,
        QueueCommand.definition, FinishCommand.definition, RestoreCommand.definition, DumpCommand.definition,
        ShowCommand.definition, LaunchCommand.definition, EventsCommand.definition, Sha256Command.definition,
        DoctorCommand.definition, VerifyCommand.definition, VerifyReceiptCommand.definition,
        RefreshReceiptCommand.definition,
        DownloadsCommand.definition, PromoteCommand.definition, StoredPaymentsCommand.definition,
        AcceptStoredCommand.definition, ApproveCommand.definition, DeclineCommand.definition, ResolveCommand.definition,
        LedgerCommand.definition, ConsumeCommand.definition, OwnedCommand.definition,
        SubscriptionsCommand.definition, AutoRenewCommand.definition, ExpireCommand.definition, RenewCommand.definition,
        PriceIncreaseCommand.definition, PriceConsentCommand.definition, DeleteCommand.definition, ClearCommand.definition,
        RunCommand.definition, ServeCommand.definition, UICommand.definition,
    ]

    /// The root spec the binder walks.
    static let root: CommandSpec = CommandSpec(
        name: "iapctl",
        summary: "An in-app purchase simulator and inspector: StoreKit's payment queue, on your shell",
        discussion: """
            A store is a directory (--store, else $IAPCTL_STORE, else ./.iapctl) created by 'iapctl init' or the first command that writes \
            with the built-in catalog or the one --catalog names. Every command prints text for people, \
            or one JSON document with --json. Exit codes: 0 done, 1 the store said no, 3 not found, \
            4 not allowed in this state, 5 pending, 64 usage, 65 bad data, 66 unreadable input, \
            69 service cannot start, 73 output file cannot be written, 74 store write error, 75 busy.
            """,
        subcommands: leaves.map(\.spec).prefix(4) + groups.map(\.spec) + leaves.map(\.spec).dropFirst(4)
    )

    /// The code to run for a command path.
    static func runner(for path: [String]) -> ((CommandContext) throws -> ExitCode)? {
        if path.count == 1 {
            for i in leaves.indices where leaves[i].spec.name == path[0] { return leaves[i].run }
        }
        if path.count == 2, let group = groups.first(where: { $0.spec.name == path[0] }),
            let child = group.children.first(where: { $0.spec.name == path[1] })
        {
            return child.run
        }
        return nil
    }
}
