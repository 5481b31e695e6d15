import IAPKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the user names for a command's output (`receipt --der FILE`, `catalog convert --output
/// FILE`), written whole or not at all.
///
/// The bytes go to a temporary file beside the target, are synced, and are renamed over it, so a
/// reader never sees half a receipt and a failure leaves the old file as it was. A target that
/// exists and is not a regular file (`/dev/stdout`, a named pipe) is written directly. Failures
/// are exit 73 (EX_CANTCREAT) naming the path as the user wrote it, never the temporary one, and
/// say nothing about the store, which an output file is not part of.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws(StoreError) {
        guard !path.isEmpty else { throw .cannotCreate(path: path, reason: "the path is empty; name a file") }
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
            guard st.st_mode & S_IFMT != S_IFDIR else { throw .cannotCreate(path: path, reason: reason(EISDIR)) }
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .cannotCreate(path: path, reason: reason(errno)) }
            defer { close(fd) }
            try writeAll(bytes, to: fd, path: path)
            return
        }
        let temporary = path + ".iapctl-\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .cannotCreate(path: path, reason: reason(errno)) }
        do throws(StoreError) {
            try writeAll(bytes, to: fd, path: path)
            guard fsync(fd) == 0 else { throw StoreError.cannotCreate(path: path, reason: reason(errno)) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw .cannotCreate(path: path, reason: reason(code))
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .cannotCreate(path: path, reason: reason(code))
        }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(StoreError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotCreate(path: path, reason: reason(errno))
            }
            done += n
        }
    }

    /// What went wrong and what to do about it.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "its directory does not exist; create it first, or name a file in another one"
        case ENOTDIR: return "a part of the path is not a directory; name a file in a directory"
        case EACCES, EPERM: return "permission denied; name a file in a directory you can write"
        case EISDIR: return "it is a directory; name a file"
        case EROFS: return "the file system is read-only; name a file on another one"
        case ENOSPC, EDQUOT: return "no space left on the device; free some, or name a file on another one"
        default: return String(cString: strerror(code)) + "; name another file"
        }
    }
}
