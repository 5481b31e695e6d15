import IAPKit
import Testing

extension MachineHarness {
    static let levelpack = "com.x.levelpack"
    static let guide = "com.x.guide"

    /// Applies `command` expecting it to be refused with exactly `error`, and checks that the
    /// state and the event log did not change.
    mutating func expectRefusal(_ command: Command, _ error: StoreError, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = state
        let eventCount = events.count
        do {
            try apply(command)
            Issue.record("expected \(command) to be refused with: \(error)", sourceLocation: sourceLocation)
        } catch let thrown {
            #expect(thrown == error, sourceLocation: sourceLocation)
        }
        #expect(state == before, "a refused command changed the state", sourceLocation: sourceLocation)
        #expect(events.count == eventCount, sourceLocation: sourceLocation)
    }

    /// The latest version of a transaction, queued or finished.
    func transaction(_ id: TransactionID) -> Transaction? {
        state.queued(id) ?? archive.transactions[id]
    }

    /// The names of the events the last `apply` emitted.
    func names(_ effects: Effects) -> [String] { effects.events.map(\.name) }
}
