import IAPCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The whole program is IAPCLI.run; this only connects it to the process. No Foundation: the
// binary links the Swift standard library and libc only, so it starts as fast as Swift can.
signal(SIGPIPE, SIG_IGN)
let code = run(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current(),
    stdout: FileConsole(fd: 1), stderr: FileConsole(fd: 2), standardInput: { ProcessEnvironment.readAll(fd: 0) })
exit(code.rawValue)
