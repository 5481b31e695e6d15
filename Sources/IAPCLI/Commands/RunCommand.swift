import IAPKit
import IAPRuntime

/// `iapctl run FILE|-`: a scenario file of iapctl commands and expectations, run in one process
/// (`docs/scenarios.md`).
enum RunCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "run",
            summary: "Run a scenario file: iapctl commands and checks, in one process",
            discussion: """
                Each line is an iapctl command (shell quoting, # comments), or a check: expect exit N, \
                expect state TXID STATE, expect json PATH == VALUE, expect count dump ... == N, \
                expect stdout ~ TEXT, expect stderr ~ TEXT; let NAME = PATH keeps a value as $NAME. \
                Lines run against a new temporary store unless --store is given. Prints each failed \
                check, then 'N passed, M failed'. Exit 0 when all pass, 1 when any fails, 65 when the \
                file is malformed (FILE:LINE:COLUMN named), 66 when it cannot be read. See docs/scenarios.md.
                """,
            arguments: [ArgumentSpec("FILE", help: "The scenario file, or - for standard input")],
            options: [
                .flag("verbose", help: "Print every line as it runs: commands with their exit code, checks"),
                .flag("keep", help: "Keep the temporary store and print its path on stderr"),
            ],
            examples: [
                "iapctl run Fixtures/scenarios/dyfstorekit-sample.iap",
                "iapctl run --store ./.iapctl smoke.iap --json",
                "iapctl run - < checks.iap",
            ]
        ), run: run)

    /// Set to 1 (by tests), `run` keeps its temporary store without making it a `--keep` one:
    /// still unsynced, still locked once, so what is compared is what a plain `run` does.
    static let keepPrivateStoreVariable = "IAPCTL_TEST_KEEP_PRIVATE_STORE"

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let path = i.positional("FILE") ?? "-"
        let label = path == "-" ? "<stdin>" : path
        let bytes = path == "-" ? c.standardInput() : try ScenarioSource.read(path)
        let lines: [ScenarioLine]
        do {
            lines = try ScenarioParser.parse(bytes: bytes, vocabulary: .iapctl)
        } catch {
            throw StoreError.badInput(.scenario(file: label, reason: "\(error)"))
        }
        // Nothing to run is a mistake, not a pass: a CI job fed an empty file must not go green.
        guard !lines.isEmpty else {
            throw StoreError.badInput(.emptyScenario(file: label))
        }

        // The scenario's store: the one --store names, else a new one that goes away afterwards.
        let scratch = i.globals.store == nil ? try ScenarioSource.makeScratchDirectory(environment: c.environment) : nil
        let store = i.globals.store ?? scratch! + "/store"
        let keep = i.flag("keep")
        // A temporary store is deleted at the end: its commits need to be right, not durable, and
        // no other process knows it, so its lock is taken once for the whole run. A kept one
        // (--keep) is synced and locked per line, as a --store one is.
        let isPrivate = scratch != nil && !keep
        let stores = StoreRegistry(syncs: !isPrivate, holdsLocks: isPrivate)
        // Tests only (RunEquivalenceTests): keep the private store as it was run, unsynced and
        // under its one lock, to compare it with the same lines run one process each.
        let inspect = isPrivate && c.environment[Self.keepPrivateStoreVariable] == "1"
        defer {
            stores.release()
            if let scratch {
                if keep || inspect {
                    c.stderr.message("kept the scenario's store at \(store)")
                } else {
                    ScenarioSource.remove(scratch)
                }
            }
        }
        if scratch != nil || i.globals.catalog != nil {
            // Make the temporary store now, bound to the catalog (or check an existing store is
            // bound to it), so the lines need not say --catalog and --keep keeps a store even
            // when every line only reads.
            try Store(path: store, lockTimeout: c.lockTimeout).write(creating: StoreCreation(catalogFile: i.globals.catalog)) {
                _ in
            }
        }

        var environment = c.environment
        environment["IAPCTL_STORE"] = nil
        var configuration = ScenarioRunner.Configuration(
            store: store, scenarioDirectory: path == "-" ? "." : ScenarioSource.directory(of: path), vocabulary: .iapctl)
        if let timeout = i.globals.lockTimeout { configuration.globalArguments = ["--lock-timeout", "\(timeout)"] }
        let commandLine = InProcessScenarioCommandLine(environment: environment, stores: stores)

        var failures: [ScenarioFailure] = []
        let verbose = i.flag("verbose") && !c.json
        let runner = ScenarioRunner(configuration, commandLine: commandLine) { event in
            switch event {
            case .ran(let line, let code):
                if verbose { c.stdout.line("\(label):\(line.number): \(line.text)  -> exit \(code)") }
            case .passed(let line):
                if verbose { c.stdout.line("\(label):\(line.number): ok: \(line.text)") }
            case .failed(let failure):
                if c.json {
                    failures.append(failure)
                } else {
                    c.stdout.write(failure.rendered(file: label))
                }
            }
        }
        runner.run(lines)

        if c.json {
            c.printJSON { w in
                w.beginObject()
                w.key("file")
                w.string(label)
                w.key("passed")
                w.int(runner.passed)
                w.key("failed")
                w.int(runner.failed)
                w.key("failures")
                w.beginArray()
                for f in failures {
                    w.beginObject()
                    w.key("line")
                    w.int(f.line)
                    w.key("source")
                    w.string(f.source)
                    w.key("expected")
                    w.string(f.expected)
                    w.key("actual")
                    w.string(f.actual)
                    w.endObject()
                }
                w.endArray()
                w.key("store")
                if scratch == nil || keep { w.string(store) } else { w.null() }
                w.endObject()
            }
        } else {
            c.stdout.line("\(runner.passed) passed, \(runner.failed) failed")
        }
        return runner.failed == 0 ? .success : .declined
    }
}
