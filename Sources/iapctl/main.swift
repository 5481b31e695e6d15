import Foundation
import IAPCLI

// The whole program is IAPCLI.run; this only connects it to the process.
signal(SIGPIPE, SIG_IGN)
let code = run(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
    stdout: FileConsole(fd: 1), stderr: FileConsole(fd: 2),
    standardInput: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) })
exit(code.rawValue)
