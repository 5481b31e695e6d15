/// The store's `state` file: a checkpoint of the working state (format 2).
///
/// It holds the state as of `journalLength` bytes of journal, the catalog the store was created
/// with, and the payment queue; loading reads it and folds the frames after `journalLength` (the
/// tail). It is rewritten (temporary file, `fdatasync`, rename, directory `fsync`) only when the
/// tail has grown past `Store.checkpointBound`, never as part of a commit: the journal frame is
/// the commit point. A crash while it is rewritten leaves the previous checkpoint, whose tail
/// still holds everything.
///
/// Body (after the `ChecksummedFile` header line `iapctl-state v2 ...`): `[journalLength
/// varint][catalog name][catalog SHA-256][state: a full StateDeltaCodec record][queue count]
/// [each queued transaction: a length-prefixed TransactionRecordCodec record]`.
struct StateFile: Equatable {
    static let kind = "state"
    static let version = 2

    /// How many bytes of the journal the state includes.
    var journalLength: UInt64
    /// The catalog the store was created with: its name (a file name or "built-in") and SHA-256.
    var catalogName: String
    var catalogSHA256: String
    var state: StoreState

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 512 + 96 * state.queue.count)
        w.varint(journalLength)
        w.string(catalogName)
        w.string(catalogSHA256)
        StateDeltaCodec.encode(from: nil, to: state, into: &w)
        w.varint(UInt64(state.queue.count))
        var record = ByteWriter(capacity: 160)
        for i in state.queue.indices {
            // A record the queue still holds as stored is copied as it is.
            if let stored = state.queue.storedRecord(i) {
                w.varint(UInt64(stored.count))
                w.bytes.append(contentsOf: stored)
                continue
            }
            record.bytes.removeAll(keepingCapacity: true)
            TransactionRecordCodec.encode(state.queue[i], into: &record)
            w.varint(UInt64(record.bytes.count))
            w.raw(record.bytes)
        }
        return ChecksummedFile.encode(kind: StateFile.kind, version: StateFile.version, body: w.bytes)
    }

    /// The store format a state file's header names (1 or 2), checked as far as the header goes.
    static func format(of bytes: [UInt8], path: String) throws(StoreError) -> Int {
        try ChecksummedFile.version(of: bytes, kind: kind, maximumVersion: version, path: path)
    }

    static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> StateFile {
        let body = try ChecksummedFile.decode(bytes, kind: kind, maximumVersion: version, path: path)
        func damaged() -> StoreError {
            .damaged(path: path, problem: "state does not decode; the file is not what this iapctl wrote")
        }
        let decoded = body.withUnsafeBytes { raw -> StateFile? in
            var r = ByteReader(raw)
            guard let length = r.varint(), let name = r.string(), let sha = r.string() else { return nil }
            var state = StateDeltaCodec.base
            guard StateDeltaCodec.apply(from: &r, to: &state), let count = r.varint(), count <= UInt64(raw.count) else {
                return nil
            }
            // The queue's records are located, not decoded: a load must not grow with the queue.
            // Each record starts with its id (TransactionRecordCodec's first field).
            var ids: [TransactionID] = []
            var ranges: [Range<Int>] = []
            ids.reserveCapacity(Int(count))
            ranges.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let n = r.varint(), n <= UInt64(raw.count - r.index) else { return nil }
                let range = r.index..<(r.index + Int(n))
                var head = ByteReader(UnsafeRawBufferPointer(rebasing: raw[range]))
                guard head.varint() == 1 << 3, let id = head.varint(), ids.last.map({ $0.rawValue < id }) ?? true else {
                    return nil
                }
                ids.append(TransactionID(id))
                ranges.append(range)
                r.index = range.upperBound
            }
            guard r.isAtEnd else { return nil }
            state.replaceQueue(with: PaymentQueue(ids: ids, records: body, ranges: ranges))
            return StateFile(journalLength: length, catalogName: name, catalogSHA256: sha, state: state)
        }
        guard let decoded else { throw damaged() }
        return decoded
    }
}
