import IAPHTTP
import IAPJSON
import IAPKit

/// `GET /ui/api/events`: the store's event log as server-sent events (WHATWG HTML section 9.2).
///
/// Each event is one message, `id: <seq>` and `data: <the event as 'iapctl events' prints it>`,
/// so a browser that reconnects sends `Last-Event-ID` and resumes exactly after the last event it
/// got. The stream waits on `StoreWatch` for commits by any process, reads what is new under the
/// store's shared lock, and writes it after releasing the lock, so a slow browser never holds up
/// a CLI writer. A comment every `keepAlive` seconds lets both sides notice a dead connection.
package struct UIEventStream: Sendable {
    let reader: any StoreReading
    let storePath: String
    /// Seconds between keep-alive comments when nothing happens.
    var keepAlive: Double = 15
    /// Seconds to wait before looking again when the store cannot be watched.
    var fallbackPoll: Double = 1
    /// The most bytes of events read in one go before writing them out.
    var batchBytes = 1 << 20

    package init(reader: any StoreReading, storePath: String) {
        self.reader = reader
        self.storePath = storePath
    }

    /// The stream after event `since`.
    package func response(since: UInt64) -> HTTPResponse {
        let stream = self
        return HTTPResponse(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
            ]),
            stream: HTTPStreamBody { writer in stream.run(since: since, writer) })
    }

    /// The events after `since`, encoded as messages, up to about `batchBytes`; and the seq of
    /// the last one included (`since` when none).
    package func messages(after since: UInt64) throws -> (bytes: [UInt8], last: UInt64, more: Bool) {
        try reader.read { s in
            var out: [UInt8] = []
            var last = since
            var more = false
            var w = JSONWriter(capacity: 4096)
            try s.forEachEvent(since: since) { e throws(StoreError) in
                guard !more else { return }
                guard out.count < batchBytes else {
                    more = true
                    return
                }
                w.reset()
                switch e {
                case .event(let event): EventJSON.write(event, into: &w)
                case .legacy(_, let json): w.bytes.append(contentsOf: json)
                }
                out.append(contentsOf: Array("id: \(e.seq)\ndata: ".utf8))
                out.append(contentsOf: w.bytes)
                out.append(contentsOf: [0x0A, 0x0A])
                last = e.seq
            }
            return (out, last, more)
        }
    }

    func run(since: UInt64, _ writer: any HTTPStreamWriter) {
        let watch = StoreWatch(directory: storePath)
        var cursor = since
        guard writer.write(Array("retry: 1000\n\n".utf8)) else { return }
        while true {
            watch.clear()
            var more = true
            while more {
                guard let batch = try? messages(after: cursor) else {
                    // The store could not be read (busy or being replaced): say so, try again later.
                    guard writer.write(Array(": the store could not be read; retrying\n\n".utf8)) else { return }
                    break
                }
                more = batch.more
                cursor = batch.last
                if !batch.bytes.isEmpty, !writer.write(batch.bytes) { return }
            }
            let wake = writer.wait(
                readable: watch.descriptor.map { [$0] } ?? [], timeout: watch.descriptor == nil ? fallbackPoll : keepAlive)
            switch wake {
            case .readable: continue
            case .timedOut:
                if watch.descriptor != nil, !writer.write(Array(": keep-alive\n\n".utf8)) { return }
            case .clientGone, .stopping: return
            }
        }
    }
}
