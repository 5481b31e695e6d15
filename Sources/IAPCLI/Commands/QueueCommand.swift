import IAPKit

/// `iapctl queue`: the payment queue, oldest first.
enum QueueCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "queue",
            summary: "List unfinished transactions (the payment queue), oldest first",
            discussion: """
                Transactions stay here until finished, failed ones included, as in StoreKit. With --member NAME: \
                what a family member's device receives, its current FAMILY_SHARED transactions (the member's \
                device is not simulated, so they count as delivered and finished; see docs/family.md).
                """,
            options: [MemberOption.spec],
            examples: ["iapctl queue --json", "iapctl queue --member alex"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        try c.read { s throws(StoreError) in
            if let member = try MemberOption.member(c, in: s.state) {
                var shared = s.state.familyGroup.shares.filter { $0.member == member }.map(\.latest)
                // And what the member bought itself (its own non-consumables).
                try s.forEachTransaction(TransactionFilter(member: member)) { t throws(StoreError) in
                    if t.isMemberPurchase, t.productType == .nonConsumable { shared.append(t) }
                }
                shared.sort { $0.id < $1.id }
                if c.json {
                    c.printTransactions(shared)
                } else if shared.isEmpty {
                    c.stdout.line("\(member) has nothing through the family")
                } else {
                    c.stdout.write(TransactionText.table(shared))
                }
                return .success
            }
            let queue = try s.queuedTransactions()
            if c.json {
                c.printTransactions(queue)
            } else if queue.isEmpty {
                c.stdout.line("the queue is empty")
            } else {
                c.stdout.write(TransactionText.table(Array(queue)))
            }
            return .success
        }
    }
}
