import Testing

@testable import IAPKit

@Suite("State file coding")
struct StateCodingTests {
    @Test("a busy state round-trips through the state file, byte-stable")
    func roundTrip() throws {
        var h = MachineHarness { $0.paymentsAllowed = true }
        _ = try h.buy("com.x.noads", user: UserID("u"))
        _ = try h.buy("com.x.levelpack")
        _ = try h.buy("com.x.coin42", quantity: 3)
        try h.apply(.setSetting(key: "payments-allowed", value: "false"))
        _ = try h.buy("com.x.coin210")
        try h.apply(.setSetting(key: "locale", value: "zh_CN"))
        let file = StateFile(journalLength: 99, catalogName: "built-in", catalogSHA256: "ab", state: h.state)
        let bytes = file.encoded()
        var decoded = try StateFile.decode(bytes, path: "state")
        // The checkpoint names the queue by id; the store's journal gives the transactions.
        let queued = Dictionary(uniqueKeysWithValues: h.state.queue.map { ($0.id, $0) })
        decoded.state.attachQueueSource(PaymentQueue.Source { queued[$0] })
        #expect(decoded == file)
        #expect(decoded.encoded() == bytes)
        #expect(h.state.queue.contains { $0.state.error != nil })
    }

    @Test("a state that does not decode is reported with its key path")
    func badState() {
        let body = Array(#"{"catalogName":"x","catalogSHA256":"y","journalLength":"nope","state":{}}"#.utf8) + [0x0A]
        let bytes = ChecksummedFile.encode(kind: "state", version: 1, body: body)
        #expect {
            _ = try StateFile.decode(bytes, path: "state")
        } throws: { error in
            "\(error)".contains("state does not decode")
        }
    }
}
