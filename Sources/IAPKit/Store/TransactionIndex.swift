import IAPCrypto

/// Where the latest version of each transaction sits in the journal: one 16-byte slot per
/// transaction id (the frame's offset, a CRC, and the version's position in the frame's
/// payload), so `dump` walks ids in order and a lookup costs one read, however many
/// transactions the store holds.
///
/// The index is derived data. Its header says how much of the journal it covers; the part of the
/// journal written since (the tail) is scanned into memory when a lookup first needs it, and a
/// writer folds that tail into the file (slots synced before the header) once it grows past a
/// threshold. A slot carries a CRC of its id and offset; a slot that fails it, or a damaged
/// header, makes the index rebuild itself from the journal, so index damage never loses data.
final class TransactionIndex {
    /// Where one transaction version is: the frame, and its length prefix in the payload.
    struct Location: Equatable {
        var frame: UInt64
        var position: UInt32
    }

    static let headerSize: UInt64 = 64
    static let slotSize = 16
    static let magic: [UInt8] = Array("IAPTXIDX".utf8)
    static let formatVersion: UInt32 = 2
    /// Fold the tail into the file once it spans this many journal bytes.
    static let checkpointThreshold: UInt64 = 64 << 10

    let path: String
    let journal: Journal
    private(set) var committedLength: UInt64
    private let base = TransactionID.first.rawValue
    private var file: PosixFile?
    private(set) var coveredLength: UInt64
    /// Offsets learned from the journal past `coveredLength` (or from a full rebuild).
    private var overlay: [UInt64: Location] = [:]
    private var tailScanned = false
    /// Set when the file could not be trusted and everything lives in `overlay`.
    private(set) var rebuilt = false
    private(set) var warnings: [String] = []
    /// False: the file's checkpoints are not synced (`Store.syncs`, a temporary store).
    var syncs = true
    private var slotWindow: [UInt8] = []
    private var slotWindowStart: UInt64 = 0
    /// Where the transactions the journal's tail past the checkpoint changed have their latest
    /// version, as the session's load found them (`StoreSession`, `CommitRecord.foldQueue`):
    /// (id, frame, position) triples, latest last. A lookup of one of them needs no scan of
    /// the journal since `coveredLength` (up to 64 KiB): a `finish` of what the previous
    /// command bought finds it here. Dropped at the first lookup it cannot answer and at the
    /// session's first commit (`absorb`), after which the overlay answers.
    private var tailVersions: [Int] = []

    /// Hands the index the tail's versions (see `tailVersions`).
    func seedTailVersions(_ triples: [Int]) { tailVersions = triples }

    private func tailVersion(_ id: UInt64) -> Location? {
        var i = tailVersions.count - 3
        while i >= 0 {
            if UInt64(bitPattern: Int64(tailVersions[i])) == id {
                return Location(frame: UInt64(tailVersions[i + 1]), position: UInt32(tailVersions[i + 2]))
            }
            i -= 3
        }
        return nil
    }

    init(path: String, journal: Journal, committedLength: UInt64) throws(StoreError) {
        self.path = path
        self.journal = journal
        self.committedLength = committedLength
        self.coveredLength = Journal.headerSize
        file = try PosixFile.openForReading(path)
        guard let file else { return }
        let header = try file.read(at: 0, count: Int(TransactionIndex.headerSize))
        if let covered = TransactionIndex.parseHeader(header), covered <= committedLength {
            coveredLength = covered
        } else {
            self.file = nil
            rebuilt = true
            warnings.append("\(path): damaged index header; rebuilt it from the journal")
        }
    }

