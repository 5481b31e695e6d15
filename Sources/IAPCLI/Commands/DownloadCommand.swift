import IAPKit

/// `iapctl download start|pause|resume|cancel|run TXID`: moving hosted downloads along their
/// lifecycle (REFERENCE section 2) and running them, chunk by chunk, into the store.
enum DownloadCommand {
    static let group = CommandSpec(
        name: "download",
        summary: "Start, pause, resume, cancel or run the hosted downloads of a transaction",
        discussion: """
            A download is waiting until started; start: waiting -> active; pause: active -> paused; resume: \
            paused -> active; cancel: waiting, active or paused -> cancelled; run: active -> finished (or \
            failed, with an armed download fault). Finished, failed and cancelled are terminal. A move the \
            lifecycle forbids exits 4 and changes nothing; an unknown transaction or content exits 3. \
            Downloads exist only until their transaction is finished: finishing cancels the unfinished ones \
            (StoreKit), or waits for them with 'iapctl config set finish-after-downloads true' (RMStore).
            """,
        subcommands: [start.spec, pause.spec, resume.spec, cancel.spec, run.spec]
    )

    static let children = [start, pause, resume, cancel, run]

    static let start = move(.start, "Start waiting downloads (waiting -> active)")
    static let pause = move(.pause, "Pause active downloads (active -> paused)")
    static let resume = move(.resume, "Resume paused downloads (paused -> active)")
    static let cancel = move(
        .cancel, "Cancel downloads that have not ended (-> cancelled); their partial copies are removed")

    static let contentOption = OptionSpec.value(
        "content", "id", help: "Only the download with this content identifier (default: every download the move applies to)")

    static func move(_ move: DownloadMove, _ summary: String) -> CommandDefinition {
        CommandDefinition(
            CommandSpec(
                name: move.rawValue,
                summary: summary,
                discussion: """
                    Without --content, the move applies to every download of the transaction in a state it moves \
                    from (\(move.from)); exit 4 when there is none. With --content, that download must be in such \
                    a state (exit 4 otherwise, nothing changes). Events: download\(move.change.rawValue.prefix(1).uppercased() + move.change.rawValue.dropFirst()).
                    """,
                arguments: [ArgumentSpec("TXID", help: "The purchased or restored transaction")],
                options: [contentOption],
                examples: [
                    "iapctl download \(move.rawValue) 2000000000000001",
                    "iapctl download \(move.rawValue) 2000000000000001 --content levels --json",
                ]
            ), run: { c in try runMove(move, c) })
    }

    static func content(_ i: ParsedInvocation) throws -> String? {
        guard let content = i.value("content") else { return nil }
        guard !content.isEmpty else {
            throw i.usageError("empty --content; give a content identifier such as levels (see 'iapctl downloads TXID')")
        }
        return content
    }

