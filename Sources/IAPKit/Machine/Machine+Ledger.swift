/// RMStore's keychain persistence (REFERENCE section 4), kept in `state.ledger`.
///
/// Counting happens at delivery, as RMStore's `finishTransaction:queue:` calls
/// `persistTransaction:`: when a purchased or restored transaction is finished (with
/// `finish-after-downloads`, when it is reported finished after its downloads). Failed
/// transactions, and those reported failed because a download did not finish, count nothing.
extension Machine {
    /// The most units one `consume` may use up.
    static let maximumConsumeCount = 1_000_000

    /// Credits a transaction that was just delivered.
    mutating func credit(_ t: Transaction) {
        guard t.isDelivered else { return }
        // Updated in place: one lookup of the product's entry, not a read and a write.
        Self.deliver(t.quantity, to: &state.ledger[t.productID, default: LedgerEntry()])
    }

    private static func deliver(_ units: Int, to entry: inout LedgerEntry) {
        entry.purchases += 1
        entry.units += units
    }

    /// RMStore's `consumeProductOfIdentifier:`: never below zero, consumables only.
    mutating func consume(_ id: ProductID, count: Int, into effects: inout Effects) throws(StoreError) {
        guard let product = catalog[id] else { throw .unknownProduct(id, closest: catalog.closest(to: id)) }
        guard (1...Machine.maximumConsumeCount).contains(count) else {
            throw .badArgument(.consumeCount(count, maximum: Machine.maximumConsumeCount))
        }
        guard product.type == .consumable else {
            throw .refused(.consumeNonConsumable(id, product.type))
        }
        var entry = state.ledger[id] ?? LedgerEntry()
        guard entry.balance >= count else {
            throw .refused(.consumeAboveBalance(id, count: count, balance: entry.balance))
        }
        entry.consumed += count
        state.ledger[id] = entry
        emit(.productConsumed(id, count: count, balance: entry.balance), into: &effects)
        effects.outcome = .consumed(id, count: count, balance: entry.balance)
    }
}
