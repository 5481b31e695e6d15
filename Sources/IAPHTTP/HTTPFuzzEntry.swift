/// The fuzz target of `HTTPRequestParser`: arbitrary bytes in, a trap only on a real bug.
///
/// `parse(_:)` runs the parser over the input twice, once whole and once in pieces whose sizes
/// come from the input itself, with small limits so that every limit is reachable, and checks
/// that both runs give the same events (the parser must not depend on how TCP split the bytes).
/// It then serializes a response to every event, as the server would. Wire it to libFuzzer as
/// `HTTPFuzzEntry.parse(Array(UnsafeBufferPointer(start: data, count: size)))`.
package enum HTTPFuzzEntry {
    /// Limits small enough that fuzzed inputs hit each of them.
    package static let limits = HTTPRequestParser.Limits(
        requestLineBytes: 256, headerBytes: 1024, headerCount: 16, bodyBytes: 4096, chunkLineBytes: 64)

    /// Parses `data`; returns how many events it produced. Traps if the whole and the split
    /// runs disagree, or an event breaks an invariant.
    @discardableResult
    package static func parse(_ data: [UInt8]) -> Int {
        let whole = events(data, pieces: [data.count])
        var sizes: [Int] = []
        var covered = 0
        var i = 0
        while covered < data.count {
            let size = 1 + Int(data[i % data.count] % 7)
            sizes.append(size)
            covered += size
            i += 1
        }
        let split = events(data, pieces: sizes)
        precondition(whole == split, "HTTPRequestParser depends on how the input is split")
        for event in whole {
            switch event {
            case .request(let request):
                precondition(request.body.count <= limits.bodyBytes, "body over the limit")
                precondition(request.path == "*" || request.path.hasPrefix("/"), "path without '/'")
                let response = HTTPResponse(status: .ok, body: request.body)
                _ = response.serialized(
                    headOnly: request.method == "HEAD", keepAlive: request.keepAlive, version: request.version)
            case .expectContinue:
                break
            case .failure(let error):
                _ = HTTPResponse.parseFailure(error).serialized(keepAlive: false)
            }
        }
        return whole.count
    }

    /// The events of feeding `data` in pieces of the given sizes, stopping at the first failure.
    /// `expectContinue` is dropped: whether it shows depends on the split, by design.
    static func events(_ data: [UInt8], pieces: [Int]) -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: limits)
        var out: [HTTPRequestParser.Event] = []
        var offset = 0
        for size in pieces {
            let end = min(data.count, offset + size)
            parser.append(data[offset..<end])
            offset = end
            while let event = parser.next() {
                if case .expectContinue = event { continue }
                out.append(event)
                if case .failure = event { return out }
            }
        }
        return out
    }
}
