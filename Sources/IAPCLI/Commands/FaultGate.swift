import IAPKit

/// The StoreKit APIs an iapctl command stands for whose failure changes nothing else
/// (subscription status, AppTransaction, the manage subscriptions and refund request sheets):
/// before the command, an armed fault at the point is fired through `Command.simulatedAPI`, and
/// the command fails with its error (exit 1) instead of running (Xcode's
/// `setSimulatedError(_:forAPI:)`).
enum FaultGate {
    /// nil when no fault fired (run the command); else the exit code, the failure printed.
    static func fire(_ c: CommandContext, _ point: FaultPoint, product: ProductID? = nil) throws -> ExitCode? {
        // No store yet: nothing is armed, and reading it here would warn a second time.
        if try c.store.presence() == .missing { return nil }
        let armed = try c.read { s throws(StoreError) in
            s.state.faults.contains { $0.point == point && ($0.productID == nil || $0.productID == product) }
        }
        guard armed else { return nil }
        return try c.write { s throws(StoreError) -> ExitCode? in
            let effects = try s.apply(.simulatedAPI(point, product: product))
            guard case .apiFailed(_, let error) = effects.outcome else { return nil }
            if !c.json { for line in EventText.faultLines(effects) { c.stdout.line(line) } }
            c.stderr.message(
                "error: \(point.xcodeAPI) failed: \(error) (an armed \(point.rawValue) fault; see 'iapctl fault list')")
            return ExitCode(effects.outcome)
        }
    }
}
