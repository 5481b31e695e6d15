#if canImport(Glibc)
    import Glibc
#endif

/// Learns of every commit to a store from any process, through inotify on the store directory.
///
/// A commit appends a frame to `<store>/journal` (a write: `IN_MODIFY`); a checkpoint or a new
/// store renames, creates or deletes files there (`IN_MOVED_TO`, `IN_CREATE`, `IN_DELETE`). Each
/// is a hint to read the store again; what changed is read from the store itself, under its lock.
/// `IN_CLOSE_WRITE` is not watched: every reader, this one included, opens `<store>/lock` for
/// writing to `flock` it, so each read would wake the watcher to read again, a loop that keeps a
/// core busy and starves writers of the lock. When inotify is not
/// available (or the directory does not exist yet) `descriptor` is nil, and the reader falls back
/// to looking again after a timeout.
package final class StoreWatch {
    package let descriptor: Int32?
    private var drain = [UInt8](repeating: 0, count: 4096)

    package init(directory: String) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else {
            descriptor = nil
            return
        }
        let mask = UInt32(IN_MODIFY | IN_MOVED_TO | IN_CREATE | IN_DELETE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            close(fd)
            descriptor = nil
            return
        }
        descriptor = fd
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Reads and forgets every pending notification (one read of the store covers them all).
    package func clear() {
        guard let descriptor else { return }
        while drain.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
