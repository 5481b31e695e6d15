import IAPKit

/// The version `iapctl --version` prints.
public let iapctlVersion = "0.1.0"

/// Runs iapctl with `arguments` (without the program name) and returns the exit code. This is
/// the whole CLI: `main.swift` only passes the process's argv, environment and file descriptors. The
/// environment is read only when a command runs (not for `--version` or help).
public func run(
    arguments: [String], environment: @autoclosure () -> [String: String] = [:], stdout: Console, stderr: Console,
    standardInput: @escaping () -> [UInt8] = { [] }, stores: StoreRegistry? = nil
) -> ExitCode {
    defer {
        stdout.flush()
        stderr.flush()
    }
    let invocation: ParsedInvocation
    do {
        invocation = try Binder.parse(arguments: arguments, root: CommandTable.root)
    } catch {
        stderr.message("error: \(error)")
        return .usage
    }
    if invocation.wantsHelp {
        stdout.write(invocation.helpText)
        return .success
    }
    if invocation.wantsVersion {
        stdout.line("iapctl \(iapctlVersion)")
        return .success
    }
    guard let runner = CommandTable.runner(for: invocation.path) else {
        stdout.write(invocation.helpText)
        return .success
    }
    let context = CommandContext(
        invocation: invocation, stdout: stdout, stderr: stderr, environment: environment(), standardInput: standardInput,
        stores: stores)
    do {
        return try runner(context)
    } catch let error as StoreError {
        stderr.message("error: \(error)")
        return error.exitCode
    } catch let error as UsageError {
        stderr.message("error: \(error)")
        return .usage
    } catch {
        stderr.message("error: \(error)")
        return .ioError
    }
}
