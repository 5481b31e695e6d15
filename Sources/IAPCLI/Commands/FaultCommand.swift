import IAPKit

/// `iapctl fault add|list|clear`: make the simulated App Store fail on purpose.
enum FaultCommand {
    static var pointsHelp: String {
        FaultPoint.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n")
    }

    static let group = CommandSpec(
        name: "fault",
        summary: "Inject failures at every StoreKit API Xcode can fail, and downloads and receipt refreshes",
        discussion: """
            An armed fault makes the next request at its point fail with its error, --count times, for one \
            product or any. Faults fire in the order they were added, each firing a faultFired event just \
            before the failure it causes. Points:
            """ + "\n\n" + pointsHelp,
        subcommands: [add.spec, list.spec, clear.spec]
    )

    static let children = [add, list, clear]

    static let add = CommandDefinition(
        CommandSpec(
            name: "add",
            summary: "Arm a fault at a point",
            discussion: """
                ERROR is \(TransactionError.specHelp); names are case-insensitive. Seed codes: 100 unknown product \
                identifier, 200 unable to complete verification (RMStore: reported failed but not finished), 300 \
                download canceled (RMStore's domain net.robotmedia.store), 136 invalid parameter (DYFStoreKit). \
                At verification, ERROR may also be a verifyReceipt status: 21000-21010 or 21100-21199 \
                (receiptServerUnavailable is 21005); see 'iapctl help verify-receipt'. Points:
                """ + "\n\n" + pointsHelp,
            arguments: [
                ArgumentSpec("POINT", help: "Where it fires: \(FaultPoint.names.joined(separator: ", "))"),
                ArgumentSpec("ERROR", help: "The error requests fail with"),
            ],
            options: [
                .value("count", "n", help: "How many times it fires, 1 to \(1000) (default: 1)"),
                .value("product", "id", help: "Only requests about this product (default: any)"),
            ],
            examples: [
                "iapctl fault add purchase paymentCancelled", "iapctl fault add download 7 --count 2 --product com.x.levelpack",
                "iapctl fault add restore 300",
            ]
        ), run: runAdd)

    static let list = CommandDefinition(
        CommandSpec(
            name: "list",
            summary: "List armed faults in the order they fire",
            examples: ["iapctl fault list --json"]
        ), run: runList)

    static let clear = CommandDefinition(
        CommandSpec(
            name: "clear",
            summary: "Disarm every fault",
            examples: ["iapctl fault clear"]
        ), run: runClear)

    static func runAdd(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let point = FaultPoint(rawValue: try i.choice("POINT", among: FaultPoint.names) ?? "")!
        let text = i.positional("ERROR") ?? ""
        // At `verification`, a verifyReceipt status (21005, receiptServerUnavailable) is an error too.
        let status = point == .verification ? VerifyReceiptStatus.error(spec: text) : nil
        // StoreKit 2's error names, as Xcode's _storeKitErrors writes them (userCancelled,
        // networkError, ...), name the SKError an app sees for the same failure.
        let storeKit2 = StoreKitErrorMapping.errorName(forXcodeCase: text).flatMap(TransactionError.init(spec:))
        guard let error = TransactionError(spec: text) ?? storeKit2 ?? status else {
            throw i.usageError(TransactionError.specProblem(text))
        }
        let count = try i.int("count", in: 1...1000) ?? 1
        var product: ProductID?
        if let p = i.value("product") {
            guard !p.isEmpty else { throw i.usageError("empty --product; give a product identifier such as com.x.coin42") }
            product = ProductID(p)
        }
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.addFault(point, error, count: count, product: product))
            guard case .faultAdded(let fault) = effects.outcome else { return ExitCode(effects.outcome) }
            if c.json {
                c.printJSON { FaultJSON.write(fault, into: &$0) }
            } else {
                c.stdout.line(EventText.faultAdded(fault))
            }
            return ExitCode(effects.outcome)
        }
    }

    static func runList(_ c: CommandContext) throws -> ExitCode {
        try c.read { s throws(StoreError) in
            let faults = s.state.faults
            if c.json {
                c.printJSON { w in
                    w.beginArray()
                    for f in faults { FaultJSON.write(f, into: &w) }
                    w.endArray()
                }
            } else if faults.isEmpty {
                c.stdout.line("no faults armed")
            } else {
                var table = TextTable(["ID", "POINT", "PRODUCT", "REMAINING", "ERROR"])
                for f in faults {
                    table.add([
                        String(f.id), f.point.rawValue, f.productID?.rawValue ?? "any", String(f.remaining), f.error.description,
                    ])
                }
                c.stdout.write(table.rendered)
            }
            return .success
        }
    }

    static func runClear(_ c: CommandContext) throws -> ExitCode {
        try c.write { s throws(StoreError) in
            let effects = try s.apply(.clearFaults)
            var count = 0
            if case .faultsCleared(let n) = effects.outcome { count = n }
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("cleared")
                    w.int(count)
                    w.endObject()
                }
            } else {
                c.stdout.line("\(count) fault\(count == 1 ? "" : "s") cleared")
            }
            return .success
        }
    }
}
