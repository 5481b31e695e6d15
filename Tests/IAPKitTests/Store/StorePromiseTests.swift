import Foundation
import IAPKit
import Testing

/// SPEC section 6, proved on the store directory itself.
@Suite("The store keeps its promises")
struct StorePromiseTests {
    /// A fixed script touching every kind of write.
    static func script(_ store: Store) throws {
        try store.write { s throws(StoreError) in
            try s.apply(.requestProducts([]))
            try s.apply(.buy(ProductID("com.x.coin42"), user: UserID.forAccount("Handsome Jon"), quantity: 3))
            try s.apply(.buy(ProductID("com.x.noads"), user: nil, quantity: 1))
            try s.apply(.buy(ProductID("com.x.levelpack"), user: nil, quantity: 1))
            try s.apply(.finish([TransactionID.first]))
            try s.apply(.setSetting(key: "storefront", value: "CHN"))
            try s.apply(.buy(ProductID("com.x.coin210"), user: nil, quantity: 1))
            try s.apply(.restore(user: nil))
            try s.apply(.launch)
        }
    }

    static func dumpAndEvents(_ store: Store) throws -> (String, String) {
        try store.read { s throws(StoreError) in
            var dump = BufferSink()
            try s.dump(TransactionFilter(), into: &dump)
            var events = BufferSink()
            try s.events(since: 0, into: &events)
            return (dump.string, events.string)
        }
    }

    @Test("two stores driven by the same commands are byte-identical")
    func determinism() throws {
        let a = TemporaryDirectory()
        let b = TemporaryDirectory()
        try Self.script(Store(path: a.path + "/s"))
        try Self.script(Store(path: b.path + "/s"))
        let (dumpA, eventsA) = try Self.dumpAndEvents(Store(path: a.path + "/s"))
        let (dumpB, eventsB) = try Self.dumpAndEvents(Store(path: b.path + "/s"))
        #expect(dumpA == dumpB)
        #expect(eventsA == eventsB)
        for file in ["state", "journal", "catalog"] {
            #expect(a.read("s/" + file) == b.read("s/" + file), "\(file) differs")
        }
        // The script's 20, after the store's creation (storeCreated).
        #expect(eventsA.split(separator: "\n").count == 21)
        #expect(dumpA.contains("\"productIdentifier\":\"com.x.levelpack\""))
    }

