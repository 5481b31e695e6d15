/// The store's `state` file: a checkpoint of the working state (format 2).
///
/// It holds the state as of `journalLength` bytes of journal, the catalog the store was created
/// with, and the payment queue; loading reads it and folds the frames after `journalLength` (the
/// tail). It is rewritten (temporary file, `fdatasync`, rename, directory `fsync`) only when the
/// tail has grown past `Store.checkpointBound(stateSize:)`, never as part of a commit: the journal frame is
/// the commit point. A crash while it is rewritten leaves the previous checkpoint, whose tail
/// still holds everything.
///
/// Body (after the `ChecksummedFile` header line `iapctl-state v3 ...`): `[journalLength
/// varint][catalog name][catalog SHA-256][state: a full StateDeltaCodec record][queue count]
/// [each queued id, as the difference from the previous one (the first from 0)]`. The queue's
/// transactions are in the journal, read through the index when a command needs one, so the
/// checkpoint, its checksum and a load grow by a byte or two per queued transaction.
///
/// Header v2 (the format-2 stores of development builds before this one) had each queued
/// transaction's whole record after the count; it is read by taking the id from the head of each
/// record. Both are store format 2.
struct StateFile: Equatable {
    static let kind = "state"
    static let version = 3

    /// How many bytes of the journal the state includes.
    var journalLength: UInt64
    /// The catalog the store was created with: its name (a file name or "built-in") and SHA-256.
    var catalogName: String
    var catalogSHA256: String
    var state: StoreState

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 512 + 2 * state.queue.count)
        w.varint(journalLength)
        w.string(catalogName)
        w.string(catalogSHA256)
        StateDeltaCodec.encode(from: nil, to: state, into: &w)
        w.varint(UInt64(state.queue.count))
        var previous: UInt64 = 0
        for id in state.queue.ids {
            w.varint(id.rawValue - previous)
            previous = id.rawValue
        }
        return ChecksummedFile.encode(kind: StateFile.kind, version: StateFile.version, body: w.bytes)
    }

    /// The store format a state file's header names: 1, or 2 for state file versions 2 and 3.
    static func format(of bytes: [UInt8], path: String) throws(StoreError) -> Int {
        min(2, try ChecksummedFile.version(of: bytes, kind: kind, maximumVersion: version, path: path))
    }

    static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> StateFile {
        let version = try ChecksummedFile.version(of: bytes, kind: kind, maximumVersion: Self.version, path: path)
        let body = try ChecksummedFile.decode(bytes, kind: kind, maximumVersion: Self.version, path: path)
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
            var ids: [TransactionID] = []
            ids.reserveCapacity(Int(count))
            var previous: UInt64 = 0
            for _ in 0..<count {
                let id: UInt64
                if version >= 3 {
                    guard let delta = r.varint(), delta > 0 || ids.isEmpty, delta <= UInt64.max - previous else { return nil }
                    id = previous + delta
                } else {
                    // A v2 record: its length, then TransactionRecordCodec's first field, the id.
                    guard let n = r.varint(), n <= UInt64(raw.count - r.index) else { return nil }
                    let range = r.index..<(r.index + Int(n))
                    var head = ByteReader(UnsafeRawBufferPointer(rebasing: raw[range]))
                    guard head.varint() == 1 << 3, let value = head.varint() else { return nil }
                    id = value
                    r.index = range.upperBound
                }
                guard ids.isEmpty || previous < id else { return nil }
                ids.append(TransactionID(id))
                previous = id
            }
            guard r.isAtEnd else { return nil }
            state.replaceQueue(with: PaymentQueue(ids: ids))
            return StateFile(journalLength: length, catalogName: name, catalogSHA256: sha, state: state)
        }
        guard let decoded else { throw damaged() }
        return decoded
    }
}
