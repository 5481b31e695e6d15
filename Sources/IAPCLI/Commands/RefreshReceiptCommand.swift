import IAPKit

/// `iapctl refresh-receipt`: `SKReceiptRefreshRequest` (RMStore's `refreshReceiptOnSuccess:
/// failure:`, DYFStoreKit's `refreshReceiptOnSuccess:failure:` when `appStoreReceiptURL` is empty).
enum RefreshReceiptCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "refresh-receipt",
            summary: "Refresh the app receipt (SKReceiptRefreshRequest); fails with an armed refresh-receipt fault",
            discussion: """
                Records refreshReceiptFinished (RMStore's storeRefreshReceiptFinished) and prints a summary of the \
                refreshed receipt (with --json, the receipt decoded as 'iapctl receipt --json' prints it). An armed \
                refresh-receipt fault ('iapctl fault add refresh-receipt 7') fails it instead: refreshReceiptFailed \
                (storeRefreshReceiptFailed {error}), exit 1.
                """,
            examples: [
                "iapctl refresh-receipt",
                "iapctl fault add refresh-receipt cloudServiceNetworkConnectionFailed && iapctl refresh-receipt",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        try c.write { s throws(StoreError) in
            let effects = try s.apply(.receipt(.refresh))
            guard case .receiptRefresh(let failure) = effects.outcome else { return ExitCode(effects.outcome) }
            if !c.json { for line in EventText.faultLines(effects) { c.stdout.line(line) } }
            if let failure {
                c.stderr.message(
                    "error: receipt refresh failed: \(failure) (an injected refresh-receipt fault; see 'iapctl fault list')")
                return ExitCode(effects.outcome)
            }
            let decoded = try StoreReceiptDecoding.decoded(s)
            if c.json {
                c.printJSON { ReceiptJSON.write(decoded, into: &$0) }
            } else {
                let r = decoded.receipt
                c.stdout.line(
                    "receipt refreshed: \(r.inAppPurchases.count) in-app purchase\(r.inAppPurchases.count == 1 ? "" : "s"), created \(r.creationDate?.rfc3339 ?? "?"), \(decoded.der.count) bytes (see 'iapctl receipt')"
                )
            }
            return .success
        }
    }
}
