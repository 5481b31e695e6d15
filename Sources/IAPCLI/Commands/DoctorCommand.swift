import IAPKit

/// `iapctl doctor [--salvage DIR]`: check a store; copy its valid part into a new one.
enum DoctorCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "doctor",
            summary: "Check every file of a store; salvage its valid part into a new store",
            discussion:
                "Exit 0 when the store is clean, 65 when something is damaged. --salvage writes a new store from every valid transaction, event and setting, and never changes the damaged one.",
            options: [.value("salvage", "dir", help: "Write the valid part into a new store at this directory")],
            examples: ["iapctl doctor", "iapctl doctor --salvage ./recovered"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let store = c.store
        _ = try store.presence()
        let report = Doctor.check(store)
        var salvage: Doctor.SalvageReport?
        if let dir = c.invocation.value("salvage") {
            salvage = try Doctor.salvage(store, into: Store(path: dir, lockTimeout: c.lockTimeout))
        }
        if c.json {
            c.printJSON { w in
                w.beginObject()
                w.key("store")
                w.string(store.path)
                w.key("clean")
                w.bool(report.isClean)
                w.key("findings")
                w.beginArray()
                for f in report.findings {
                    w.beginObject()
                    w.key("file")
                    w.string(f.file)
                    w.key("ok")
                    w.bool(f.ok)
                    w.key("message")
                    w.string(f.message)
                    w.endObject()
                }
                w.endArray()
                if let salvage {
                    w.key("salvaged")
                    w.beginObject()
                    w.key("transactions")
                    w.int(salvage.transactions)
                    w.key("events")
                    w.int(salvage.events)
                    w.key("notes")
                    w.beginArray()
                    for n in salvage.notes { w.string(n) }
                    w.endArray()
                    w.endObject()
                }
                w.endObject()
            }
        } else {
            for f in report.findings { c.stdout.line("\(f.ok ? "ok  " : "BAD ") \(f.file): \(f.message)") }
            c.stdout.line(
                report.isClean
                    ? "store is clean" : "store is damaged; 'iapctl doctor --salvage DIR' copies its valid part into a new store")
            if let salvage, let dir = c.invocation.value("salvage") {
                c.stdout.line("salvaged \(salvage.transactions) transactions and \(salvage.events) events into \(dir)")
                for n in salvage.notes { c.stdout.line("  note: \(n)") }
            }
        }
        return report.isClean ? .success : .badData
    }
}
