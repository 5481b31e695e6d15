import IAPKit
import IAPRuntime

/// The store's transactions newest first, as the Transaction Manager pages them.
///
/// Paging newest first with filters and a total needs every transaction's product, state and
/// user; reading them all for each page would cost a scan of the journal per scroll. So the list
/// keeps one compact row per transaction, built once for each committed state of the store (the
/// journal's length, the event and transaction counters) and reused by every page until the
/// next commit. Only the rows on the page are then read whole, through the index.
///
/// The account's rows and each family member's are kept apart, as `TransactionFilter` keeps
/// them (`iapctl dump` lists the account's, `dump --member NAME` a member's): a member's list
/// is scanned the first time it is asked for after a commit.
package final class TransactionList: @unchecked Sendable {
    /// What the filters look at, for one transaction.
    package struct Row: Sendable, Equatable {
        package let id: TransactionID
        package let product: ProductID
        package let state: String
        package let user: UserID?
    }

    /// Which committed state of the store the rows describe.
    private struct Version: Equatable {
        let journalLength: UInt64
        let nextEventSeq: UInt64
        let nextTransactionID: TransactionID
        let format: Int

        init(_ s: StoreSession) {
            journalLength = s.journalLength
            nextEventSeq = s.state.nextEventSeq
            nextTransactionID = s.state.nextTransactionID
            format = s.format
        }
    }

    /// Guards `cached`: the server's connection threads share one list.
    private let lock = Lock()
    /// The rows of one committed state, by owner: "" the account, else a member's name.
    private var cached: (version: Version, rows: [String: [Row]])?

    package init() {}

    /// Every transaction of the account (or of family member `member`) in the store the session
    /// reads, deleted ones left out, newest first: `iapctl dump [--member NAME]` reversed.
    package func rows(_ session: StoreSession, member: String? = nil) throws(StoreError) -> [Row] {
        let version = Version(session)
        let owner = member ?? ""
        if let hit = lock.withLock({ cached }), hit.version == version, let rows = hit.rows[owner] { return rows }
        var rows: [Row] = []
        if member == nil {
            rows.reserveCapacity(Int(session.state.nextTransactionID.rawValue - TransactionID.first.rawValue))
        }
        try session.forEachTransaction(TransactionFilter(member: member)) { t throws(StoreError) in
            rows.append(Row(id: t.id, product: t.productID, state: t.state.name, user: t.userID))
        }
        rows.reverse()
        lock.withLock {
            if let hit = cached, hit.version == version {
                cached?.rows[owner] = rows
            } else {
                cached = (version, [owner: rows])
            }
        }
        return rows
    }

    /// One page of the matches and how many there are.
    package func page(_ query: TransactionListQuery, _ session: StoreSession) throws(UIRequestError) -> (
        total: Int, transactions: [Transaction]
    ) {
        if let member = query.member {
            // The CLI's own check and message: `--member` of an unknown name, or on a store
            // without a family, names the members or `family add`.
            do {
                try session.state.checkMember(member)
            } catch {
                throw .badRequest("\(error)")
            }
        }
        let all: [Row]
        do {
            all = try rows(session, member: query.member)
        } catch {
            throw .internalError("cannot read the store's transactions: \(error)")
        }
        let account = query.account
        let accountUser = account.map(UserID.forAccount)
        let matches =
            query.product == nil && query.state == nil && account == nil
            ? all
            : all.filter { row in
                if let product = query.product, row.product != product { return false }
                if let state = query.state, row.state != state { return false }
                if let account {
                    guard let user = row.user, user.rawValue == account || user == accountUser else { return false }
                }
                return true
            }
        let start = min(query.offset, matches.count)
        let end = min(start + query.limit, matches.count)
        var transactions: [Transaction] = []
        transactions.reserveCapacity(end - start)
        do {
            for row in matches[start..<end] {
                if let t = try session.transaction(row.id) { transactions.append(t) }
            }
        } catch {
            throw .internalError("cannot read the store's transactions: \(error)")
        }
        return (matches.count, transactions)
    }
}
