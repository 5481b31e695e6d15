import Foundation
import Testing

@testable import IAPKit

/// Issue 6: every store file damaged one byte at a time (a flipped bit, a truncation, an
/// append): the store either refuses with exit 65 or loads cleanly with exactly what it held;
/// never a crash, never silent loss.
@Suite("Damage every byte of every store file")
struct DamageEveryByteTests {
    /// A small store touching every record kind, with its index folded to disk.
    static func makeStore(_ dir: TemporaryDirectory) throws -> Store {
        let store = Store(path: dir.path + "/s")
        try store.write { s throws(StoreError) in
            try s.apply(.buy(ProductID("com.x.coin42"), user: UserID("u"), quantity: 2))
            try s.apply(.buy(ProductID("com.x.noads"), user: nil, quantity: 1))
            try s.apply(.buy(ProductID("com.x.vip2"), user: nil, quantity: 1))
            try s.apply(.finish([TransactionID.first]))
            try s.apply(.setSetting(key: "storefront", value: "JPN"))
            try s.apply(.restore(user: nil))
            // A checkpoint covering the whole journal: every byte of it is then committed data,
            // so any change to it must be refused. (Past the checkpoint a short journal reads as
            // commits that did not happen: StorePromiseTests' torn-tail tests cover that.)
            try s.checkpoint()
        }
        // Fold the journal into the index now, so the index file exists to be damaged.
        let journal = Journal(file: try PosixFile.openForWriting(store.journalPath))
        let length = try store.read { s throws(StoreError) in s.journalLength }
        let index = try TransactionIndex(path: store.indexPath, journal: journal, committedLength: length)
        try index.checkpointIfNeeded(force: true)
        return store
    }

    /// What a reader sees: dump, events and the working state; or the exit code of its refusal.
    enum Observation: Equatable {
        case loaded(String)
        case refused(ExitCode)
    }

    static func observe(_ store: Store) -> Observation {
        do {
            return .loaded(
                try store.read { s throws(StoreError) in
                    var dump = BufferSink()
                    try s.dump(TransactionFilter(), into: &dump)
                    var events = BufferSink()
                    try s.events(since: 0, into: &events)
                    return dump.string + events.string + "\(s.state.queue.map(\.id))\(s.state.settings)"
                })
        } catch {
            return .refused(error.exitCode)
        }
    }

    enum Damage: String, CaseIterable, Sendable { case flip, truncate, append }

    @Test("each file, each byte", arguments: ["state", "journal", "catalog", "catalog.bin", "transactions.idx"], Damage.allCases)
    func damage(file: String, kind: Damage) throws {
        let dir = TemporaryDirectory()
        let store = try Self.makeStore(dir)
        guard case .loaded(let original) = Self.observe(store) else {
            Issue.record("the undamaged store must load")
            return
        }
        let path = dir.path + "/s/" + file
        let pristine = dir.read("s/" + file)
        #expect(!pristine.isEmpty, "\(file) must exist")
        var clean = 0
        var refused = 0
        let positions: [Int] = kind == .append ? [1, 2, 7, 16, 100] : Array(0..<pristine.count)
        for position in positions {
            var bytes = pristine
            switch kind {
            case .flip: bytes[position] ^= 0x10
            case .truncate: bytes.removeLast(bytes.count - position)
            case .append: bytes += (0..<position).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0xA7) }
            }
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            switch Self.observe(store) {
            case .loaded(let seen):
                #expect(seen == original, "\(file) \(kind) at \(position): loaded with different content (silent loss)")
                clean += 1
            case .refused(let code):
                #expect(code == .badData, "\(file) \(kind) at \(position): exit \(code.rawValue), expected 65")
                refused += 1
            }
            // Restore the file for the next position (a clean load may have rewritten nothing:
            // readers never write).
            _ = FileManager.default.createFile(atPath: path, contents: Data(pristine))
        }
        #expect(clean + refused == positions.count)
        print("\(file) \(kind.rawValue): \(positions.count) damaged copies, \(refused) refused with 65, \(clean) loaded cleanly")
    }
}
