import IAPKit

/// `iapctl family add|remove|list`: the store account's Family Sharing group (docs/family.md).
enum FamilyCommand {
    static let group = CommandSpec(
        name: "family",
        summary: "Family Sharing: add, remove and list the account's family members",
        discussion: """
            A familyShareable non-consumable or auto-renewable subscription the account buys is shared with \
            every member: each gets a FAMILY_SHARED transaction of its own (its own transaction id and \
            original transaction id, inAppOwnershipType FAMILY_SHARED), and members who join later get \
            what the account has then. Renewals of a shared subscription renew the members' transactions. \
            A member leaving, or a refund of the purchase, revokes them (event familyTransactionRevoked, \
            notification REVOKE, revocationType FAMILY_REVOKE). Read a member's transactions with --member \
            NAME on queue, dump, subscriptions, jws and receipt. See docs/family.md.
            """,
        subcommands: [add.spec, remove.spec, list.spec]
    )

    static let children = [add, remove, list]

    static let add = CommandDefinition(
        CommandSpec(
            name: "add",
            summary: "Add a family member; it gets the account's shareable purchases",
            arguments: [ArgumentSpec("NAME", help: "1-32 letters, digits, '.', '_' or '-'")],
            examples: ["iapctl family add alex", "iapctl family add sam --json"]
        ), run: runAdd)

    static let remove = CommandDefinition(
        CommandSpec(
            name: "remove",
            summary: "Remove a family member: its shared transactions are revoked (REVOKE)",
            arguments: [ArgumentSpec("NAME", help: "A member (see 'iapctl family list')")],
            examples: ["iapctl family remove alex"]
        ), run: runRemove)

    static let list = CommandDefinition(
        CommandSpec(
            name: "list",
            summary: "List the family members and what each has through the family",
            examples: ["iapctl family list --json"]
        ), run: runList)

    static func runAdd(_ c: CommandContext) throws -> ExitCode { try change(c, .add(c.invocation.positional("NAME") ?? "")) }

    static func runRemove(_ c: CommandContext) throws -> ExitCode {
        try change(c, .remove(c.invocation.positional("NAME") ?? ""))
    }

    private static func change(_ c: CommandContext, _ request: FamilyRequest) throws -> ExitCode {
        try c.write { s throws(StoreError) in
            let effects = try s.apply(.family(request))
            guard case .family(let result) = effects.outcome else { return ExitCode(effects.outcome) }
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("familyMember")
                    w.string(result.member)
                    w.key(result.added ? "added" : "removed")
                    w.bool(true)
                    w.key("shared")
                    w.beginArray()
                    for t in result.shared { TransactionJSON.write(t, into: &w) }
                    w.endArray()
                    w.key("revoked")
                    w.beginArray()
                    for t in result.revoked { TransactionJSON.write(t, into: &w) }
                    w.endArray()
                    w.endObject()
                }
            } else {
                // The events' order: a new member, then what it got; what a leaving member loses,
                // then its leaving.
                if result.added {
                    c.stdout.line(EventText.family(.memberAdded(result.member)))
                    for t in result.shared { c.stdout.line(EventText.family(.transactionShared(t))) }
                } else {
                    for t in result.revoked { c.stdout.line(EventText.family(.transactionRevoked(t))) }
                    c.stdout.line(EventText.family(.memberRemoved(result.member)))
                }
            }
            return ExitCode(effects.outcome)
        }
    }

    static func runList(_ c: CommandContext) throws -> ExitCode {
        try c.read { s throws(StoreError) in
            let family = s.state.familyGroup
            if c.json {
                c.printJSON { w in
                    w.beginArray()
                    for m in family.members {
                        w.beginObject()
                        w.key("name")
                        w.string(m.name)
                        w.key("joinedDate")
                        w.string(m.joined.rfc3339)
                        w.key("shared")
                        w.beginArray()
                        for share in family.shares where share.member == m.name {
                            TransactionJSON.write(share.latest, into: &w)
                        }
                        w.endArray()
                        w.endObject()
                    }
                    w.endArray()
                }
            } else if family.members.isEmpty {
                c.stdout.line("no family members (add one with 'iapctl family add NAME')")
            } else {
                var table = TextTable(["MEMBER", "JOINED", "SHARED"])
                for m in family.members {
                    let shared = family.shares.filter { $0.member == m.name }.map { "\($0.latest.productID) (\($0.latest.id))" }
                    table.add([m.name, m.joined.rfc3339, shared.isEmpty ? "-" : shared.joined(separator: ", ")])
                }
                c.stdout.write(table.rendered)
            }
            return .success
        }
    }
}

/// `--member NAME`: read a family member's transactions instead of the account's.
enum MemberOption {
    static let spec = OptionSpec.value("member", "name", help: "A family member's FAMILY_SHARED view (see 'iapctl family list')")

    /// The member named by `--member`, checked against the family; nil without the option.
    static func member(_ c: CommandContext, in state: StoreState) throws(StoreError) -> String? {
        guard let name = c.invocation.value("member") else { return nil }
        try state.checkMember(name)
        return name
    }
}
