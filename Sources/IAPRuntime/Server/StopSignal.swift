#if canImport(Glibc)
    import Glibc
#endif

/// A one-way "stop now" flag that `poll` can wait on: a pipe whose read end becomes readable,
/// for good, once anything is written to the write end.
///
/// Nobody ever reads the pipe, so every thread polling it sees the stop: the accept loop, each
/// connection between requests, the webhook poller. Writing is async-signal-safe, which is how
/// SIGINT and SIGTERM stop the server (the self-pipe trick), with no sleep loop anywhere.
package final class StopSignal: @unchecked Sendable {
    package let readFD: Int32
    package let writeFD: Int32

    package init() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { fatalError("pipe: \(String(cString: strerror(errno)))") }
        readFD = fds[0]
        writeFD = fds[1]
        Socket.setCloseOnExec(readFD)
        Socket.setCloseOnExec(writeFD)
        Socket.setNonBlocking(writeFD)
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    package func trigger() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    package var isTriggered: Bool { !Socket.waitReadable([readFD], timeout: 0).isEmpty }

    /// Waits up to `seconds`; true when it returned because of the stop.
    package func wait(seconds: Double) -> Bool { !Socket.waitReadable([readFD], timeout: seconds).isEmpty }

    // MARK: - Signals

    /// Routes SIGINT and SIGTERM to `trigger()` until `restoreSignals()`; returns nothing, the
    /// handler only writes a byte to the pipe.
    package func catchTerminationSignals() {
        signalPipeWriteFD = writeFD
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(signalPipeWriteFD, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, &previousINT)
        sigaction(SIGTERM, &action, &previousTERM)
        // A parent may have started us with these signals blocked (the mask is inherited across
        // exec); threads started from here on inherit this thread's mask.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, &previousMask)
    }

    package func restoreSignals() {
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        sigaction(SIGINT, &previousINT, nil)
        sigaction(SIGTERM, &previousTERM, nil)
        signalPipeWriteFD = -1
    }

    private var previousINT = sigaction()
    private var previousTERM = sigaction()
    private var previousMask = sigset_t()
}

/// The pipe the signal handler writes to; a C handler cannot capture, so it is global.
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1
