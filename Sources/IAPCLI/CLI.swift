import IAPKit
import IAPRuntime

/// Runs iapctl with `arguments` (without the program name) and returns the exit code. This is
/// the whole CLI: `main.swift` only passes the process's argv, environment and file descriptors. The
/// environment is read only when a command first needs it (not for `--version`, help, or a
/// command given `--store` that starts no child process).
public func run(
    arguments: [String], environment: @autoclosure () -> [String: String] = [:], stdout: Console, stderr: Console,
    standardInput: @escaping () -> [UInt8] = { [] }, stores: StoreRegistry? = nil
) -> ExitCode {
    defer {
        stdout.flush()
        stderr.flush()
    }
    // `iapctl --version` alone answers before the command table is built (a third of its
    // start-up): scripts and CI call it to probe the tool, and it must start as fast as Swift can.
    if arguments == ["--version"] {
        stdout.line("iapctl \(iapctlVersion)")
        return .success
    }
    let invocation: ParsedInvocation
    let runner: (CommandContext) throws -> ExitCode
    // A line that runs one leaf command is parsed against that command alone (the first word
    // that names one), so the other commands' tables are never built; anything else (help,
    // --version, a group, a mistake to report with the full table's suggestions) is parsed
    // against the whole table, as before.
    // Lines run in one process (`iapctl run`) repeat themselves: a line bound before is not
    // bound again (binding reads nothing but the words and the static command table).
    if let stores, let bound = stores.boundLines[arguments] {
        invocation = bound.invocation
        runner = bound.run
    } else if let leaf = CommandTable.firstLeaf(in: arguments),
        let alone = try? Binder.parse(arguments: arguments, root: CommandTable.root(alone: leaf)),
        !alone.wantsHelp, !alone.wantsVersion, alone.path == [leaf.spec.name]
    {
        invocation = alone
        runner = leaf.run
        stores?.remember(arguments, invocation: alone, run: leaf.run)
    } else {
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
        guard let found = CommandTable.runner(for: invocation.path) else {
            stdout.write(invocation.helpText)
            return .success
        }
        runner = found
    }
    // The context reads the environment when a command first asks for it; it holds the caller's
    // closure only while the command runs.
    return withoutActuallyEscaping(environment) { readEnvironment -> ExitCode in
        let context = CommandContext(
            invocation: invocation, stdout: stdout, stderr: stderr, environment: readEnvironment(),
            standardInput: standardInput, stores: stores)
        defer { context.forgetEnvironmentSource() }
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
}
