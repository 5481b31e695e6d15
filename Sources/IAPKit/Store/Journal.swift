import IAPCrypto

/// The store's append-only journal (format 2): one checksummed frame per commit.
///
/// Layout: a 16-byte file header (`IAPJRNL\0`, format version 2, zero), then frames:
///
///     [magic "IAPF"][payload length u32 LE][payload CRC-32C u32 LE][header CRC-32C u32 LE][payload]
///
/// where the header CRC covers the first 12 bytes. The payload is a `CommitRecord`. Appending a
/// frame and `fdatasync`ing it is a command's commit point: one write, one sync.
///
/// A crash can leave only the last frame short, so the end of the file is read leniently and
/// everything before it strictly (`scan`):
/// - fewer than 16 bytes left, a header whose CRC holds but whose payload runs past the end of
///   the file, or a tail of zero bytes (a file extended but never written) is a torn tail: a
///   commit that did not happen, ignored by readers and cut off by the next writer;
/// - a complete header whose CRC fails (and is not all zero), or a complete frame whose payload
///   CRC fails, is damage (exit 65): a commit that happened and was then changed.
final class Journal {
    static let headerSize: UInt64 = 16
    static let frameHeaderSize = 16
    static let formatVersion: UInt32 = 2
    static let fileMagic: [UInt8] = Array("IAPJRNL".utf8) + [0]
    static let frameMagic: UInt32 = 0x4650_4149  // "IAPF" little-endian
    /// No commit is larger than this; a bigger length means the header is damaged.
    static let maximumPayload = 256 << 20

    let file: PosixFile
    var path: String { file.path }

    init(file: PosixFile) { self.file = file }

    static func headerBytes() -> [UInt8] {
        var w = ByteWriter(capacity: 16)
        w.raw(fileMagic)
        w.u32(formatVersion)
        w.u32(0)
        return w.bytes
    }

    /// The journal format version in a file header, or nil if it is not an iapctl journal.
    static func version(ofHeader header: [UInt8]) -> UInt32? {
        guard header.count >= Int(headerSize), Array(header[0..<8]) == fileMagic else { return nil }
        return UInt32(header[8]) | UInt32(header[9]) << 8 | UInt32(header[10]) << 16 | UInt32(header[11]) << 24
    }

    /// Checks the header: an iapctl journal of format 2.
    func validateHeader() throws(StoreError) {
        let header = try file.read(at: 0, count: Int(Journal.headerSize))
        guard let version = Journal.version(ofHeader: header) else {
            throw .damaged(path: path, problem: "not an iapctl journal (bad header)")
        }
        guard version == Journal.formatVersion else {
            if version > Journal.formatVersion {
                throw .damaged(
                    path: path,
                    problem:
                        "journal format \(version) is newer than this iapctl supports (\(Journal.formatVersion)); upgrade iapctl")
            }
            throw .damaged(path: path, problem: "journal format \(version) where the state file says format 2")
        }
    }

    /// One frame: header and payload.
    static func frame(payload: [UInt8]) -> [UInt8] {
        var w = ByteWriter(capacity: frameHeaderSize + payload.count)
        w.u32(frameMagic)
        w.u32(UInt32(payload.count))
        w.u32(CRC32C.checksum(payload))
        w.u32(CRC32C.checksum(w.bytes))
        w.raw(payload)
        return w.bytes
    }

    /// Writes `frame` at `end` (cutting any torn tail past it first) and syncs it: the commit.
    /// On failure the file is cut back to `end`, so a frame that was written but not synced
    /// cannot surface later as a commit the command reported failed.
    func append(_ frame: [UInt8], at end: UInt64, sync: Bool = true) throws(StoreError) {
        // A torn tail past `end` (a writer killed mid-append) is cut off first. The file's size
        // is asked once per journal object: after that, the size this object's last append left
        // is the size, since only a lock holder writes and a session is kept from one command to
        // the next only while the lock is held or the files are as it left them (`Store.keep`).
        // `iapctl run` so saves one `fstat` a line.
        if confirmedSize != end, try file.size() != end { try file.truncate(to: end) }
        confirmedSize = nil
        do throws(StoreError) {
            try file.write(frame, at: end)
            if sync { try file.sync() }
        } catch {
            try? file.truncate(to: end)
            throw error
        }
        confirmedSize = end + UInt64(frame.count)
    }

    /// The file's size as this object's last successful append left it.
    private var confirmedSize: UInt64?
}

/// One frame found in the journal.
struct JournalFrame {
    let offset: UInt64
    let payloadLength: Int
    var payloadOffset: UInt64 { offset + UInt64(Journal.frameHeaderSize) }
    var next: UInt64 { payloadOffset + UInt64(payloadLength) }
}

/// Reads frames through a window buffer, checking each header and payload CRC once per load of
/// the window; sequential scans touch each byte once and memory stays bounded however large the
/// journal grows.
struct JournalReader {
    let journal: Journal
    /// The end of the file as the reader found it; frames are read up to here.
    let size: UInt64
    private var window: [UInt8] = []
    private var windowStart: UInt64 = 0
    private let windowSize: Int
    /// The frame whose payload CRC was last checked (it is in the window).
    private var verified: UInt64 = .max

    init(journal: Journal, size: UInt64, windowSize: Int = 1 << 20) {
        self.journal = journal
        self.size = size
        self.windowSize = windowSize
    }

    enum Step {
        case frame(JournalFrame)
        /// A torn tail from here to `size`: an uncommitted command.
        case tornTail
        case end
    }

