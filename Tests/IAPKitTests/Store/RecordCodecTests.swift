import Testing

@testable import IAPKit
@testable import IAPTime

@Suite("Journal record codec")
struct RecordCodecTests {
    static let full = Transaction(
        id: TransactionID(2_000_000_000_000_007), originalID: TransactionID(2_000_000_000_000_002),
        productID: ProductID("com.x.levelpack"),
        productType: .nonConsumable, quantity: 3, userID: UserID("u"), state: .failed(TransactionError(.paymentCancelled)),
        disposition: .finished,
        date: Timestamp(milliseconds: 1_767_225_601_000), originalDate: Timestamp(milliseconds: -5), storefront: "JPN",
        price: Price(milliunits: 120_000), currency: "JPY", charged: true,
        downloads: [
            Download(
                contentIdentifier: "levels", contentVersion: "1.0", phase: .failed(TransactionError(.unknown)),
                downloadedBytes: 10,
                contentLength: 99)
        ],
        expiresDate: Timestamp(milliseconds: 1), webOrderLineItemID: 77, revocationDate: Timestamp(milliseconds: 2),
        revocationReason: 1,
        isUpgraded: true, offer: .freeTrial, reason: .renewal, subscriptionGroup: "vip")

    static func roundTrip(_ t: Transaction) -> Transaction? {
        var w = ByteWriter()
        TransactionRecordCodec.encode(t, into: &w)
        return w.bytes.withUnsafeBytes { TransactionRecordCodec.decode($0) }
    }

    @Test("every field survives a round trip")
    func roundTrips() {
        #expect(Self.roundTrip(Self.full) == Self.full)
        var minimal = Self.full
        minimal.originalID = minimal.id
        minimal.userID = nil
        minimal.state = .purchased
        minimal.downloads = []
        minimal.expiresDate = nil
        minimal.offer = nil
        minimal.reason = .purchase
        #expect(Self.roundTrip(minimal) == minimal)
    }

    @Test("each disposition and each download phase survives a round trip")
    func lifecycles() {
        for disposition in [Transaction.Disposition.queued, .finished, .deleted(wasFinished: false), .deleted(wasFinished: true)]
        {
            var t = Self.full
            t.disposition = disposition
            #expect(Self.roundTrip(t)?.disposition == disposition)
        }
        let phases: [DownloadPhase] = [
            .waiting, .active, .paused, .finished, .failed(TransactionError(.cloudServiceRevoked)), .cancelled,
        ]
        for phase in phases {
            var t = Self.full
            t.downloads[0].phase = phase
            let back = Self.roundTrip(t)?.downloads.first
            #expect(back?.phase == phase)
            #expect(back?.error == phase.error)
            #expect((back?.error != nil) == (back?.state == .failed))
        }
    }

    @Test("a record's id and queue membership read without decoding it agree with the decoded record")
    func queueStatus() {
        for disposition in [Transaction.Disposition.queued, .finished, .deleted(wasFinished: false), .deleted(wasFinished: true)]
        {
            var minimal = Self.full
            minimal.originalID = minimal.id
            minimal.userID = nil
            minimal.state = .purchased
            minimal.downloads = []
            for base in [Self.full, minimal] {
                var t = base
                t.disposition = disposition
                var w = ByteWriter()
                TransactionRecordCodec.encode(t, into: &w)
                let status = w.bytes.withUnsafeBytes { TransactionRecordCodec.queueStatus($0) }
                #expect(status?.id == t.id)
                #expect(status?.inQueue == t.isInQueue, "\(disposition)")
            }
        }
        // Every truncation: nil, or the id and membership of what is there; never a crash.
        var w = ByteWriter()
        TransactionRecordCodec.encode(Self.full, into: &w)
        for n in 0..<w.bytes.count {
            let status = Array(w.bytes.prefix(n)).withUnsafeBytes { TransactionRecordCodec.queueStatus($0) }
            if let status { #expect(status.id == Self.full.id) }
        }
    }

    @Test("records' UTF-8 check accepts exactly what the standard library's validator accepts")
    func utf8Validation() {
        func agree(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { units in
                ByteReader.isWellFormedUTF8(units) == (String(validating: units, as: UTF8.self) != nil)
            }
        }
        // Every one- and two-byte sequence, every three-byte one with a multi-byte lead, and
        // every lead and first continuation of a four-byte one (the rest drawn from a fixed
        // sequence of interesting bytes).
        var disagreements = 0
        for a in 0...255 {
            if !agree([UInt8(a)]) { disagreements += 1 }
            for b in 0...255 where !agree([UInt8(a), UInt8(b)]) { disagreements += 1 }
        }
        for a in 0xC0...0xFF {
            for b in 0...255 {
                for c in stride(from: 0, through: 255, by: 5) where !agree([UInt8(a), UInt8(b), UInt8(c)]) {
                    disagreements += 1
                }
                for (c, d) in [(0x80, 0x80), (0xBF, 0xBF), (0x7F, 0x80), (0x80, 0xC0), (0x90, 0x8F)]
                where !agree([UInt8(a), UInt8(b), UInt8(c), UInt8(d)]) {
                    disagreements += 1
                }
            }
        }
        #expect(disagreements == 0)
        // Text as catalogs hold it, and the same text cut inside a character.
        for text in ["Münze", "コイン 100 枚", "€1,99", "🪙 42", "a\u{10FFFF}b"] {
            let bytes = Array(text.utf8)
            #expect(agree(bytes))
            bytes.withUnsafeBytes { #expect(ByteReader.utf8($0) == text) }
            for cut in 1..<bytes.count { #expect(agree(Array(bytes.prefix(cut))), "\(text) cut at \(cut)") }
        }
    }

    @Test("every truncation of a record is rejected, never a crash")
    func truncations() {
        var w = ByteWriter()
        TransactionRecordCodec.encode(Self.full, into: &w)
        for n in 0..<w.bytes.count {
            let decoded = Array(w.bytes.prefix(n)).withUnsafeBytes { TransactionRecordCodec.decode($0) }
            #expect(decoded == nil || decoded != Self.full, "prefix \(n)")
        }
    }
}
