/// Reading and writing the files receipt commands name: `FILE` arguments (base64 text or DER,
/// decided by `DecodedReceipt`) and `receipt --der FILE`.
public enum ReceiptFile {
    /// The bytes of `path`; exit 66 when it is missing, a directory or unreadable.
    public static func read(_ path: String) throws(StoreError) -> [UInt8] {
        guard let file = try PosixFile.openForReading(path) else {
            throw .unreadable(path: path, reason: "no such file (give a receipt file, base64 or DER, or - for stdin)")
        }
        guard !PosixFile.isDirectory(path) else { throw .unreadable(path: path, reason: "is a directory, not a receipt file") }
        return try file.readAll()
    }

    /// Writes `bytes` to `path` atomically (a temporary file renamed over it) and syncs it.
    public static func write(_ bytes: [UInt8], to path: String) throws(StoreError) {
        try PosixFile.replaceAtomically(path, with: bytes, directory: PosixFile.parentDirectory(of: path))
    }
}
