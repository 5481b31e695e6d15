import IAPKit

/// `iapctl can-pay`: `SKPaymentQueue.canMakePayments()`, as an exit code.
enum CanPayCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "can-pay",
            summary: "Exit 0 when payments are allowed, 1 when not",
            discussion:
                "Models parental controls: 'iapctl config set payments-allowed false' makes every purchase fail with SKError paymentNotAllowed.",
            examples: ["iapctl can-pay && iapctl buy com.x.coin42"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        try c.read { s throws(StoreError) in
            let allowed = s.state.settings.paymentsAllowed
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("canMakePayments")
                    w.bool(allowed)
                    w.endObject()
                }
            } else {
                c.stdout.line(
                    allowed
                        ? "payments are allowed"
                        : "payments are not allowed (turn them on with 'iapctl config set payments-allowed true')")
            }
            return allowed ? .success : .declined
        }
    }
}
