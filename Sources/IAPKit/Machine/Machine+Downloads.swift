/// Apple-hosted downloads (`SKDownload`, REFERENCE section 2): the moves people ask for, and the
/// progress the CLI reports as it copies content.
///
/// The machine never touches files: `download run` in the CLI copies each chunk into the store,
/// then reports the new byte count with `recordDownloadProgress`, which the machine checks and
/// records as a `downloadUpdated` event (and `downloadFinished` at the end).
extension Machine {
    mutating func moveDownloads(
        _ move: DownloadMove, of id: TransactionID, content: String?, archive: some TransactionArchive,
        into effects: inout Effects
    ) throws(StoreError) {
        var t = try downloadOwner(id, archive: archive)
        let indices: [Int]
        if let content {
            let i = try downloadIndex(content, in: t)
            let current = t.downloads[i].state
            guard move.applies(to: current) else {
                throw .refused(.downloadMove(move, content: content, of: id, state: current))
            }
            indices = [i]
        } else {
            indices = t.downloads.indices.filter { move.applies(to: t.downloads[$0].state) }
            guard !indices.isEmpty else {
                let states = t.downloads.map { "'\($0.contentIdentifier)' is \($0.state.rawValue)" }.joined(separator: ", ")
                throw .refused(.noDownloadToMove(move, of: id, states: states))
            }
        }
        for i in indices { t.downloads[i].phase = move.target }
        if move == .cancel {
            for i in indices { effects.storeEffects.append(.removeDownloadCopy(id, content: t.downloads[i].contentIdentifier)) }
        }
        record(t, into: &effects)
        for i in indices { emit(.download(move.change, transaction: id, product: t.productID, t.downloads[i]), into: &effects) }
        if move == .cancel { settlePostponedFinish(id, into: &effects) }
        effects.outcome = .downloadsMoved(move, id, indices.map { t.downloads[$0] }, finish: effects.finish)
    }

    /// One step of an active download: `downloadedBytes` of the content are now in place. An armed
    /// `download` fault fails the download instead.
    mutating func recordDownloadProgress(
        _ id: TransactionID, content: String, downloadedBytes bytes: Int64, archive: some TransactionArchive,
        into effects: inout Effects
    ) throws(StoreError) {
        var t = try downloadOwner(id, archive: archive)
        let i = try downloadIndex(content, in: t)
        var d = t.downloads[i]
        guard d.state == .active else {
            throw .refused(.progressOfInactiveDownload(content: content, of: id, state: d.state))
        }
        guard bytes <= d.contentLength, bytes > d.downloadedBytes || bytes == d.contentLength else {
            throw .badArgument(
                .downloadProgress(bytes, content: content, of: id, downloaded: d.downloadedBytes, length: d.contentLength))
        }
        if let error = takeFault(.download, product: t.productID, into: &effects) {
            d.phase = .failed(error)
            t.downloads[i] = d
            effects.storeEffects.append(.removeDownloadCopy(id, content: content))
            record(t, into: &effects)
            emit(.download(.failed, transaction: id, product: t.productID, d), into: &effects)
            settlePostponedFinish(id, into: &effects)
            effects.outcome = .downloadProgressed(id, d, finish: effects.finish)
            return
        }
        d.downloadedBytes = bytes
        emit(.download(.updated, transaction: id, product: t.productID, d), into: &effects)
        if bytes == d.contentLength {
            d.phase = .finished
            emit(.download(.finished, transaction: id, product: t.productID, d), into: &effects)
        }
        t.downloads[i] = d
        record(t, into: &effects)
        if d.state == .finished { settlePostponedFinish(id, into: &effects) }
        effects.outcome = .downloadProgressed(id, d, finish: effects.finish)
    }

    /// The transaction `id` and its active downloads (only `content`, when given) that
    /// `download run` drives; else why there are none.
    public func activeDownloads(of id: TransactionID, content: String?, archive: some TransactionArchive) throws(StoreError) -> (
        Transaction, [Download]
    ) {
        let t = try downloadOwner(id, archive: archive)
        if let content {
            let d = t.downloads[try downloadIndex(content, in: t)]
            guard d.state == .active else {
                throw .refused(.downloadNotActive(content: content, of: id, state: d.state))
            }
            return (t, [d])
        }
        let active = t.downloads.filter { $0.state == .active }
        guard !active.isEmpty else {
            let states = t.downloads.map { "'\($0.contentIdentifier)' is \($0.state.rawValue)" }.joined(separator: ", ")
            throw .refused(.noActiveDownload(of: id, states: states))
        }
        return (t, active)
    }

    /// The unfinished transaction `id` if it has downloads; else why not. Downloads exist only on
    /// purchased and restored transactions, and only until the transaction is finished.
    func downloadOwner(_ id: TransactionID, archive: some TransactionArchive) throws(StoreError) -> Transaction {
        guard let t = state.queued(id) else {
            if try archive.transaction(id) != nil {
                throw .refused(.downloadsOfFinished(id))
            }
            throw .unknownTransaction(id)
        }
        guard !t.downloads.isEmpty else {
            throw .missing(.noDownloads(id, t.productID, state: t.state.name))
        }
        return t
    }

    func downloadIndex(_ content: String, in t: Transaction) throws(StoreError) -> Int {
        guard let i = t.downloads.firstIndex(where: { $0.contentIdentifier == content }) else {
            throw .missing(.noSuchDownload(content, of: t.id, known: t.downloads.map(\.contentIdentifier)))
        }
        return i
    }
}
