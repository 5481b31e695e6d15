/// What the lifecycle commands need from a loaded store beyond `apply`: access to history as a
/// `TransactionArchive`, hosted content files, and where downloads are copied.
extension StoreSession: TransactionArchive {
    /// `<store>/content`: finished hosted downloads, as `<transactionId>/<contentId>/...`.
    public var downloadsDirectory: String { storePath + "/content" }

    /// Where a hosted download of `transaction` is copied.
    public func downloadDirectory(transaction: TransactionID, content: String) -> String {
        storePath + "/" + DownloadRowJSON.contentPath(transaction: transaction, content: content)
    }

    /// Removes the (partial) copy of a hosted download of `transaction`, if any.
    public func removeDownloadCopy(transaction: TransactionID, content: String) {
        HostedContentCopy.removeTree(downloadDirectory(transaction: transaction, content: content))
    }

    /// The files of one hosted content of the store's catalog, relative to its folder, sorted.
    public func hostedFiles(of content: HostedContent) -> [(path: String, bytes: [UInt8])] {
        let source = StoreCatalog.Source(name: catalogName, bytes: [], contentRoot: nil)
        return StoreCatalog.files(of: content, source: source, contentPath: storePath + "/catalog-content")
    }

    /// A copier for one hosted download of `transaction`, checked against the content's size.
    public func contentCopy(transaction t: Transaction, download d: Download) throws(StoreError) -> HostedContentCopy {
        guard let content = catalog[t.productID]?.hostedContent.first(where: { $0.contentIdentifier == d.contentIdentifier })
        else {
            throw .badInput(.noHostedContent(store: storePath, content: d.contentIdentifier, product: t.productID))
        }
        let copy = HostedContentCopy(
            files: hostedFiles(of: content), directory: downloadDirectory(transaction: t.id, content: d.contentIdentifier))
        guard copy.totalBytes == d.contentLength else {
            throw .badInput(
                .hostedContentSize(
                    content: d.contentIdentifier, product: t.productID, bytes: copy.totalBytes, store: storePath,
                    expected: d.contentLength))
        }
        return copy
    }
}
