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
                throw .notAllowed(
                    "cannot \(move.rawValue) download '\(content)' of transaction \(id): it is \(current.rawValue); \(move.rawValue) moves a \(move.from) download"
                )
            }
            indices = [i]
        } else {
            indices = t.downloads.indices.filter { move.applies(to: t.downloads[$0].state) }
            guard !indices.isEmpty else {
                let states = t.downloads.map { "'\($0.contentIdentifier)' is \($0.state.rawValue)" }.joined(separator: ", ")
                throw .notAllowed(
                    "cannot \(move.rawValue) any download of transaction \(id): \(states); \(move.rawValue) moves \(move.from) downloads"
                )
            }
        }
        for i in indices { t.downloads[i].state = move.target }
        if move == .cancel {
            for i in indices { effects.storeEffects.append(.removeDownloadCopy(id, content: t.downloads[i].contentIdentifier)) }
        }
        record(t, into: &effects)
        for i in indices { emit(.download(move.change, transaction: id, product: t.productID, t.downloads[i]), into: &effects) }
        if move == .cancel { settlePostponedFinish(id, into: &effects) }
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
            throw .notAllowed(
                "download '\(content)' of transaction \(id) is \(d.state.rawValue); only an active download makes progress (start or resume it first)"
            )
        }
        guard bytes <= d.contentLength, bytes > d.downloadedBytes || bytes == d.contentLength else {
            throw .usage(
                "progress \(bytes) for download '\(content)' of transaction \(id) must be above \(d.downloadedBytes) and at most \(d.contentLength) bytes"
            )
        }
        if let error = takeFault(.download, product: t.productID, into: &effects) {
            d.state = .failed
            d.error = error
            t.downloads[i] = d
            effects.storeEffects.append(.removeDownloadCopy(id, content: content))
            record(t, into: &effects)
            emit(.download(.failed, transaction: id, product: t.productID, d), into: &effects)
            settlePostponedFinish(id, into: &effects)
            return
        }
        d.downloadedBytes = bytes
        emit(.download(.updated, transaction: id, product: t.productID, d), into: &effects)
        if bytes == d.contentLength {
            d.state = .finished
            emit(.download(.finished, transaction: id, product: t.productID, d), into: &effects)
        }
        t.downloads[i] = d
        record(t, into: &effects)
        if d.state == .finished { settlePostponedFinish(id, into: &effects) }
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
                let fix = d.state == .waiting ? "start" : d.state == .paused ? "resume" : ""
                let hint = fix.isEmpty ? "it has ended" : "\(fix) it with 'iapctl download \(fix) \(id) --content \(content)'"
                throw .notAllowed("download '\(content)' of transaction \(id) is \(d.state.rawValue), not active; \(hint)")
            }
            return (t, [d])
        }
        let active = t.downloads.filter { $0.state == .active }
        guard !active.isEmpty else {
            let states = t.downloads.map { "'\($0.contentIdentifier)' is \($0.state.rawValue)" }.joined(separator: ", ")
            throw .notAllowed(
                "no active download of transaction \(id): \(states); start or resume them with 'iapctl download start|resume \(id)'"
            )
        }
        return (t, active)
    }

    /// The unfinished transaction `id` if it has downloads; else why not. Downloads exist only on
    /// purchased and restored transactions, and only until the transaction is finished.
    func downloadOwner(_ id: TransactionID, archive: some TransactionArchive) throws(StoreError) -> Transaction {
        guard let t = state.queued(id) else {
            if try archive.transaction(id) != nil {
                throw .notAllowed("transaction \(id) is finished; downloads exist only until their transaction is finished")
            }
            throw .unknownTransaction(id)
        }
        guard !t.downloads.isEmpty else {
            throw .notFound(
                "transaction \(id) (\(t.productID), \(t.state.name)) has no downloads; only purchased or restored products with hosted content have them"
            )
        }
        return t
    }

    func downloadIndex(_ content: String, in t: Transaction) throws(StoreError) -> Int {
        guard let i = t.downloads.firstIndex(where: { $0.contentIdentifier == content }) else {
            let known = t.downloads.map(\.contentIdentifier).joined(separator: ", ")
            throw .notFound("transaction \(t.id) has no download '\(content)'; its downloads: \(known)")
        }
        return i
    }
}
