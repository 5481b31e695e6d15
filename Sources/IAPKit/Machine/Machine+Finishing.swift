/// `finishTransaction` and what it does to downloads that have not ended.
///
/// StoreKit (the default): finishing removes the transaction from the queue, and with it every
/// download that has not ended, which is cancelled (REFERENCE section 2: downloads exist only
/// until the transaction is finished). The CLI warns about it on stderr.
///
/// RMStore (setting `finish-after-downloads`): RMStore finishes a transaction only once all its
/// downloads ended (`hasPendingDownloadsInTransaction:`), so a finish asked earlier is postponed
/// (`transactionFinishPostponed`) and happens when the last download or self-hosted content ends.
/// If a download was cancelled, the transaction is reported failed with RMStore's error 300
/// (`RMStoreErrorCodeDownloadCanceled`); if one failed, with its error (`transactionDeliveryFailed`).
/// RMStore itself reports the outcome of whichever download ended last; iapctl reports a failure
/// whenever any download did not finish, as REFERENCE section 2 states it.
extension Machine {
    /// Whether a hosted download or the self-hosted content of `t` has not ended yet.
    public func hasUnendedContent(_ t: Transaction) -> Bool {
        t.downloads.contains { !$0.state.isTerminal } || (contentDownload(of: t.id).map { !$0.state.isTerminal } ?? false)
    }

    /// RMStore's verdict on a transaction whose downloads all ended: nil when every one finished.
    func deliveryError(_ t: Transaction) -> TransactionError? {
        if t.downloads.contains(where: { $0.state == .cancelled }) { return .downloadCanceled }
        if let error = t.downloads.lazy.compactMap(\.error).first { return error }
        if let c = contentDownload(of: t.id) {
            if c.state == .cancelled { return .downloadCanceled }
            if let error = c.error { return error }
        }
        return nil
    }

    /// Finishes a transaction `finish` has validated (purchased, failed or restored, in the queue).
    mutating func finishValidated(_ t: consuming Transaction, into effects: inout Effects) {
        if state.settings.finishAfterDownloads && hasUnendedContent(t) {
            let waiting = t
            if !state.postponedFinishes.contains(waiting.id) {
                state.postponedFinishes.append(waiting.id)
                emit(.transactionFinishPostponed(waiting), into: &effects)
            }
            effects.finish.steps.append(.postponed(waiting))
            return
        }
        let rmStoreVerdict = state.settings.finishAfterDownloads ? deliveryError(t) : nil
        // `t` is taken, not copied: once `markFinished` has taken it out of the queue it is the
        // only reference to its fields, which are then changed in place.
        markFinished(&t, into: &effects)
        let finished = t
        if let error = rmStoreVerdict {
            emit(.transactionDeliveryFailed(finished, error), into: &effects)
            effects.finish.steps.append(.deliveryFailed(finished, error))
        } else {
            credit(finished)
            emit(.transactionFinished(finished), into: &effects)
            effects.finish.steps.append(.finished(finished))
        }
    }

    /// Finishes `id` if its finish was postponed and nothing of it is still downloading.
    mutating func settlePostponedFinish(_ id: TransactionID, into effects: inout Effects) {
        guard state.postponedFinishes.contains(id), let t = state.queued(id), !hasUnendedContent(t) else { return }
        finishValidated(t, into: &effects)
    }

    /// `finishTransaction` itself: downloads that have not ended are cancelled (StoreKit drops
    /// them with the transaction), self-hosted content stops, a postponed finish is forgotten, and
    /// the transaction leaves the queue.
    mutating func markFinished(_ t: inout Transaction, into effects: inout Effects) {
        // Out of the queue first: `t` is then the only copy, and the changes below are made in
        // place rather than in a copy of all its fields (`record` below would remove it anyway).
        state.dequeue(t.id)
        for i in t.downloads.indices where !t.downloads[i].state.isTerminal {
            t.downloads[i].phase = .cancelled
            emit(.download(.cancelled, transaction: t.id, product: t.productID, t.downloads[i]), into: &effects)
            effects.finish.cancelled(.hosted(t.downloads[i].contentIdentifier), of: t.id)
            effects.storeEffects.append(.removeDownloadCopy(t.id, content: t.downloads[i].contentIdentifier))
        }
        if let i = contentDownloadIndex(t.id) {
            var c = state.contentDownloads.remove(at: i)
            if !c.state.isTerminal {
                c.phase = .cancelled
                emit(.contentDownload(.cancelled, c), into: &effects)
                effects.finish.cancelled(.selfHosted, of: t.id)
            }
        }
        if !state.postponedFinishes.isEmpty { state.postponedFinishes.removeAll { $0 == t.id } }
        t.disposition = .finished
        record(t, into: &effects)
    }
}
