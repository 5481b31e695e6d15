import IAPKit

/// `iapctl doctor [--salvage DIR]`: check a store; copy its valid part into a new one.
enum DoctorCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "doctor",
            summary: "Check every file of a store; salvage its valid part into a new store",
            discussion:
                "Prints one line a file. Exit 0 when the store is clean, 65 when something is damaged. --salvage writes a new store from every valid transaction, event and setting, says what it recovered, and exits 0 once the new store is written; it never changes the damaged one.",
            options: [.value("salvage", "dir", help: "Write the valid part into a new store at this directory")],
            examples: ["iapctl doctor", "iapctl doctor --salvage ./recovered"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let store = c.store
        _ = try store.presence()
        let report = Doctor.check(store)
        var salvage: Doctor.SalvageReport?
        if let dir = c.invocation.value("salvage") {
            guard !dir.isEmpty else {
                throw c.invocation.usageError("empty --salvage; give a new directory for the salvaged store")
            }
            do throws(StoreError) {
                salvage = try Doctor.salvage(store, into: Store(path: dir, lockTimeout: c.lockTimeout))
            } catch {
                // The new store is an output the user named (73), not the store being checked.
                switch error {
                case .io(_, let reason):
                    throw StoreError.cannotCreate(
                        path: dir, reason: "\(reason.lowercased()); name a new directory where you can write")
                case .storePath(.notADirectory(let path)) where path == dir:
                    throw StoreError.cannotCreate(
                        path: dir, reason: "it, or a directory above it, is a file; name a new directory where you can write")
                case .storePath(.notAStore(let path, let entry)) where path == dir:
                    throw StoreError.cannotCreate(
                        path: dir, reason: "it holds other files (such as '\(entry)'); name a new or empty directory")
                default:
                    throw error
                }
            }
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
            // One line a file: its findings in order, BAD when any of them is.
            var files: [(file: String, ok: Bool, messages: [String])] = []
            for f in report.findings {
                if let i = files.firstIndex(where: { $0.file == f.file }) {
                    files[i].ok = files[i].ok && f.ok
                    files[i].messages.append(f.message)
                } else {
                    files.append((f.file, f.ok, [f.message]))
                }
            }
            for f in files { c.stdout.line("\(f.ok ? "ok  " : "BAD ") \(f.file): \(f.messages.joined(separator: "; "))") }
            if let salvage, let dir = c.invocation.value("salvage") {
                c.stdout.line(
                    "\(report.isClean ? "store is clean" : "store is damaged"); salvaged \(salvage.transactions) transactions and \(salvage.events) events into \(dir)"
                )
                for n in salvage.notes { c.stdout.line("  note: \(n)") }
            } else {
                c.stdout.line(
                    report.isClean
                        ? "store is clean" : "store is damaged; add --salvage DIR to copy its valid part into a new store at DIR")
            }
        }
        // A salvage that wrote its new store did what was asked, damaged original or not.
        return report.isClean || salvage != nil ? .success : .badData
    }
}
