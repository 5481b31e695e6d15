import Foundation
import IAPKit
import Testing

/// `Store.holdsLock` with `syncs` false (`iapctl run`'s temporary store): one object takes the
/// lock once and trusts its kept session between commands, and its index and checkpoints are
/// not synced. What it leaves must be what one object per command leaves.
@Suite("A store that holds its lock")
struct HeldLockStoreTests {
    static func held(_ path: String) -> Store {
        let store = Store(path: path)
        store.keepsSession = true
        store.syncs = false
        store.holdsLock = true
        return store
    }

    static func buyAndFinish(_ store: Store, _ n: Int) throws {
        _ = try store.write { s throws(StoreError) in
            try s.apply(.buy(ProductID(n % 2 == 0 ? "com.x.coin42" : "com.x.coin210"), user: nil, quantity: 1))
        }
        _ = try store.write { s throws(StoreError) in try s.apply(.finishAll) }
    }

    @Test("many commands on one held object leave the files one object per command leaves")
    func sameFiles() throws {
        let a = TemporaryDirectory()
        let b = TemporaryDirectory()
        let held = Self.held(a.path + "/s")
        // Past several checkpoints of the state (32 KiB) and of the index (64 KiB).
        for n in 0..<700 {
            try Self.buyAndFinish(held, n)
            try Self.buyAndFinish(Store(path: b.path + "/s"), n)
            if n % 100 == 99 {
                // History read back through the held session after the index left memory.
                let first = try held.read { s throws(StoreError) in try s.transaction(TransactionID.first) }
                #expect(first?.finished == true)
                let id = TransactionID(TransactionID.first.rawValue + UInt64(n))
                let latest = try held.read { s throws(StoreError) in try s.transaction(id) }
                #expect(latest?.finished == true)
            }
        }
        #expect(a.read("s/journal").count > 128 << 10)
        for file in ["journal", "state", "transactions.idx"] {
            #expect(a.read("s/" + file) == b.read("s/" + file), "\(file) differs")
        }
        let (dumpA, eventsA) = try StorePromiseTests.dumpAndEvents(held)
        held.release()
        let (dumpB, eventsB) = try StorePromiseTests.dumpAndEvents(Store(path: b.path + "/s"))
        #expect(dumpA == dumpB)
        #expect(eventsA == eventsB)
        #expect(Doctor.check(Store(path: a.path + "/s")).isClean)
    }

    @Test("replacing the store under a held lock drops the kept session, and release lets others in")
    func replaceAndRelease() throws {
        let dir = TemporaryDirectory()
        let held = Self.held(dir.path + "/s")
        try Self.buyAndFinish(held, 0)
        try held.create(StoreCreation(), force: true)
        try Self.buyAndFinish(held, 1)
        let count = try held.read { s throws(StoreError) in s.state.nextTransactionID.rawValue - TransactionID.first.rawValue }
        #expect(count == 1)
        // Another object must wait while the lock is held, and gets in once it is released.
        let other = Store(path: dir.path + "/s", lockTimeout: 0)
        #expect(throws: StoreError.self) { try other.write { _ throws(StoreError) in } }
        held.release()
        try Self.buyAndFinish(other, 2)
        #expect(Doctor.check(other).isClean)
    }
}