    static func parseHeader(_ h: [UInt8]) -> UInt64? {
        guard h.count == Int(headerSize), Array(h[0..<8]) == magic else { return nil }
        return h.withUnsafeBytes { raw -> UInt64? in
            let version = raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
            let covered = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian
            let crc = raw.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian
            guard version == formatVersion, CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<24])) == crc else {
                return nil
            }
            return covered
        }
    }

    static func headerBytes(covered: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        w.raw(magic)
        w.u32(formatVersion)
        w.u32(0)
        w.u64(covered)
        w.u32(CRC32C.checksum(w.bytes))
        while w.bytes.count < Int(headerSize) { w.u8(0) }
        return w.bytes
    }

    static func slotCheck(id: UInt64, _ l: Location) -> UInt32 {
        var w = ByteWriter(capacity: 20)
        w.u64(id)
        w.u64(l.frame)
        w.u32(l.position)
        return CRC32C.checksum(w.bytes)
    }

    /// Scans the journal from `coveredLength` to the committed end into the overlay.
    private func scanTail() throws(StoreError) {
        guard !tailScanned else { return }
        tailScanned = true
        var reader = JournalReader(journal: journal, size: committedLength)
        var offset = coveredLength
        while offset < committedLength {
            let frame = try reader.frame(at: offset)
            let layout = try reader.layout(frame)
            for i in layout.finals {
                guard
                    let id = try reader.withPayload(
                        frame,
                        { raw -> UInt64? in
                            var r = ByteReader(raw, at: layout.versionOffset(i))
                            guard r.varint() == 1 << 3 else { return nil }
                            return r.varint()
                        })
                else {
                    throw .damaged(path: journal.path, problem: "frame at byte \(offset): malformed transaction")
                }
                overlay[id] = Location(frame: offset, position: UInt32(layout.versionPrefix(i)))
            }
            offset = frame.next
        }
    }

    /// Records what a commit just appended, so a session that keeps running sees it without
    /// scanning the journal again.
    func absorb(frame offset: UInt64, finals: [CommitRecord.FinalVersion], newLength: UInt64) {
        tailVersions = []
        for f in finals { overlay[f.id.rawValue] = Location(frame: offset, position: UInt32(f.position)) }
        committedLength = newLength
    }

    /// Drops the file and rebuilds every offset from the whole journal.
    private func rebuild(because reason: String) throws(StoreError) {
        warnings.append("\(path): \(reason); rebuilt it from the journal")
        file = nil
        rebuilt = true
        overlay = [:]
        coveredLength = Journal.headerSize
        tailScanned = false
        try scanTail()
    }

    /// The journal offset of transaction `id`'s latest version, or nil if the store never had it.
    ///
    /// `mustExist` says the caller knows the store has `id` (every id below the state's counter
    /// was committed with its record): a missing slot is then damage (a truncated index), and the
    /// index rebuilds itself rather than report the transaction absent.
    func offset(of id: TransactionID, mustExist: Bool = false) throws(StoreError) -> Location? {
        if !tailVersions.isEmpty {
            if let o = tailVersion(id.rawValue) { return o }
            // A miss: the scan below covers the tail too, and answers every lookup after it.
            tailVersions = []
        }
        try scanTail()
        if let o = overlay[id.rawValue] { return o }
        guard file != nil, id.rawValue >= base else { return nil }
        if let o = try slot(id) { return o }
        guard mustExist, !rebuilt else { return nil }
        try rebuild(because: "no slot for transaction \(id)")
        return overlay[id.rawValue]
    }

    /// The offset a slot of the file records, nil for an empty or absent slot.
    private func slot(_ id: TransactionID) throws(StoreError) -> Location? {
        guard let file else { return nil }
        let slotOffset = TransactionIndex.headerSize + (id.rawValue - base) * UInt64(TransactionIndex.slotSize)
        if slotOffset < slotWindowStart || slotOffset + 16 > slotWindowStart + UInt64(slotWindow.count) {
            slotWindow = [UInt8](repeating: 0, count: 64 << 10)
            let got = try file.read(into: &slotWindow, at: slotOffset)
            slotWindow.removeLast(slotWindow.count - got)
            slotWindowStart = slotOffset
            if got < 16 { return nil }
        }
        let i = Int(slotOffset - slotWindowStart)
        let (offset, check, position) = slotWindow.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian,
                raw.loadUnaligned(fromByteOffset: i + 8, as: UInt32.self).littleEndian,
                raw.loadUnaligned(fromByteOffset: i + 12, as: UInt32.self).littleEndian
            )
        }
        if offset == 0 && check == 0 && position == 0 { return nil }
        let location = Location(frame: offset, position: position)
        guard check == TransactionIndex.slotCheck(id: id.rawValue, location), offset < coveredLength else {
            try rebuild(because: "damaged slot for transaction \(id)")
            return overlay[id.rawValue]
        }
        return location
    }

    /// Folds the in-memory tail into the file when it has grown large (or the file was rebuilt):
    /// slots first, synced, then the header that vouches for them, synced.
    ///
    /// Runs of consecutive ids are written with one `pwrite` each, and the slots written leave the
    /// overlay (the file has them now), so a session that keeps running (`iapctl run`) writes
    /// each slot once, not the whole overlay again at every checkpoint.
    func checkpointIfNeeded(force: Bool = false) throws(StoreError) {
        guard force || rebuilt || committedLength - coveredLength >= TransactionIndex.checkpointThreshold else { return }
        try scanTail()
        let out = try PosixFile.openForWriting(path, truncate: rebuilt)
        var run = ByteWriter(capacity: 16 * overlay.count)
        var runStart: UInt64 = 0
        var runNext: UInt64 = 0
        func flush() throws(StoreError) {
            guard !run.bytes.isEmpty else { return }
            try out.write(run.bytes, at: TransactionIndex.headerSize + (runStart - base) * UInt64(TransactionIndex.slotSize))
            run.bytes.removeAll(keepingCapacity: true)
        }
        for (id, location) in overlay.sorted(by: { $0.key < $1.key }) where id >= base {
            if run.bytes.isEmpty || id != runNext {
                try flush()
                runStart = id
            }
            run.u64(location.frame)
            run.u32(TransactionIndex.slotCheck(id: id, location))
            run.u32(location.position)
            runNext = id + 1
        }
        try flush()
        if syncs { try out.sync() }
        try out.write(TransactionIndex.headerBytes(covered: committedLength), at: 0)
        if syncs { try out.sync() }
        file = out
        coveredLength = committedLength
        rebuilt = false
        slotWindow = []
        overlay = overlay.filter { $0.key < base }
    }
}
