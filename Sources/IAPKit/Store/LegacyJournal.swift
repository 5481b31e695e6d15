import IAPCrypto

/// The journal of a format-1 store (iapctl 0.1.0): every version of every transaction and every
/// event, as checksummed records. Read only, to open such a store and to migrate it (its first
/// write turns it into format 2, `Journal`).
///
/// Layout: a 16-byte header (`IAPJRNL\0`, format version), then records, each
/// `[0xA7][type][0][0][length u32 LE][crc32c u32 LE][payload]`, where the CRC covers the type,
/// the two reserved bytes, the length and the payload. Only the first `committedLength` bytes
/// count (the state file records it, and writing the state file is the commit point); anything
/// past it is the torn tail of a command that did not commit, and the next writer cuts it off.
final class LegacyJournal {
    static let headerSize: UInt64 = 16
    static let recordHeaderSize = 12
    static let recordMagic: UInt8 = 0xA7
    static let formatVersion: UInt32 = 1
    static let magic: [UInt8] = Array("IAPJRNL".utf8) + [0]
    /// No record is larger than this; a bigger length means the frame is damaged.
    static let maximumPayload = 64 << 20

    enum RecordType: UInt8 {
        case transaction = 1
        case event = 2
    }

    let file: PosixFile
    var path: String { file.path }

    init(file: PosixFile) { self.file = file }

    /// Checks the journal's header and that it holds at least `committedLength` bytes.
    func validate(committedLength: UInt64) throws(StoreError) {
        let header = try file.read(at: 0, count: Int(LegacyJournal.headerSize))
        guard header.count == Int(LegacyJournal.headerSize), Array(header[0..<8]) == LegacyJournal.magic else {
            throw .damaged(path: path, problem: "not an iapctl journal (bad header)")
        }
        let version = header[8..<12].withUnsafeBytes { raw in raw.loadUnaligned(as: UInt32.self) }.littleEndian
        guard version <= LegacyJournal.formatVersion else {
            throw .damaged(
                path: path,
                problem:
                    "journal format \(version) is newer than this iapctl supports (\(LegacyJournal.formatVersion)); upgrade iapctl"
            )
        }
        let size = try file.size()
        guard size >= committedLength else {
            throw .damaged(
                path: path, problem: "truncated: the store committed \(committedLength) bytes but the file has \(size)")
        }
    }

}

/// Reads journal records through a window buffer: sequential scans touch each byte once, and
/// memory stays bounded however large the journal grows (`dump` streams through it).
struct LegacyJournalReader {
    let journal: LegacyJournal
    /// Records at or past this offset are not committed and are never returned.
    let limit: UInt64
    private var window: [UInt8] = []
    private var windowStart: UInt64 = 0
    private let windowSize: Int

    init(journal: LegacyJournal, limit: UInt64, windowSize: Int = 1 << 20) {
        self.journal = journal
        self.limit = limit
        self.windowSize = windowSize
    }

    struct Record {
        let offset: UInt64
        let type: LegacyJournal.RecordType
        let payloadRange: Range<Int>
        var next: UInt64 { offset + UInt64(LegacyJournal.recordHeaderSize) + UInt64(payloadRange.count) }
    }

    /// Makes `[offset, offset + count)` available in the window, reading from the file if needed.
    private mutating func load(_ offset: UInt64, _ count: Int) throws(StoreError) -> Int? {
        guard offset + UInt64(count) <= limit else { return nil }
        if offset >= windowStart, offset + UInt64(count) <= windowStart + UInt64(window.count) {
            return Int(offset - windowStart)
        }
        let size = Int(min(UInt64(max(windowSize, count)), limit - offset))
        if window.count != size { window = [UInt8](repeating: 0, count: size) }
        let got = try journal.file.read(into: &window, at: offset)
        windowStart = offset
        guard got >= count else { return nil }
        if got < window.count { window.removeLast(window.count - got) }
        return 0
    }

    /// The record at `offset`, checked (magic, length, CRC); throws `damaged` naming the offset.
    mutating func record(at offset: UInt64) throws(StoreError) -> Record {
        func damaged(_ problem: String) -> StoreError {
            .damaged(path: journal.path, problem: "record at byte \(offset): \(problem)")
        }
        guard let h = try load(offset, LegacyJournal.recordHeaderSize) else { throw damaged("runs past the committed end") }
        guard window[h] == LegacyJournal.recordMagic else { throw damaged("bad record marker") }
        guard let type = LegacyJournal.RecordType(rawValue: window[h + 1]) else {
            throw damaged("unknown record type \(window[h + 1])")
        }
        let length = Int(
            UInt32(window[h + 4]) | UInt32(window[h + 5]) << 8 | UInt32(window[h + 6]) << 16 | UInt32(window[h + 7]) << 24)
        let stored =
            UInt32(window[h + 8]) | UInt32(window[h + 9]) << 8 | UInt32(window[h + 10]) << 16 | UInt32(window[h + 11]) << 24
        guard length <= LegacyJournal.maximumPayload else { throw damaged("impossible length \(length)") }
        guard let start = try load(offset, LegacyJournal.recordHeaderSize + length) else {
            throw damaged("runs past the committed end")
        }
        var crc = CRC32C.checksum(window[(start + 1)..<(start + 8)])
        crc = CRC32C.checksum(window[(start + 12)..<(start + 12 + length)], continuing: crc)
        guard crc == stored else { throw damaged("checksum mismatch") }
        return Record(offset: offset, type: type, payloadRange: (start + 12)..<(start + 12 + length))
    }

    /// The transaction stored at `offset`.
    mutating func transaction(at offset: UInt64) throws(StoreError) -> Transaction {
        let r = try record(at: offset)
        guard r.type == .transaction else {
            throw .damaged(path: journal.path, problem: "record at byte \(offset): expected a transaction")
        }
        guard let t = withPayload(r, TransactionRecordCodec.decode) else {
            throw .damaged(path: journal.path, problem: "record at byte \(offset): malformed transaction")
        }
        return t
    }

    /// Runs `body` on a record's payload bytes (valid only during the call).
    func withPayload<R>(_ record: Record, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        window.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[record.payloadRange])) }
    }

    /// Payload bytes copied out of the window.
    func payload(_ record: Record) -> ArraySlice<UInt8> { window[record.payloadRange] }
}
