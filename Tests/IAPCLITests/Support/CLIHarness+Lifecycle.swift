import Foundation
import IAPKit
import Testing

@testable import IAPJSON

extension CLIHarness {
    /// The store's committed files, to check that a refused command changed nothing.
    func snapshot() -> [[UInt8]] {
        ["state", "journal"].map { [UInt8](FileManager.default.contents(atPath: store + "/" + $0) ?? Data()) }
    }

    /// Runs the binary expecting exit `code` and exactly `stderr` (one `error: ...` line), with
    /// nothing on stdout and the store unchanged.
    func expectRefused(_ arguments: [String], code: Int32, _ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = snapshot()
        let r = run(arguments)
        #expect(r.code == code, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr == "error: \(stderr)\n", sourceLocation: sourceLocation)
        #expect(r.stdout == "", sourceLocation: sourceLocation)
        #expect(snapshot() == before, "the store changed", sourceLocation: sourceLocation)
    }

    /// Runs the binary and expects success; returns stdout.
    @discardableResult
    func ok(_ arguments: [String], code: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let r = run(arguments)
        #expect(r.code == code, "\(r)", sourceLocation: sourceLocation)
        return r.stdout
    }

    /// The names of the events in the store, in order.
    func eventNames() -> [String] {
        run(["events"]).stdout.split(separator: "\n").compactMap { line in
            (try? JSONParser.parse(Array(line.utf8)))?["name"]?.stringValue
        }
    }

    func fileBytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}