    @Test("files are 0600 and the directory 0700")
    func permissions() throws {
        let dir = TemporaryDirectory()
        try Self.script(Store(path: dir.path + "/s"))
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.path + "/s")
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.path + "/s") {
            let a = try FileManager.default.attributesOfItem(atPath: dir.path + "/s/" + file)
            #expect((a[.posixPermissions] as? Int) == 0o600, "\(file)")
        }
    }

    @Test("a reopened store holds everything committed, and dump streams it in id order")
    func reopen() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try store.write { s throws(StoreError) in
            for _ in 0..<300 { try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1)) }
            try s.apply(.finishAll)
        }
        let ids = try store.read { s throws(StoreError) -> [TransactionID] in
            var ids: [TransactionID] = []
            try s.forEachTransaction { ids.append($0.id) }
            #expect(s.state.queue.isEmpty)
            return ids
        }
        #expect(ids == (0..<300).map { TransactionID(TransactionID.first.rawValue + UInt64($0)) })
    }

    @Test("an uncommitted journal tail is ignored, then cut by the next writer")
    func tornTail() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try Self.script(store)
        let before = try Self.dumpAndEvents(store)
        var journal = dir.read("s/journal")
        let committed = journal.count
        journal += [0xA7, 1, 0, 0, 200, 0, 0, 0, 1, 2, 3]
        dir.write("s/journal", journal)
        #expect(try Self.dumpAndEvents(store) == before)
        _ = try store.write { s throws(StoreError) in try s.apply(.launch) }
        #expect(dir.read("s/journal").count > committed)
        #expect(Doctor.check(store).isClean)
    }

    @Test(
        "damaged files are refused with the path and what is wrong",
        arguments: [
            ("state", "checksum mismatch"), ("catalog", "checksum mismatch"),
        ])
    func damagedWholeFiles(file: String, problem: String) throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try Self.script(store)
        var bytes = dir.read("s/" + file)
        bytes[bytes.count - 10] ^= 0x01
        dir.write("s/" + file, bytes)
        let before = dir.read("s/" + file)
        do {
            _ = try Self.dumpAndEvents(store)
            Issue.record("damage not detected")
        } catch let error as StoreError {
            #expect(error.exitCode == .badData)
            #expect("\(error)".contains(dir.path + "/s/" + file))
            #expect("\(error)".contains(problem))
        }
        #expect(dir.read("s/" + file) == before, "a damaged file must never be overwritten")
        #expect(!Doctor.check(store).isClean)
    }

    @Test("a last frame cut short, running past the end, or zero-filled is a commit that did not happen")
    func tornFrames() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try Self.script(store)
        let withoutLast = try Self.dumpAndEvents(store)
        let before = dir.read("s/journal")
        _ = try store.write { s throws(StoreError) in try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1)) }
        let after = dir.read("s/journal")
        let frame = Array(after[before.count...])
        #expect(frame.count > 32 && frame.count < 400, "one frame for one buy: \(frame.count) bytes")
        // Cut anywhere inside the new frame: the store reads as before the buy, and doctor
        // calls it clean (the tail is reported and ignored).
        for cut in [1, 8, 15, 16, 17, frame.count / 2, frame.count - 1] {
            dir.write("s/journal", before + frame.prefix(cut))
            #expect(try Self.dumpAndEvents(store) == withoutLast, "cut at \(cut)")
            let report = Doctor.check(store)
            #expect(report.isClean, "cut at \(cut): \(report.findings)")
        }
        // A file extended with zeros (a crash after the size reached the disk, not the data).
        dir.write("s/journal", before + [UInt8](repeating: 0, count: frame.count))
        #expect(try Self.dumpAndEvents(store) == withoutLast)
        // A whole frame whose payload changed is damage, not a torn tail.
        var flipped = after
        flipped[after.count - 3] ^= 0x01
        dir.write("s/journal", flipped)
        #expect {
            _ = try Self.dumpAndEvents(store)
        } throws: { error in
            (error as? StoreError)?.exitCode == .badData && "\(error)".contains("checksum mismatch")
        }
        // The next writer cuts a torn tail and appends after the last whole frame.
        dir.write("s/journal", before + frame.prefix(20))
        _ = try store.write { s throws(StoreError) in try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1)) }
        #expect(dir.read("s/journal").count == after.count)
        #expect(Doctor.check(store).isClean)
    }

    @Test("a truncated journal or a flipped record is refused")
    func damagedJournal() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try Self.script(store)
        try store.write { s throws(StoreError) in try s.checkpoint() }
        // The checkpoint covers the whole journal: a shorter journal lost committed frames.
        let journal = dir.read("s/journal")
        dir.write("s/journal", Array(journal.prefix(journal.count - 5)))
        #expect(throws: StoreError.self) { try Self.dumpAndEvents(store) }
        var flipped = journal
        flipped[40] ^= 0x40
        dir.write("s/journal", flipped)
        #expect(throws: StoreError.self) { try Self.dumpAndEvents(store) }
        let report = Doctor.check(store)
        #expect(!report.isClean)
        #expect(report.findings.contains { !$0.ok && $0.file.hasSuffix("journal") })
    }

    @Test("a damaged index is rebuilt from the journal without loss")
    func damagedIndex() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try store.write { s throws(StoreError) in
            // Enough journal for the index to be folded to disk, after the finish too.
            let buys = [Command](repeating: .buy(ProductID("com.x.coin42"), user: nil, quantity: 1), count: 500)
            try s.apply(batch: buys)
            try s.apply(.finishAll)
            try s.apply(batch: buys)
        }
        let before = try Self.dumpAndEvents(store)
        var index = dir.read("s/transactions.idx")
        #expect(index.count > 64)
        index[64 + 16 * 3 + 2] ^= 0xFF
        dir.write("s/transactions.idx", index)
        #expect(try Self.dumpAndEvents(store) == before)
        #expect(store.warnings.contains { $0.contains("rebuilt") })
        dir.write("s/transactions.idx", [1, 2, 3])
        #expect(try Self.dumpAndEvents(store) == before)
    }

    @Test("a store written by a newer format is refused clearly")
    func newerFormat() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try Self.script(store)
        var bytes = dir.read("s/state")
        let header = Array("iapctl-state v3 ".utf8)
        #expect(Array(bytes.prefix(header.count)) == header)
        bytes[header.count - 2] = UInt8(ascii: "9")
        dir.write("s/state", bytes)
        #expect {
            _ = try Self.dumpAndEvents(store)
        } throws: { error in
            "\(error)".contains("newer iapctl") && "\(error)".contains("v9")
        }
    }

    @Test("doctor salvages the valid part of a damaged store into a new one")
    func salvage() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try Self.script(store)
        let (dump, _) = try Self.dumpAndEvents(store)
        dir.write("s/state", Array("garbage".utf8))
        let report = try Doctor.salvage(store, into: Store(path: dir.path + "/new"))
        #expect(report.transactions == 6)
        #expect(report.notes.contains { $0.contains("state file unusable") })
        let salvaged = Store(path: dir.path + "/new")
        #expect(Doctor.check(salvaged).isClean)
        #expect(try Self.dumpAndEvents(salvaged).0 == dump)
        // The salvaged store keeps working, with fresh ids.
        let t = try salvaged.write { s throws(StoreError) in
            try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1)).transactions[0]
        }
        #expect(t.id == TransactionID(TransactionID.first.rawValue + 6))
    }

    @Test("creating over an existing store needs force")
    func createForce() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try Self.script(store)
        #expect(throws: StoreError.self) { try store.create(StoreCreation(), force: false) }
        try store.create(StoreCreation(), force: true)
        let (dump, events) = try Self.dumpAndEvents(store)
        #expect(dump == "[]\n")
        #expect(events.split(separator: "\n").count == 1 && events.hasPrefix(#"{"seq":1,"name":"storeCreated","#), "\(events)")
    }
}
