import Foundation

/// Runs one child process to its end, for every test that starts one (the built `iapctl`,
/// `openssl`, `python3`, `make`, `git`): feeds its standard input, collects both outputs, and
/// reports how it ended.
///
/// A child that exits before reading all its input (a Python script whose import fails, a tool
/// that rejects its arguments) closes the pipe under the writer. By default that raises SIGPIPE,
/// which kills the whole test process: no test reported, no summary. So the test process ignores
/// SIGPIPE (``ignoreBrokenPipe``), the write then fails with EPIPE, and that is not an error here:
/// the child's exit code and stderr say what went wrong, and only the test that ran it fails.
enum ChildProcess {
    /// What a child did.
    struct Outcome {
        /// The exit status, or 128 + the signal for a child killed by one (as shells report it).
        let code: Int32
        let stdout: Data
        let stderr: Data
        /// How many bytes of the standard input the child took before it closed the pipe.
        let stdinWritten: Int
    }

    /// Makes SIGPIPE harmless in this (the test) process, once: a write to a pipe whose reader
    /// is gone returns EPIPE instead of ending the process.
    ///
    /// A handler that does nothing, not `SIG_IGN`: an ignored signal stays ignored in every child
    /// `Process` starts (it does not reset dispositions), while a handler is reset to the default
    /// by exec, so children (a shell pipeline, `iapctl dump | head`) behave as in a terminal.
    static let ignoreBrokenPipe: Void = {
        signal(SIGPIPE) { _ in }
    }()

    /// Starts `executable` and waits for it. `stdin` is written from a thread of its own while
    /// the outputs are read, so no pipe can fill up and block either side; nil leaves the
    /// standard input empty.
    static func run(
        _ executable: String, _ arguments: [String], directory: String? = nil, environment: [String: String]? = nil,
        stdin: [UInt8]? = nil
    ) throws -> Outcome {
        _ = ignoreBrokenPipe
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var written = 0
        let writer = input.fileHandleForWriting
        let bytes = stdin ?? []
        group.enter()
        DispatchQueue.global().async {
            written = feed(bytes, to: writer)
            try? writer.close()
            group.leave()
        }
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let code = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Outcome(code: code, stdout: outData, stderr: errData, stdinWritten: written)
    }

    /// Writes `bytes` in chunks until done or until the reader is gone (EPIPE); returns how many
    /// were taken.
    static func feed(_ bytes: [UInt8], to handle: FileHandle) -> Int {
        _ = ignoreBrokenPipe
        var offset = 0
        let chunk = 64 * 1024
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            do {
                try handle.write(contentsOf: Data(bytes[offset..<end]))
            } catch {
                return offset
            }
            offset = end
        }
        return offset
    }
}