    static func runMove(_ move: DownloadMove, _ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try TransactionArgument.id(i.positional("TXID"), in: i)
        let content = try content(i)
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.download(move, id, content: content))
            if c.json {
                let t = try s.transaction(id)
                DownloadRow.printJSON(t.map { DownloadRow.rows(of: $0, content: s.machine.contentDownload(of: id)) } ?? [], c)
            } else {
                guard case .downloadsMoved(let move, _, let moved, let finish) = effects.outcome else {
                    return ExitCode(effects.outcome)
                }
                for d in moved { c.stdout.line(EventText.download(move.change, of: id, d)) }
                for line in EventText.lines(finish) { c.stdout.line(line) }
            }
            return .success
        }
    }

    // MARK: - run

    static let run = CommandDefinition(
        CommandSpec(
            name: "run",
            summary: "Drive active downloads to the end, copying their content into the store",
            discussion: """
                Each active download (or only --content) advances in steps of --chunk bytes (default 4096): \
                the bytes are copied into <store>/content/<TXID>/<CONTENT>/, byte for byte, synced, and then \
                recorded as a downloadUpdated event; the last step also emits downloadFinished, and the copy is \
                compared with the hosted content. The steps depend only on the content and --chunk, so runs \
                are deterministic. An armed download fault fails the download at a step (downloadFailed, \
                partial copy removed). --steps stops after that many steps, leaving downloads active (resume \
                with another run). On a terminal a progress bar is drawn; piped, one line per step; with \
                --json, the transaction's downloads at the end. Exit 0 when every driven download finished, 1 \
                when one failed, 5 when --steps left some active, 4 when none was active.
                """,
            arguments: [ArgumentSpec("TXID", help: "The purchased or restored transaction")],
            options: [
                contentOption,
                .value("chunk", "bytes", help: "Bytes per step, 1 to 1073741824 (default: 4096)"),
                .value("steps", "n", help: "Stop after this many steps (default: run to the end)"),
            ],
            examples: [
                "iapctl download run 2000000000000001", "iapctl download run 2000000000000001 --chunk 1024 --steps 2",
                "iapctl download run 2000000000000001 --json",
            ]
        ), run: runRun)

    static func runRun(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try TransactionArgument.id(i.positional("TXID"), in: i)
        let content = try content(i)
        let chunk = Int64(try i.int("chunk", in: 1...(1 << 30)) ?? 4096)
        let maximumSteps = try i.int("steps", in: 1...Int.max)
        let display = c.json ? nil : ProgressDisplay(console: c.stdout)
        return try c.write { s throws(StoreError) in
            let (t, downloads) = try s.machine.activeDownloads(of: id, content: content, archive: s)
            var steps = 0
            var failed = false
            var stoppedEarly = false
            var finishLines: [String] = []
            downloadLoop: for start in downloads {
                let copy = try s.contentCopy(transaction: t, download: start)
                let label = start.contentIdentifier
                var done = start.downloadedBytes
                while true {
                    if let maximumSteps, steps >= maximumSteps {
                        stoppedEarly = true
                        break downloadLoop
                    }
                    let next = min(done + chunk, start.contentLength)
                    try copy.write(from: done, to: next)
                    let effects = try s.apply(.recordDownloadProgress(id, content: label, downloadedBytes: next))
                    steps += 1
                    if !c.json { for line in EventText.faultLines(effects) { c.stdout.line(line) } }
                    finishLines += EventText.lines(effects.finish)
                    let now = try s.transaction(id)?.downloads.first { $0.contentIdentifier == label }
                    guard let now else { break }
                    switch now.state {
                    case .failed:
                        // The session removed the partial copy (StoreEffect.removeDownloadCopy).
                        failed = true
                        display?.end(label, "failed: \(now.error.map { "\($0)" } ?? "unknown error")")
                        continue downloadLoop
                    case .finished:
                        try copy.verify()
                        display?.step(label, progress: 1, detail: "\(now.downloadedBytes)/\(now.contentLength) bytes")
                        display?.end(label, "finished: \(now.contentLength) bytes in \(copy.directory)")
                        continue downloadLoop
                    case .waiting, .active, .paused, .cancelled:
                        display?.step(label, progress: now.progress, detail: "\(now.downloadedBytes)/\(now.contentLength) bytes")
                        done = now.downloadedBytes
                    }
                }
            }
            if stoppedEarly && c.stdout.isTerminal && !c.json { c.stdout.write("\n") }
            if c.json {
                let latest = try s.transaction(id)
                DownloadRow.printJSON(
                    latest.map { DownloadRow.rows(of: $0, content: s.machine.contentDownload(of: id)) } ?? [], c)
            } else {
                for line in finishLines { c.stdout.line(line) }
                if stoppedEarly { c.stdout.line("stopped after \(steps) step\(steps == 1 ? "" : "s"); run again to continue") }
            }
            if failed { return .declined }
            return stoppedEarly ? .pending : .success
        }
    }
}
