import IAPJSON
import IAPKit

/// One line of `iapctl downloads`: a hosted download of a transaction, or self-hosted content.
enum DownloadRow {
    case hosted(Transaction, Download)
    case selfHosted(ContentDownload)

    /// The rows of one transaction: its hosted downloads, then its self-hosted content.
    static func rows(of t: Transaction, content: ContentDownload?) -> [DownloadRow] {
        t.downloads.map { .hosted(t, $0) } + (content.map { [.selfHosted($0)] } ?? [])
    }

    func write(into w: inout JSONWriter) {
        switch self {
        case .hosted(let t, let d): DownloadRowJSON.write(d, transaction: t.id, product: t.productID, into: &w)
        case .selfHosted(let c): DownloadRowJSON.write(c, into: &w)
        }
    }

    static func printJSON(_ rows: [DownloadRow], _ c: CommandContext) {
        c.printJSON { w in
            w.beginArray()
            for row in rows { row.write(into: &w) }
            w.endArray()
        }
    }

    static func table(_ rows: [DownloadRow]) -> String {
        var table = TextTable(["TXID", "PRODUCT", "CONTENT", "VERSION", "STATE", "PROGRESS", "BYTES"])
        for row in rows {
            switch row {
            case .hosted(let t, let d):
                var state = d.state.rawValue
                if let e = d.error { state += " (\(e.name))" }
                table.add([
                    t.id.description, t.productID.rawValue, d.contentIdentifier, d.contentVersion, state,
                    EventText.progress(d.progress), "\(d.downloadedBytes)/\(d.contentLength)",
                ])
            case .selfHosted(let c):
                var state = c.state.rawValue
                if let e = c.error { state += " (\(e.name))" }
                table.add([
                    c.transactionID.description, c.productID.rawValue, "(self-hosted)", "-", state,
                    EventText.progress(c.progress), "-",
                ])
            }
        }
        return table.rendered
    }
}
