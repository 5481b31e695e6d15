#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's lock: `flock` on `<store>/lock`, exclusive for writers and shared for readers, so
/// any number of iapctl processes serialize their changes and readers see whole commits.
///
/// Waiting polls with a short, growing pause until the timeout (measured on the monotonic clock,
/// which only bounds the wait and never reaches the store's data).
final class FileLock {
    enum Mode { case shared, exclusive }

    let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
    }

    static func acquire(_ path: String, mode: Mode, timeout seconds: Double, storePath: String) throws(StoreError) -> FileLock {
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 && mode == .shared && (errno == EACCES || errno == EROFS || errno == EPERM) {
            // A store the user may read but not write: a shared lock needs no write access
            // (flock works on a descriptor opened for reading). With no lock file and no right to
            // make one, no writer of this user can exist either: read without it.
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 && errno == ENOENT { return FileLock(path: path, fd: -1) }
        }
        guard fd >= 0 else { throw .io(path: path, reason: PosixFile.errnoText()) }
        let operation = (mode == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
        let deadline = monotonicSeconds() + max(0, seconds)
        var pause: UInt32 = 200  // microseconds
        while true {
            if flock(fd, operation) == 0 { return FileLock(path: path, fd: fd) }
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw .io(path: path, reason: PosixFile.errnoText(code))
            }
            if monotonicSeconds() >= deadline {
                close(fd)
                throw .busy(path: storePath, seconds: seconds)
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