    /// Makes `[offset, offset + count)` available in the window; nil when past `size`.
    private mutating func load(_ offset: UInt64, _ count: Int) throws(StoreError) -> Int? {
        guard offset + UInt64(count) <= size else { return nil }
        if offset >= windowStart, offset + UInt64(count) <= windowStart + UInt64(window.count) {
            return Int(offset - windowStart)
        }
        let want = Int(min(UInt64(max(windowSize, count)), size - offset))
        if window.count != want { window = [UInt8](repeating: 0, count: want) }
        let got = try journal.file.read(into: &window, at: offset)
        windowStart = offset
        verified = .max
        guard got >= count else { return nil }
        if got < window.count { window.removeLast(window.count - got) }
        return 0
    }

    private func damaged(_ offset: UInt64, _ problem: String) -> StoreError {
        .damaged(path: journal.path, problem: "frame at byte \(offset): \(problem)")
    }

    /// What is at `offset`: a checked frame, a torn tail, or the end. Throws `damaged` for a
    /// frame that was committed and then changed.
    mutating func step(at offset: UInt64, tailIsLenient: Bool = true) throws(StoreError) -> Step {
        if offset >= size { return .end }
        let left = size - offset
        if left < UInt64(Journal.frameHeaderSize) {
            if tailIsLenient { return .tornTail }
            throw damaged(offset, "runs past the end of the file")
        }
        guard let h = try load(offset, Journal.frameHeaderSize) else { throw damaged(offset, "unreadable") }
        func u32(_ i: Int) -> UInt32 {
            UInt32(window[h + i]) | UInt32(window[h + i + 1]) << 8 | UInt32(window[h + i + 2]) << 16
                | UInt32(window[h + i + 3]) << 24
        }
        let headerCRC = CRC32C.checksum(window[h..<(h + 12)])
        guard headerCRC == u32(12), u32(0) == Journal.frameMagic else {
            if tailIsLenient, try isZero(from: offset) { return .tornTail }
            throw damaged(offset, "bad frame header (checksum mismatch)")
        }
        let length = Int(u32(4))
        guard length <= Journal.maximumPayload else { throw damaged(offset, "impossible length \(length)") }
        let frame = JournalFrame(offset: offset, payloadLength: length)
        if frame.next > size {
            if tailIsLenient { return .tornTail }
            throw damaged(offset, "runs past the end of the file")
        }
        try verify(frame, crc: u32(8))
        return .frame(frame)
    }

    private mutating func verify(_ frame: JournalFrame, crc: UInt32) throws(StoreError) {
        guard let start = try load(frame.offset, Journal.frameHeaderSize + frame.payloadLength) else {
            throw damaged(frame.offset, "unreadable")
        }
        let p = start + Journal.frameHeaderSize
        guard CRC32C.checksum(window[p..<(p + frame.payloadLength)]) == crc else {
            throw damaged(frame.offset, "checksum mismatch")
        }
        verified = frame.offset
    }

    /// Whether every byte from `offset` to the end of the file is zero.
    private mutating func isZero(from offset: UInt64) throws(StoreError) -> Bool {
        var at = offset
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while at < size {
            let got = try journal.file.read(into: &buffer, at: at)
            if got == 0 { break }
            if buffer[0..<got].contains(where: { $0 != 0 }) { return false }
            at += UInt64(got)
        }
        return true
    }

    /// The frame that starts at `offset`, checked; a torn or missing frame there is damage (the
    /// caller knows a commit is there: the index or the checkpoint points at it).
    mutating func frame(at offset: UInt64) throws(StoreError) -> JournalFrame {
        if offset == verified, let h = try load(offset, Journal.frameHeaderSize) {
            let length = Int(
                UInt32(window[h + 4]) | UInt32(window[h + 5]) << 8 | UInt32(window[h + 6]) << 16 | UInt32(window[h + 7]) << 24)
            if let _ = try load(offset, Journal.frameHeaderSize + length), verified == offset {
                return JournalFrame(offset: offset, payloadLength: length)
            }
        }
        switch try step(at: offset, tailIsLenient: false) {
        case .frame(let f): return f
        case .tornTail, .end: throw damaged(offset, "runs past the end of the file")
        }
    }

    /// Runs `body` on a frame's payload (valid only during the call).
    mutating func withPayload<R>(_ frame: JournalFrame, _ body: (UnsafeRawBufferPointer) -> R) throws(StoreError) -> R {
        guard let start = try load(frame.offset, Journal.frameHeaderSize + frame.payloadLength) else {
            throw damaged(frame.offset, "unreadable")
        }
        let p = start + Journal.frameHeaderSize
        return window.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[p..<(p + frame.payloadLength)])) }
    }

    /// The transaction version whose length prefix is at `position` of the frame at `offset`.
    mutating func transaction(frame offset: UInt64, position: Int) throws(StoreError) -> Transaction {
        let f = try frame(at: offset)
        guard let t = try withPayload(f, { CommitRecord.transaction($0, prefix: position) }) else {
            throw damaged(offset, "malformed transaction at position \(position)")
        }
        return t
    }

    /// The layout of a frame's payload; throws `damaged` when malformed.
    mutating func layout(_ f: JournalFrame) throws(StoreError) -> CommitRecord.Layout {
        guard let layout = try withPayload(f, CommitRecord.layout) else { throw damaged(f.offset, "malformed commit record") }
        return layout
    }
}
