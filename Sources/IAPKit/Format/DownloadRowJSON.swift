import IAPJSON

/// The JSON shape of one download as `iapctl downloads` lists it and download events carry it:
/// the transaction and product it belongs to, whether it is self-hosted, then the `SKDownload`
/// fields. Self-hosted content has no content id, version or byte counts (null).
public enum DownloadRowJSON {
    /// Where a finished hosted download's files are, relative to the store directory.
    public static func contentPath(transaction: TransactionID, content: String) -> String {
        "content/\(transaction)/\(content)"
    }

    /// A hosted download of `transaction`.
    public static func write(_ d: Download, transaction: TransactionID, product: ProductID, into w: inout JSONWriter) {
        w.beginObject()
        w.key("transactionIdentifier")
        w.decimalString(transaction.rawValue)
        w.key("productIdentifier")
        w.string(product.rawValue)
        w.key("selfHosted")
        w.bool(false)
        w.key("contentIdentifier")
        w.string(d.contentIdentifier)
        w.key("contentVersion")
        w.string(d.contentVersion)
        w.key("state")
        w.string(d.state.rawValue)
        w.key("progress")
        w.numberLiteral(DownloadJSON.progressText(d.progress))
        w.key("downloadedBytes")
        w.int(d.downloadedBytes)
        w.key("contentLength")
        w.int(d.contentLength)
        w.key("error")
        if let e = d.error { TransactionJSON.writeError(e, into: &w) } else { w.null() }
        w.key("contentPath")
        w.optionalString(d.state == .finished ? contentPath(transaction: transaction, content: d.contentIdentifier) : nil)
        w.endObject()
    }

    /// Self-hosted content, which the `downloader` command puts wherever it likes.
    public static func write(_ c: ContentDownload, into w: inout JSONWriter) {
        w.beginObject()
        w.key("transactionIdentifier")
        w.decimalString(c.transactionID.rawValue)
        w.key("productIdentifier")
        w.string(c.productID.rawValue)
        w.key("selfHosted")
        w.bool(true)
        w.key("contentIdentifier")
        w.null()
        w.key("contentVersion")
        w.null()
        w.key("state")
        w.string(c.state.rawValue)
        w.key("progress")
        w.numberLiteral(DownloadJSON.progressText(c.progress))
        w.key("downloadedBytes")
        w.null()
        w.key("contentLength")
        w.null()
        w.key("error")
        if let e = c.error { TransactionJSON.writeError(e, into: &w) } else { w.null() }
        w.key("contentPath")
        w.null()
        w.endObject()
    }
}
