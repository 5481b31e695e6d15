import IAPUI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What wakes the Transaction Manager's event stream: a commit, and nothing a reader does.
///
/// Every reader opens `<store>/lock` for writing to `flock` it; if closing it woke the watcher,
/// the stream would read the store again on each of its own reads, keeping a core busy and
/// starving writers (a CLI `buy` waited seconds for the lock). inotify queues an event when the
/// system call happens, so a zero-timeout poll right after a command sees exactly what it did.
@Suite("Store watch")
struct StoreWatchTests {
    static func pending(_ watch: StoreWatch) -> Bool {
        guard let fd = watch.descriptor else { return false }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    @Test("reads (dump, show, events, the lock opened and closed) wake nobody; a buy, a finish, a clear do")
    func onlyCommitsWake() throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        let watch = StoreWatch(directory: h.store)
        try #require(watch.descriptor != nil, "inotify is available on Linux")
        #expect(!Self.pending(watch))
        for read in [["dump"], ["show", "2000000000000001"], ["events"], ["queue", "--json"], ["receipt", "--json"]] {
            #expect(h.run(read).code == 0, "\(read)")
            #expect(!Self.pending(watch), "'iapctl \(read.joined(separator: " "))' only reads, yet woke the watcher")
        }
        for write in [["buy", "com.x.noads"], ["finish", "--all"], ["clear", "--yes"]] {
            #expect(h.run(write).code == 0, "\(write)")
            #expect(Self.pending(watch), "'iapctl \(write.joined(separator: " "))' commits, yet the watcher slept")
            watch.clear()
            #expect(!Self.pending(watch))
        }
    }
}
