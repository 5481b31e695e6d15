import IAPKit

/// A command: its declaration (for parsing and help) and what it does. A class, not a struct:
/// `run` holds one while it parses (`CommandDefinition?`), and an optional of a struct this
/// large is copied and destroyed through its runtime metadata, which a `buy` would otherwise
/// instantiate at start-up for nothing else (issue 12); an optional reference is a pointer.
final class CommandDefinition: Sendable {
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

    /// The program's name, as help and usage errors spell it.
    static let programName = "iapctl"

    /// The root spec the binder walks.
    static let root: CommandSpec = CommandSpec(
        name: programName,
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

    /// The leaf command named `name`, built alone: each command's definition is a lazy global of
    /// its own, so this builds one where `leaves` and `root` build all of them (a third of a
    /// one-process `buy`). Nil for a group, `help` or any other word. `CommandTableTests` holds
    /// it to `leaves`, name for name.
    static func leaf(named name: String) -> CommandDefinition? {
        switch name {
        case "init": return InitCommand.definition
        case "products": return ProductsCommand.definition
        case "can-pay": return CanPayCommand.definition
        case "buy": return BuyCommand.definition
        case "queue": return QueueCommand.definition
        case "finish": return FinishCommand.definition
        case "restore": return RestoreCommand.definition
        case "dump": return DumpCommand.definition
        case "show": return ShowCommand.definition
        case "launch": return LaunchCommand.definition
        case "events": return EventsCommand.definition
        case "sha256": return Sha256Command.definition
        case "doctor": return DoctorCommand.definition
        case "verify": return VerifyCommand.definition
        case "verify-receipt": return VerifyReceiptCommand.definition
        case "refresh-receipt": return RefreshReceiptCommand.definition
        case "downloads": return DownloadsCommand.definition
        case "promote": return PromoteCommand.definition
        case "stored-payments": return StoredPaymentsCommand.definition
        case "accept-stored": return AcceptStoredCommand.definition
        case "approve": return ApproveCommand.definition
        case "decline": return DeclineCommand.definition
        case "resolve": return ResolveCommand.definition
        case "ledger": return LedgerCommand.definition
        case "consume": return ConsumeCommand.definition
        case "owned": return OwnedCommand.definition
        case "subscriptions": return SubscriptionsCommand.definition
        case "auto-renew": return AutoRenewCommand.definition
        case "expire": return ExpireCommand.definition
        case "renew": return RenewCommand.definition
        case "price-increase": return PriceIncreaseCommand.definition
        case "price-consent": return PriceConsentCommand.definition
        case "delete": return DeleteCommand.definition
        case "clear": return ClearCommand.definition
        case "run": return RunCommand.definition
        case "serve": return ServeCommand.definition
        case "ui": return UICommand.definition
        default: return nil
        }
    }

    /// The first word of `arguments` that names a leaf command (`leaf(named:)`), or nil. A
    /// plain loop: `arguments.lazy.compactMap(leaf(named:)).first` runs generic code whose
    /// types' metadata a command line would instantiate at start-up for this alone.
    static func firstLeaf(in arguments: [String]) -> CommandDefinition? {
        for word in arguments {
            if let leaf = leaf(named: word) { return leaf }
        }
        return nil
    }

    /// A root holding only `leaf`: what `run` parses a command line against first. A word that
    /// names another command fails to bind against it, and `run` then parses the line against
    /// the full `root`; a line it does bind binds as against `root`, word for word (the binder
    /// walks the same specs), so the result is the same invocation.
    static func root(alone leaf: CommandDefinition) -> CommandSpec {
        CommandSpec(name: programName, summary: "", subcommands: [leaf.spec])
    }

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
