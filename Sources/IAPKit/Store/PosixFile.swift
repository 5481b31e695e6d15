#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thin wrapper over a POSIX file descriptor: positioned reads and writes, fsync, and errors
/// that name the path and errno's text. The store uses it instead of FileHandle so that every
/// durability step (write, fdatasync, rename, directory fsync) is explicit.
final class PosixFile {
    let path: String
    let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    static func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// Opens for reading; nil when the file does not exist.
    static func openForReading(_ path: String) throws(StoreError) -> PosixFile? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: errnoText())
        }
        return PosixFile(path: path, fd: fd)
    }

    /// Opens (creating with mode 0600 when missing) for reading and writing.
    static func openForWriting(_ path: String, truncate: Bool = false) throws(StoreError) -> PosixFile {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0o600)
        if fd < 0 { throw .io(path: path, reason: errnoText()) }
        return PosixFile(path: path, fd: fd)
    }

    func size() throws(StoreError) -> UInt64 {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .unreadable(path: path, reason: PosixFile.errnoText()) }
        return UInt64(st.st_size)
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    func read(at offset: UInt64, count: Int) throws(StoreError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = try read(into: &buffer, at: offset)
        if got < count { buffer.removeLast(count - got) }
        return buffer
    }

    /// Fills `buffer` from `offset`, returning how many bytes were read (short only at EOF).
    func read(into buffer: inout [UInt8], at offset: UInt64) throws(StoreError) -> Int {
        var total = 0
        let count = buffer.count
        while total < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + total, count - total, off_t(offset) + off_t(total))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: PosixFile.errnoText())
            }
            if n == 0 { break }
            total += n
        }
        return total
    }

    func readAll() throws(StoreError) -> [UInt8] {
        try read(at: 0, count: Int(try size()))
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: UInt64) throws(StoreError) {
        if CrashInjection.isCrashStep() {
            // A torn write: half the bytes reach the file, then the process dies.
            _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, bytes.count / 2, off_t(offset)) }
            CrashInjection.crash()
        }
        if CrashInjection.isFailureStep() { throw .io(path: path, reason: PosixFile.errnoText(ENOSPC)) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                pwrite(fd, raw.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: PosixFile.errnoText())
            }
            done += n
        }
    }

    func truncate(to length: UInt64) throws(StoreError) {
        CrashInjection.step()
        guard ftruncate(fd, off_t(length)) == 0 else { throw .io(path: path, reason: PosixFile.errnoText()) }
    }

    /// Flushes file data (and the metadata needed to read it) to stable storage.
    func sync() throws(StoreError) {
        CrashInjection.step()
        guard fdatasync(fd) == 0 else { throw .io(path: path, reason: PosixFile.errnoText()) }
    }

    // MARK: - Whole files

    /// Replaces `path` atomically: write a temporary file, fsync it, rename it over the old one,
    /// fsync the directory. A reader sees the old file or the new one, never a mix.
    static func replaceAtomically(_ path: String, with bytes: [UInt8], directory: String, sync: Bool = true) throws(StoreError) {
        let temporary = path + ".tmp"
        let file = try openForWriting(temporary, truncate: true)
        do throws(StoreError) {
            try file.write(bytes, at: 0)
            // fdatasync suffices: the new file's data and size are what must be durable before the rename.
            guard !sync || fdatasync(file.fd) == 0 else { throw StoreError.io(path: temporary, reason: errnoText()) }
        } catch {
            unlink(temporary)
            throw error
        }
        CrashInjection.step()
        guard rename(temporary, path) == 0 else {
            let reason = errnoText()
            unlink(temporary)
            throw .io(path: path, reason: reason)
        }
        if sync { try syncDirectory(directory) }
    }

    static func syncDirectory(_ directory: String) throws(StoreError) {
        CrashInjection.step()
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: directory, reason: errnoText()) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .io(path: directory, reason: errnoText()) }
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` (mode 0700) and missing parents.
    static func makeDirectory(_ path: String) throws(StoreError) {
        if isDirectory(path) { return }
        let parent = parentDirectory(of: path)
        if parent != path && !parent.isEmpty && !isDirectory(parent) { try makeDirectory(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw .io(path: path, reason: errnoText()) }
    }

    /// Creates the store directory (and missing parents) or adopts an existing one, mode 0700:
    /// a store holds purchase history and keys, for its owner only.
    static func makeStoreDirectory(_ path: String) throws(StoreError) {
        try makeDirectory(path)
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & 0o777 != 0o700, chmod(path, 0o700) != 0 {
            throw .io(path: path, reason: errnoText())
        }
    }

    /// The names in a directory (without `.` and `..`), unsorted; empty when it cannot be read.
    static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}
