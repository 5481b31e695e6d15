import Testing

@testable import IAPKit

/// The checkpoint's payment queue is located at load, not decoded, and behaves as the list of
/// unfinished transactions it stands for.
@Suite("The payment queue of a checkpoint")
struct PaymentQueueTests {
    static func state(unfinished: Int) throws -> StoreState {
        var h = MachineHarness()
        for _ in 0..<unfinished { _ = try h.buy("com.x.coin42") }
        _ = try h.buy("com.x.noads")
        return h.state
    }

    @Test("a checkpoint round-trips the queue, and changing it works on stored records")
    func roundTrip() throws {
        let state = try Self.state(unfinished: 50)
        let file = StateFile(journalLength: 16, catalogName: "built-in", catalogSHA256: "x", state: state)
        let decoded = try StateFile.decode(file.encoded(), path: "state")
        #expect(decoded.state == state)
        #expect(decoded.state.queue.map(\.id) == state.queue.map(\.id))
        #expect((0..<decoded.state.queue.count).allSatisfy { decoded.state.queue.storedRecord($0) != nil }, "nothing decoded")
        // Finish one in the middle, change another: the rest stay stored, and the result equals
        // the same changes on the decoded queue.
        var changed = decoded.state
        var expected = state
        var finished = state.queue[10]
        finished.finished = true
        var deferred = state.queue[20]
        deferred.state = .deferred
        for t in [finished, deferred] {
            changed.upsert(t)
            expected.upsert(t)
        }
        #expect(changed == expected)
        #expect(changed.queue.count == 50)
        #expect(changed.queued(deferred.id)?.state == .deferred)
        #expect(changed.queued(finished.id) == nil)
        // A checkpoint of the changed queue copies the stored records and encodes the rest.
        let again = try StateFile.decode(
            StateFile(journalLength: 16, catalogName: "built-in", catalogSHA256: "x", state: changed).encoded(), path: "state")
        #expect(again.state == expected)
    }
}
