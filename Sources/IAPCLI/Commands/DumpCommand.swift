import IAPKit

/// `iapctl dump`: every persisted transaction, streamed as a JSON array.
enum DumpCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "dump",
            summary: "Print every persisted transaction as a JSON array (streamed)",
            discussion: """
                Always JSON, one transaction a line, oldest first. Memory stays flat however large the store is. \
                The account's own transactions; with --member NAME a family member's FAMILY_SHARED ones.
                """,
            options: [
                .value("product", "id", help: "Only this product"),
                .value("state", "state", help: "Only this state: \(TransactionState.allNames.joined(separator: ", "))"),
                .flag("unfinished", help: "Only unfinished transactions"),
                .value("user", "id", help: "Only this applicationUsername"),
                .value("account", "name", help: "Only the user SHA-256(name)"),
                MemberOption.spec,
            ],
            exclusive: [["user", "account"]],
            examples: ["iapctl dump --product com.x.coin42 --state purchased", "iapctl dump | jq length"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let filter = TransactionFilter(
            product: i.value("product").map(ProductID.init), state: try i.choice("state", among: TransactionState.allNames),
            unfinishedOnly: i.flag("unfinished"), user: try UserArgument.user(from: i))
        return try c.read { s throws(StoreError) in
            var filter = filter
            filter.member = try MemberOption.member(c, in: s.state)
            var sink = ConsoleSink(console: c.stdout)
            try s.dump(filter, into: &sink)
            return .success
        }
    }
}
