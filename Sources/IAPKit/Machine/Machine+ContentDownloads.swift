/// Self-hosted content (RMStore's `contentDownloader`): tracked from delivery to the end of the
/// download the CLI runs, as `ContentDownload` records in `state.contentDownloads`.
extension Machine {
    /// Starts tracking the self-hosted content of a transaction that was just delivered
    /// (purchased or restored) for a product marked `selfHosted`. Called for every recorded
    /// transaction, so every way a transaction gets delivered is covered.
    mutating func trackSelfHostedContent(_ t: Transaction) {
        guard !t.finished, t.isDelivered, catalog.isSelfHosted(t.productID),
            contentDownloadIndex(t.id) == nil
        else { return }
        let record = ContentDownload(transactionID: t.id, productID: t.productID)
        let at = state.contentDownloads.firstIndex { $0.transactionID > t.id } ?? state.contentDownloads.endIndex
        state.contentDownloads.insert(record, at: at)
    }

    func contentDownloadIndex(_ id: TransactionID) -> Int? {
        state.contentDownloads.firstIndex { $0.transactionID == id }
    }

    /// The self-hosted content record of transaction `id`, if it has one.
    public func contentDownload(of id: TransactionID) -> ContentDownload? {
        contentDownloadIndex(id).map { state.contentDownloads[$0] }
    }

    /// Records what the downloader did. `started` is allowed again on an active record (the
    /// downloader is run again after an interruption); an armed `download` fault fails the content
    /// at its start, before any process runs.
    mutating func recordContentDownload(
        _ id: TransactionID, _ step: ContentDownloadStep, archive: some TransactionArchive, into effects: inout Effects
    ) throws(StoreError) {
        guard let i = contentDownloadIndex(id) else {
            var known = state.queued(id)
            if known == nil { known = try archive.transaction(id) }
            guard let t = known else { throw .unknownTransaction(id) }
            let why = t.finished ? "it is finished" : "\(t.productID) is not self-hosted or the transaction is \(t.state.name)"
            throw .refused(.noSelfHostedContent(id, why: why))
        }
        var c = state.contentDownloads[i]
        func refuse(_ what: String) -> StoreError {
            .refused(.contentStep(what, of: id, state: c.state))
        }
        let change: DownloadChange
        switch step {
        case .started:
            guard c.state == .waiting || c.state == .active else { throw refuse("a start") }
            if let error = takeFault(.download, product: c.productID, into: &effects) {
                c.phase = .failed(error)
                change = .failed
            } else {
                c.phase = .active
                c.progressBasisPoints = 0
                change = .started
            }
        case .progress(let basisPoints):
            guard c.state == .active else { throw refuse("progress") }
            guard (0...10_000).contains(basisPoints) else {
                throw .badArgument(.contentProgress(basisPoints))
            }
            c.progressBasisPoints = basisPoints
            change = .updated
        case .finished:
            guard c.state == .active else { throw refuse("the end") }
            c.phase = .finished
            c.progressBasisPoints = 10_000
            change = .finished
        case .failed(let error):
            guard c.state == .active else { throw refuse("a failure") }
            c.phase = .failed(error)
            change = .failed
        }
        state.contentDownloads[i] = c
        emit(.contentDownload(change, c), into: &effects)
        if c.state.isTerminal { settlePostponedFinish(id, into: &effects) }
    }
}
