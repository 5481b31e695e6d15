#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies one hosted content into the store, a byte range at a time, for `download run`.
///
/// The content's files, in path order, are laid end to end; a download's `downloadedBytes` is a
/// position in that sequence. `write(from:to:)` puts bytes `[from, to)` in place under
/// `directory` (creating a file, truncated, when its first byte is written) and syncs them, so
/// the progress the machine records next is never ahead of the disk. A run killed between the
/// copy and the commit only leaves bytes that the next run writes again, identically.
public struct HostedContentCopy {
    /// `<store>/content/<transactionId>/<contentId>`.
    public let directory: String
    private let files: [(path: String, bytes: [UInt8])]
    private let starts: [Int64]
    public let totalBytes: Int64

    public init(files: [(path: String, bytes: [UInt8])], directory: String) {
        self.files = files
        self.directory = directory
        var starts: [Int64] = []
        var offset: Int64 = 0
        for f in files {
            starts.append(offset)
            offset += Int64(f.bytes.count)
        }
        self.starts = starts
        totalBytes = offset
    }

    /// The store-relative files, in copy order, for messages.
    public var paths: [String] { files.map { directory + "/" + $0.path } }

    /// Writes bytes `[from, to)` of the content into place and syncs them.
    public func write(from: Int64, to: Int64) throws(StoreError) {
        precondition(0 <= from && from <= to && to <= totalBytes, "byte range \(from)..<\(to) outside the content")
        try PosixFile.makeDirectory(directory)
        for (i, f) in files.enumerated() {
            let start = starts[i]
            let end = start + Int64(f.bytes.count)
            let isEmptyFileAtStart = f.bytes.isEmpty && from == start
            guard (end > from && start < to) || isEmptyFileAtStart else { continue }
            let lower = max(from, start) - start
            let upper = min(to, end) - start
            let path = directory + "/" + f.path
            try PosixFile.makeDirectory(PosixFile.parentDirectory(of: path))
            let isFirstWrite = lower == 0
            let file = try PosixFile.openForWriting(path, truncate: isFirstWrite)
            try file.write(Array(f.bytes[Int(lower)..<Int(upper)]), at: UInt64(lower))
            try file.sync()
            if isFirstWrite { try PosixFile.syncDirectory(PosixFile.parentDirectory(of: path)) }
        }
    }

    /// Checks that every file in place equals its source, byte for byte.
    public func verify() throws(StoreError) {
        for f in files {
            let path = directory + "/" + f.path
            guard let file = try PosixFile.openForReading(path) else {
                throw .io(path: path, reason: "missing after the download finished")
            }
            guard try file.readAll() == f.bytes else {
                throw .io(path: path, reason: "differs from the hosted content after copying")
            }
        }
    }

    /// Removes what was copied (a failed or cancelled download leaves nothing behind).
    public func remove() {
        HostedContentCopy.removeTree(directory)
    }

    static func removeTree(_ path: String) {
        guard PosixFile.isDirectory(path) else {
            unlink(path)
            return
        }
        for relative in StoreCatalog.listFiles(path) { unlink(path + "/" + relative) }
        removeDirectories(path)
    }

    private static func removeDirectories(_ path: String) {
        guard let dir = opendir(path) else { return }
        var children: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { ptr in
                ptr.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { children.append(name) }
        }
        closedir(dir)
        for child in children where PosixFile.isDirectory(path + "/" + child) { removeDirectories(path + "/" + child) }
        rmdir(path)
    }
}
