import Foundation
import Testing

@testable import IAPKit

/// The `state` checkpoint is rewritten when the journal has grown past it by twice its size,
/// between 4 KiB and 32 KiB (`Store.checkpointBound(stateSize:)`): every command replays that
/// tail, so a young store's is kept short, and a store whose checkpoint is large waits longer.
@Suite("The checkpoint's bound follows the checkpoint's size")
struct CheckpointBoundTests {
    @Test("the bound is twice the checkpoint's size, at least 4 KiB and at most 32 KiB")
    func bound() {
        #expect(Store.checkpointBound(stateSize: 0) == 4096)
        #expect(Store.checkpointBound(stateSize: 300) == 4096)
        #expect(Store.checkpointBound(stateSize: 3000) == 6000)
        #expect(Store.checkpointBound(stateSize: 16384) == 32768)
        #expect(Store.checkpointBound(stateSize: 1 << 20) == 32768)
    }

    /// How far the journal ran ahead of the checkpoint, at most, over `buys` one-buy commits.
    static func largestTail(queued: Int, buys: Int) throws -> (tail: UInt64, stateSize: Int) {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try store.create(StoreCreation(), force: true)
        if queued > 0 {
            try store.write { s throws(StoreError) in
                _ = try s.apply(batch: Array(repeating: .buy(ProductID("com.x.coin42"), user: nil, quantity: 1), count: queued))
                try s.checkpoint()
            }
        }
        var largest: UInt64 = 0
        var stateSize = 0
        for _ in 0..<buys {
            try store.write { s throws(StoreError) in
                _ = try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1))
            }
            let stateBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path + "/s/state")))
            let journalLength = try FileManager.default.attributesOfItem(atPath: dir.path + "/s/journal")[.size] as! Int
            let state = try StateFile.decode(stateBytes, path: "state")
            largest = max(largest, UInt64(journalLength) - state.journalLength)
            stateSize = stateBytes.count
        }
        return (largest, stateSize)
    }

    @Test("a young store's checkpoint keeps within 4 KiB of the journal, and is not rewritten at every commit")
    func young() throws {
        let (tail, stateSize) = try Self.largestTail(queued: 0, buys: 120)
        #expect(stateSize < 2048)
        #expect(tail < 4096)
        // A commit is about 150 bytes: the tail grew to near the bound before each rewrite.
        #expect(tail >= 4096 - 400)
    }

    @Test("a store with a long queue (a large checkpoint) lets the journal run up to 32 KiB ahead")
    func longQueue() throws {
        let (tail, stateSize) = try Self.largestTail(queued: 20_000, buys: 300)
        #expect(stateSize >= 16384)
        #expect(tail < 32768)
        #expect(tail >= 32768 - 400)
    }
}
