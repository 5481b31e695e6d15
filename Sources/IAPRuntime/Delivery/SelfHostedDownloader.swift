import IAPKit

/// RMStore's content downloader (`RMStoreContentDownloader`), as a command: the `downloader`
/// setting names a shell command that iapctl runs for each purchased or restored transaction of
/// a product marked `selfHosted`.
///
/// The command runs through `/bin/sh -c` with the transaction's JSON (the shape `iapctl show
/// --json` prints) and a newline on stdin, and `IAPCTL_TRANSACTION_ID` and `IAPCTL_PRODUCT_ID` in
/// its environment. Each stdout line `progress X` (X from 0 to 1) is RMStore's progress block;
/// other lines are ignored (log to stderr, which passes through). Exit status 0 is the success
/// block, anything else the failure block. Every report becomes a `recordContentDownload`
/// command, so the machine stays free of processes and each step is committed as it happens.
/// The store is not locked while the command runs (`DeliveryHost.yieldStore`, also under `iapctl
/// run`'s held lock): it may call `iapctl` on the same store.
public enum SelfHostedDownloader {
    /// The error domain of a failed downloader.
    public static let errorDomain = "iapctl.downloader"

    /// Runs the downloader for the self-hosted content of `ids` that waits (after a purchase or
    /// restore), or, with `ids` nil, for every content that waits or was interrupted while active
    /// (at launch). Returns false when one failed.
    public static func deliver(_ host: some DeliveryHost, only ids: [TransactionID]?) throws -> Bool {
        let (command, pending) = try host.read { s throws(StoreError) in
            let due = s.state.contentDownloads.filter { record in
                if let ids { return record.state == .waiting && ids.contains(record.transactionID) }
                return record.state == .waiting || record.state == .active
            }
            return (s.state.settings.downloader, due)
        }
        guard !pending.isEmpty else { return true }
        guard let command else {
            for p in pending { host.report(.waitsForDownloader(p.transactionID, p.productID)) }
            return true
        }
        var succeeded = true
        for p in pending {
            do {
                succeeded = try run(command, for: p.transactionID, host) && succeeded
            } catch let error as StoreError where error.exitCode == .notAllowed || error.exitCode == .notFound {
                // Another iapctl finished the transaction while its content was downloading.
                host.report(.contentNotRecorded(p.transactionID, error))
            }
        }
        return succeeded
    }

    /// Runs the downloader once for transaction `id`; true when it succeeded.
    private static func run(_ command: String, for id: TransactionID, _ host: some DeliveryHost) throws -> Bool {
        let (record, transactionJSON) = try host.write { s throws(StoreError) in
            let effects = try s.apply(.recordContentDownload(id, .started))
            host.report(.contentStartApplied(id, effects))
            return (s.machine.contentDownload(of: id), try s.transaction(id).map(TransactionJSON.string) ?? "{}")
        }
        guard let record, record.state == .active else {
            host.report(.contentNotStarted(id, reason: record?.error.map { "\($0)" } ?? "it was not started"))
            return false
        }
        host.report(.contentProgress(id, record.productID, progress: 0))
        host.yieldStore()
        let outcome = execute(command, input: transactionJSON + "\n", transaction: id, product: record.productID, host) {
            basisPoints throws in
            try host.write { s throws(StoreError) in
                _ = try s.apply(.recordContentDownload(id, .progress(basisPoints: basisPoints)))
            }
            host.yieldStore()
            host.report(.contentProgress(id, record.productID, progress: Double(basisPoints) / 10_000))
        }
        let step: ContentDownloadStep = outcome.map(ContentDownloadStep.failed) ?? .finished
        try host.write { s throws(StoreError) in
            host.report(.contentEnded(id, failure: outcome, try s.apply(.recordContentDownload(id, step))))
        }
        if let outcome { host.report(.contentFailed(id, outcome)) }
        return outcome == nil
    }

    /// Runs the process and reports its progress lines; returns nil on exit status 0, else the
    /// error to record.
    private static func execute(
        _ command: String, input: String, transaction: TransactionID, product: ProductID, _ host: some DeliveryHost,
        progress: (Int) throws -> Void
    ) -> TransactionError? {
        var environment = ChildProcess.currentEnvironment
        for (key, value) in host.environment { environment[key] = value }
        environment["IAPCTL_TRANSACTION_ID"] = transaction.description
        environment["IAPCTL_PRODUCT_ID"] = product.rawValue
        var reportError: Error?
        let child = ChildProcess(shellCommand: command, environment: environment)
        let termination = child.run(input: Array(input.utf8)) { line in
            guard reportError == nil else { return }
            let words = line.split(whereSeparator: \.isWhitespace)
            guard words.first == "progress" else { return }
            guard words.count == 2, let value = Double(words[1]), value.isFinite, (0...1).contains(value) else {
                host.report(.badProgressLine(transaction, line: line))
                return
            }
            do { try progress(Int((value * 10_000).rounded())) } catch { reportError = error }
        }
        if let reportError { return failure(code: 1, "its progress could not be recorded: \(reportError)") }
        switch termination {
        case .notStarted(let reason): return failure(code: 127, "the downloader could not be started: \(reason)")
        case .killed(let signal): return failure(code: 128 + Int(signal), "the downloader was killed by signal \(signal)")
        case .exited(let status):
            return status == 0 ? nil : failure(code: Int(status), "the downloader exited with status \(status)")
        }
    }

    private static func failure(code: Int, _ message: String) -> TransactionError {
        TransactionError(domain: errorDomain, code: code, name: "downloaderFailed", message: message)
    }
}
