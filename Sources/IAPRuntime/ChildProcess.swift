#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `/bin/sh -c COMMAND` with `posix_spawn`: bytes on its stdin, its stdout read line by line,
/// stderr passed through, the environment given (Foundation's `Process` and `Pipe` without
/// Foundation). RMStore's content downloader runs through this.
public struct ChildProcess {
    /// How a child ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case killed(signal: Int32)
        /// It could not be started; errno's text.
        case notStarted(String)
    }

    public let command: String
    public let environment: [String: String]

    public init(shellCommand: String, environment: [String: String]) {
        command = shellCommand
        self.environment = environment
    }

    /// Starts the child, writes `input` to its stdin (then closes it), calls `line` for each
    /// stdout line (without its newline, the last one even without), and waits for it.
    public func run(input: [UInt8], line: (String) -> Void) -> Termination {
        var stdinPipe: [Int32] = [0, 0]
        var stdoutPipe: [Int32] = [0, 0]
        guard pipe(&stdinPipe) == 0 else { return .notStarted(String(cString: strerror(errno))) }
        guard pipe(&stdoutPipe) == 0 else {
            close(stdinPipe[0])
            close(stdinPipe[1])
            return .notStarted(String(cString: strerror(errno)))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        for fd in [stdinPipe[0], stdinPipe[1], stdoutPipe[0], stdoutPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        close(stdinPipe[0])
        close(stdoutPipe[1])
        guard spawned == 0 else {
            close(stdinPipe[1])
            close(stdoutPipe[0])
            return .notStarted(String(cString: strerror(spawned)))
        }
        // A child that exits without reading its input must not kill iapctl with SIGPIPE.
        let previous = signal(SIGPIPE, SIG_IGN)
        var written = 0
        while written < input.count {
            let n = input.withUnsafeBytes { write(stdinPipe[1], $0.baseAddress! + written, input.count - written) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            written += n
        }
        close(stdinPipe[1])
        signal(SIGPIPE, previous)
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(stdoutPipe[0], $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending += buffer[0..<n]
            while let newline = pending.firstIndex(of: 0x0A) {
                line(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
        close(stdoutPipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signalled = status & 0x7F
        if signalled != 0 && signalled != 0x7F { return .killed(signal: signalled) }
        return .exited((status >> 8) & 0xFF)
    }

    /// The process's own environment, as a dictionary.
    public static var currentEnvironment: [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") { out[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
            p += 1
        }
        return out
    }
}
