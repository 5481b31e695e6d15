import Foundation
import Testing

@testable import IAPKit

/// A queued transaction the checkpoint names only by id is read from the journal when a command
/// asks for it (`PaymentQueue`). When the journal was damaged under it since, the read fails:
/// the command is refused with exit 65 naming the journal and `iapctl doctor`, nothing is
/// committed, and nothing traps (the machine reads the queue through a subscript that cannot
/// throw: it records the failure and the session throws it).
@Suite("Damage under a queued transaction")
struct QueueDamageTests {
    /// A store whose checkpoint and index cover one unfinished purchase, and the journal's
    /// last byte (inside that purchase's frame) flipped.
    static func damagedStore(_ dir: TemporaryDirectory) throws -> Store {
        let store = Store(path: dir.path + "/s")
        try store.write { s throws(StoreError) in
            try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1))
            try s.checkpoint()
        }
        let journal = Journal(file: try PosixFile.openForWriting(store.journalPath))
        let length = try store.read { s throws(StoreError) in s.journalLength }
        let index = try TransactionIndex(path: store.indexPath, journal: journal, committedLength: length)
        try index.checkpointIfNeeded(force: true)
        var bytes = dir.read("s/journal")
        bytes[bytes.count - 1] ^= 0x10
        dir.write("s/journal", bytes)
        return store
    }

    static func refusal(_ body: () throws(StoreError) -> Void) -> StoreError? {
        do throws(StoreError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("finish --all through the machine: exit 65 naming the journal and doctor, nothing committed")
    func machineRead() throws {
        let dir = TemporaryDirectory()
        let store = try Self.damagedStore(dir)
        let before = dir.read("s/journal")
        let error = Self.refusal { () throws(StoreError) in
            try store.write { s throws(StoreError) in _ = try s.apply(.finishAll) }
        }
        let refused = try #require(error)
        #expect(refused.exitCode == .badData)
        #expect(refused.description.contains(store.journalPath))
        #expect(refused.description.contains("iapctl doctor"))
        #expect(dir.read("s/journal") == before)
    }

    @Test("launch (redelivers the queue) and reading the queue: exit 65, no trap")
    func otherReads() throws {
        let dir = TemporaryDirectory()
        let store = try Self.damagedStore(dir)
        let launch = Self.refusal { () throws(StoreError) in
            try store.write { s throws(StoreError) in _ = try s.apply(.launch) }
        }
        #expect(launch?.exitCode == .badData)
        let queued = Self.refusal { () throws(StoreError) in
            _ = try store.read { s throws(StoreError) in try s.queuedTransactions() }
        }
        #expect(queued?.exitCode == .badData)
        // Reading through the subscript inside a read session: the failure is thrown after it.
        let subscripted = Self.refusal { () throws(StoreError) in
            _ = try store.read { s throws(StoreError) in s.state.queue.map(\.id) }
        }
        #expect(subscripted?.exitCode == .badData)
    }
}
