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

/// A refusal as the CLI prints it: its exit code and the text after `error: `. Tests pin the
/// message of a typed `StoreError` (`refused`, `missing`, `badArgument`, `badInput`) byte for byte
/// with these, so a message cannot change when its case is reshaped.
enum Printed: Sendable, CustomStringConvertible {
    case notAllowed(String)
    case notFound(String)
    case usage(String)
    case badData(String)

    var exitCode: ExitCode {
        switch self {
        case .notAllowed: return .notAllowed
        case .notFound: return .notFound
        case .usage: return .usage
        case .badData: return .badData
        }
    }

    var text: String {
        switch self {
        case .notAllowed(let t), .notFound(let t), .usage(let t), .badData(let t): return t
        }
    }

    var description: String { "exit \(exitCode.rawValue): \(text)" }

    func matches(_ error: any Error) -> Bool {
        guard let e = error as? StoreError else { return false }
        return e.exitCode == exitCode && e.description == text
    }
}

/// Expects `body` to throw a `StoreError` that prints as `printed`.
func expectThrows<R>(
    _ printed: Printed, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) {
    do {
        _ = try body()
        Issue.record("expected a refusal: \(printed)", sourceLocation: sourceLocation)
    } catch {
        #expect(printed.matches(error), "\(error) is not \(printed)", sourceLocation: sourceLocation)
    }
}

extension MachineHarness {
    /// `expectRefusal` for an error pinned by how it prints.
    mutating func expectRefusal(_ command: Command, _ printed: Printed, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = state
        let eventCount = events.count
        do {
            try apply(command)
            Issue.record("expected \(command) to be refused with: \(printed)", sourceLocation: sourceLocation)
        } catch let thrown {
            #expect(printed.matches(thrown), "\(thrown) is not \(printed)", sourceLocation: sourceLocation)
        }
        #expect(state == before, "a refused command changed the state", sourceLocation: sourceLocation)
        #expect(events.count == eventCount, sourceLocation: sourceLocation)
    }
}

/// A harness step that did not go as the test assumed (not a refusal of the store's).
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
