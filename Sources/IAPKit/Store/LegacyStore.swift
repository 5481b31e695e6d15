import IAPJSON

/// A store written by iapctl 0.1.0 (store format 1): a JSON `state` file, which held the whole
/// working state and the committed journal length and was the commit point, and a version-1
/// journal of transaction records and event JSON (`LegacyJournal`).
///
/// Such a store is read whole into memory: every latest transaction version and every event's
/// JSON. Reading commands answer from that; the first writing command migrates it
/// (`Store.migrate`): one commit frame holding all of it, in a new format-2 journal.
///
/// A class: every session holds a `LegacyStore?` (nil but for format 1), and an optional of a
/// struct holding these fields is copied and destroyed through runtime metadata (an optional's,
/// a dictionary's, a tuple array's) that a format-2 `buy` would otherwise build at start-up for
/// nothing (issue 12); an optional reference is a pointer. It is filled in by `load` alone.
final class LegacyStore {
    let stateFile: StateFile
    /// The latest version of every transaction the journal holds, tombstones included.
    private(set) var transactions: [UInt64: Transaction] = [:]
    /// Every event, in journal order, as the JSON 0.1.0 wrote (what `iapctl events` printed).
    private(set) var events: [(seq: UInt64, json: [UInt8])] = []

    init(stateFile: StateFile) {
        self.stateFile = stateFile
    }

    /// The JSON form of the format-1 state file.
    private struct FileV1: Codable {
        var journalLength: UInt64
        var catalogName: String
        var catalogSHA256: String
        var state: StoreState
    }

    static func decodeState(_ bytes: [UInt8], path: String) throws(StoreError) -> StateFile {
        let body = try ChecksummedFile.decode(bytes, kind: StateFile.kind, maximumVersion: 1, path: path)
        let file: FileV1
        do {
            file = try JSONValueDecoder.decode(FileV1.self, from: try JSONParser.parse(body))
        } catch {
            throw .damaged(path: path, problem: "state does not decode (\(error)); the file is not what this iapctl wrote")
        }
        return StateFile(
            journalLength: file.journalLength, catalogName: file.catalogName, catalogSHA256: file.catalogSHA256,
            state: file.state)
    }

    /// Reads the whole store: state, then every committed journal record.
    static func load(stateBytes: [UInt8], statePath: String, journalPath: String) throws(StoreError) -> LegacyStore {
        let stateFile = try decodeState(stateBytes, path: statePath)
        guard let f = try PosixFile.openForReading(journalPath) else { throw .damaged(path: journalPath, problem: "missing") }
        let journal = LegacyJournal(file: f)
        try journal.validate(committedLength: stateFile.journalLength)
        let store = LegacyStore(stateFile: stateFile)
        var reader = LegacyJournalReader(journal: journal, limit: stateFile.journalLength)
        var offset = LegacyJournal.headerSize
        while offset < stateFile.journalLength {
            let r = try reader.record(at: offset)
            switch r.type {
            case .transaction:
                guard let t = reader.withPayload(r, TransactionRecordCodec.decode) else {
                    throw .damaged(path: journalPath, problem: "record at byte \(offset): malformed transaction")
                }
                store.transactions[t.id.rawValue] = t
            case .event:
                let payload = Array(reader.payload(r))
                guard payload.count > 8 else {
                    throw .damaged(path: journalPath, problem: "record at byte \(offset): malformed event")
                }
                var seq: UInt64 = 0
                for i in 0..<8 { seq |= UInt64(payload[i]) << UInt64(8 * i) }
                store.events.append((seq, Array(payload[8...])))
            }
            offset = r.next
        }
        return store
    }
}
