import Testing

@testable import IAPKit

/// The checkpoint holds the payment queue as ids; the queue reads transactions from the journal and behaves as the list of
/// unfinished transactions it stands for.
@Suite("The payment queue of a checkpoint")
struct PaymentQueueTests {
    static func state(unfinished: Int) throws -> StoreState {
        var h = MachineHarness()
        for _ in 0..<unfinished { _ = try h.buy("com.x.coin42") }
        _ = try h.buy("com.x.noads")
        return h.state
    }

    @Test("a checkpoint holds the queue's ids, and the queue reads the rest from its source")
    func roundTrip() throws {
        let state = try Self.state(unfinished: 50)
        let file = StateFile(journalLength: 16, catalogName: "built-in", catalogSHA256: "x", state: state)
        let decoded = try StateFile.decode(file.encoded(), path: "state")
        // The checkpoint holds ids only: the transactions come from the source (the journal).
        #expect(decoded.state.queue.ids == state.queue.ids)
        #expect(!decoded.state.queue.isDecoded)
        var none = state
        none.replaceQueue(with: [])
        let emptyQueue = StateFile(journalLength: 16, catalogName: "built-in", catalogSHA256: "x", state: none)
        #expect(file.encoded().count - emptyQueue.encoded().count <= 9 + 50 * 2, "the first id, then a byte or two each")
        // The journal's latest versions, as the index finds them.
        var reads = 0
        var journal = Dictionary(uniqueKeysWithValues: state.queue.map { ($0.id, $0) })
        let source = PaymentQueue.Source { id in
            reads += 1
            return journal[id]
        }
        var loaded = decoded.state
        loaded.attachQueueSource(source)
        #expect(loaded == state)
        #expect(reads == 51)
        // Finish one in the middle, change another: the rest stay stored, and the result equals
        // the same changes on the decoded queue.
        var changed = loaded
        var expected = state
        var finished = state.queue[10]
        finished.disposition = .finished
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
        // A checkpoint of the changed queue lists the remaining ids; the changes are in the journal.
        journal[finished.id] = finished
        journal[deferred.id] = deferred
        let again = try StateFile.decode(
            StateFile(journalLength: 16, catalogName: "built-in", catalogSHA256: "x", state: changed).encoded(), path: "state")
        var reloaded = again.state
        reloaded.attachQueueSource(source)
        #expect(reloaded == expected)
    }

    @Test("a v2 checkpoint (each queued transaction's record) still loads, as ids")
    func versionTwo() throws {
        let state = try Self.state(unfinished: 5)
        var body = ByteWriter()
        body.varint(16)
        body.string("built-in")
        body.string("x")
        StateDeltaCodec.encode(from: nil, to: state, into: &body)
        body.varint(UInt64(state.queue.count))
        for t in state.queue {
            var record = ByteWriter()
            TransactionRecordCodec.encode(t, into: &record)
            body.varint(UInt64(record.bytes.count))
            body.raw(record.bytes)
        }
        let bytes = ChecksummedFile.encode(kind: StateFile.kind, version: 2, body: body.bytes)
        #expect(try StateFile.format(of: bytes, path: "state") == 2)
        var loaded = try StateFile.decode(bytes, path: "state").state
        #expect(loaded.queue.ids == state.queue.ids)
        let byID = Dictionary(uniqueKeysWithValues: state.queue.map { ($0.id, $0) })
        loaded.attachQueueSource(PaymentQueue.Source { byID[$0] })
        #expect(loaded == state)
    }

    @Test("held transactions: a list while few, a dictionary past 16, the same queue either way")
    func heldFewAndMany() throws {
        let all = Array(try Self.state(unfinished: 40).queue)
        var queue = PaymentQueue()
        var model: [Transaction] = []
        // Grow past the list's 16, replace some, remove some from both ends and the middle.
        for (i, t) in all.enumerated() {
            queue.upsert(t)
            model.append(t)
            #expect(queue.count == model.count, "after \(i + 1) upserts")
        }
        var deferred = all[3]
        deferred.state = .deferred
        queue.upsert(deferred)
        model[3] = deferred
        for i in [0, 17, 39] {
            var done = all[i]
            done.disposition = .finished
            queue.upsert(done)
            model.removeAll { $0.id == done.id }
        }
        queue.remove(all[25].id)
        model.removeAll { $0.id == all[25].id }
        #expect(Array(queue) == model)
        #expect(queue == PaymentQueue(model))
        #expect(try queue.transaction(all[3].id) == deferred)
        #expect(try queue.transaction(all[17].id) == nil)
        // A small queue stays a list: the same answers.
        var small = PaymentQueue(Array(all.prefix(3)))
        small.remove(all[1].id)
        #expect(Array(small) == [all[0], all[2]])
    }
    @Test("a load replays the journal past the checkpoint without decoding: the same queue as the session that wrote it")
    func tailReplay() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        // A tail of commits, each its own session (as one command each): purchases, a finish, a
        // deferred purchase approved, a decline; one commit changes a transaction an earlier
        // one made.
        try store.write { s throws(StoreError) in
            for _ in 0..<4 { try s.apply(.buy(ProductID("com.x.coin42"), user: UserID("u"), quantity: 2)) }
        }
        _ = try store.write { s throws(StoreError) in try s.apply(.finish([TransactionID(2_000_000_000_000_002)])) }
        try store.write { s throws(StoreError) in
            try s.apply(.setSetting(key: "ask-to-buy", value: "true"))
            try s.apply(.buy(ProductID("com.x.noads"), user: nil, quantity: 1))
            try s.apply(.buy(ProductID("com.x.vip2"), user: nil, quantity: 1))
            try s.apply(.setSetting(key: "ask-to-buy", value: "false"))
        }
        let written = try store.write { s throws(StoreError) in
            try s.apply(.approve(TransactionID(2_000_000_000_000_005)))
            try s.apply(.decline(TransactionID(2_000_000_000_000_006), error: TransactionError(.paymentCancelled)))
            try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1))
            return Array(s.state.queue)
        }
        let (ids, stored, loaded) = try store.read { s throws(StoreError) in
            (s.state.queue.ids, !s.state.queue.isDecoded, Array(s.state.queue))
        }
        #expect(stored, "the tail's transactions are read from the journal, not decoded at load")
        #expect(ids == written.map(\.id))
        #expect(loaded == written)
        #expect(written.count == 6)
    }
}
