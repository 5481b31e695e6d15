import IAPJSON

/// What the store's `state` file holds: the machine's working state plus the bookkeeping that
/// ties it to the journal and the catalog. Writing this file (atomically) is the commit point of
/// every command.
struct StateFile: Codable, Equatable {
    static let kind = "state"
    static let version = 1

    /// How many bytes of the journal are committed.
    var journalLength: UInt64
    /// The catalog the store was created with: its name (a file name or "built-in") and SHA-256.
    var catalogName: String
    var catalogSHA256: String
    var state: StoreState

    func encoded() -> [UInt8] {
        // Encoding plain structs of strings, integers and arrays cannot fail.
        var writer = JSONWriter(capacity: 4096)
        writer.value((try? JSONValueEncoder.encode(self)) ?? .null)
        return ChecksummedFile.encode(kind: StateFile.kind, version: StateFile.version, body: writer.bytes + [0x0A])
    }

    static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> StateFile {
        let body = try ChecksummedFile.decode(bytes, kind: kind, maximumVersion: version, path: path)
        do {
            return try JSONValueDecoder.decode(StateFile.self, from: try JSONParser.parse(body))
        } catch {
            throw .damaged(path: path, problem: "state does not decode (\(error)); the file is not what this iapctl wrote")
        }
    }
}
