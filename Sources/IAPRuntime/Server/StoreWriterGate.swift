import IAPKit

/// `StoreWriting` for `iapctl serve`'s request threads, with group commit (docs/serve.md).
///
/// A request that finds no commit in flight leads at once: it takes the store's exclusive lock
/// (`Store.write`), runs its body and commits. Requests that arrive meanwhile queue; when the
/// leader is done, the oldest waiting request leads the next batch: every queued request (at
/// most `maximumBatch`) runs, in arrival order, in one writing session (`StoreSession.group`),
/// and their changes are committed in one journal frame, one append and one `fdatasync`. Every
/// request of a batch is answered only after that sync, so an answered write is on disk (SPEC
/// section 6) and no answer reveals a change that is not. A body that throws is undone alone
/// and answered with its own error; the others commit as if it had not run. So each request is
/// answered exactly as it would be one at a time in that order, and the store holds what those
/// one-at-a-time commits would have left (in fewer frames).
///
/// The store's file lock is taken once per batch, so the CLI, the webhook and the readers see a
/// batch as one commit, and a CLI writer waiting on the lock gets it between batches; the batch
/// bound keeps the lock's hold time short.
package final class StoreWriterGate: StoreWriting, @unchecked Sendable {
    /// Requests one batch runs at most: 16 loopback clients fit in one, and a batch of server
    /// API bodies holds the lock for well under a millisecond plus the sync.
    package static let maximumBatch = 32

    private let store: Store
    private let condition = Condition()
    /// Requests waiting for a batch, oldest first.
    private var queue: [Job] = []
    /// Whether a thread is running a batch (the leader).
    private var leading = false

    /// One request's part of a batch: its body, which stores its own result, and whether the
    /// batch that ran it has committed (or failed).
    private final class Job: @unchecked Sendable {
        var body: ((StoreSession) throws -> Void)?
        var done = false
        /// The batch's failure before or at the commit: the body's result is then not answered.
        var failure: (any Error)?

        init(_ body: @escaping (StoreSession) throws -> Void) { self.body = body }
    }

    package init(path: String, lockTimeout: Double) {
        store = Store(path: path, lockTimeout: lockTimeout)
        // The batch's session is kept while nothing else commits (`Store.keepsSession`: two
        // `stat`s say so), instead of loading the checkpoint and catalog for every batch.
        store.keepsSession = true
    }

    package func write<R>(_ body: (StoreSession) throws -> R) throws -> R {
        var result: Result<R, any Error>?
        let job: Job = withoutActuallyEscaping(body) { body in
            let job = Job { session in
                do {
                    result = .success(try body(session))
                } catch {
                    result = .failure(error)
                    throw error
                }
            }
            wait(for: job)
            return job
        }
        if let failure = job.failure { throw failure }
        guard let result else { throw StoreError.damaged(path: store.path, problem: "a write produced no result") }
        return try result.get()
    }

    /// Queues `job` and returns once a batch holding it has committed, leading batches while
    /// no other thread does. The job's body is released before this returns.
    private func wait(for job: Job) {
        condition.lock()
        queue.append(job)
        while !job.done {
            if leading {
                condition.wait()
                continue
            }
            leading = true
            let batch = Array(queue.prefix(Self.maximumBatch))
            queue.removeFirst(batch.count)
            condition.unlock()
            let failure = run(batch)
            condition.lock()
            for j in batch {
                j.body = nil
                j.failure = failure
                j.done = true
            }
            leading = false
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Runs one batch in one writing session and commits it; returns the error that kept it
    /// from committing, if any (every request of the batch then answers it).
    private func run(_ batch: [Job]) -> (any Error)? {
        let bodies: [(StoreSession) throws -> Void] = batch.map { $0.body! }
        var committed = false
        do {
            try store.write { s throws(StoreError) in
                _ = try s.group(bodies)
                committed = true
            }
        } catch {
            // After the commit, `Store.write` throws only a damaged queue read, which `group`
            // already answered to the body that met it: the others' answers stand.
            if !committed {
                _ = store.takeWarnings()
                return error
            }
        }
        _ = store.takeWarnings()
        return nil
    }
}
