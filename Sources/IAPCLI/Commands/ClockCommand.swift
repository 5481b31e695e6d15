import IAPJSON
import IAPKit
import IAPTime

/// `iapctl clock`: the store's simulated clock, and moving it forward.
enum ClockCommand {
    static let group = CommandSpec(
        name: "clock",
        summary: "Show or move the store's simulated clock (renewals and expiries happen on the way)",
        discussion: """
            The store never reads the wall clock: every date comes from this clock. It moves a little \
            before each purchase (config clock-step) and as far as you ask with 'clock advance' or \
            'clock set'. Everything that falls due on the way happens, in date order: renewals, \
            expiries, the ends of grace and billing retry periods. It never moves backwards (exit 4).
            """,
        subcommands: [show.spec, advance.spec, set.spec],
        defaultSubcommand: "show"
    )

    static let children = [show, advance, set]

    static let show = CommandDefinition(
        CommandSpec(
            name: "show",
            summary: "Print the store's time and when something next falls due",
            examples: ["iapctl clock", "iapctl clock show --json"]
        ), run: runShow)

    static let advance = CommandDefinition(
        CommandSpec(
            name: "advance",
            summary: "Move the clock forward by a duration",
            discussion: """
                DURATION is ISO 8601 (P1M, P3DT4H, P1Y, P2W, PT90M) or a short form (90d, 36h, 30m, 10s, \
                500ms). Months and years are calendar months: P1M from January 31 is February 28 or 29.
                """,
            arguments: [ArgumentSpec("DURATION", help: "How far: P1M, P3DT4H, 90d, 36h, ...")],
            examples: ["iapctl clock advance P1M", "iapctl clock advance 36h --json"]
        ), run: runAdvance)

    static let set = CommandDefinition(
        CommandSpec(
            name: "set",
            summary: "Move the clock forward to a date",
            arguments: [ArgumentSpec("DATE", help: "RFC 3339 (2026-03-01T12:00:00Z) or a bare date (2026-03-01, midnight UTC)")],
            examples: ["iapctl clock set 2026-03-01", "iapctl clock set 2026-03-01T12:00:00+08:00"]
        ), run: runSet)

    static func runShow(_ c: CommandContext) throws -> ExitCode {
        try c.read { s throws(StoreError) in
            let due = s.machine.nextDueDate
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("clock")
                    writeDate(s.state.clock, "clockTimestamp", into: &w)
                    w.key("nextDueDate")
                    writeDate(due, "nextDueTimestamp", into: &w)
                    w.endObject()
                }
            } else {
                c.stdout.line(s.state.clock.rfc3339)
                if let due { c.stdout.line("next due: \(due.rfc3339)") }
            }
            return .success
        }
    }

    static func runAdvance(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let text = i.positional("DURATION") ?? ""
        guard let duration = CalendarDuration(text) else {
            throw i.usageError(
                "bad duration '\(text)'; write ISO 8601 such as P1M, P3DT4H, P1Y, or a short form such as 90d, 36h, 500ms")
        }
        return try c.write { s throws(StoreError) in
            try move(c, s, to: duration.advance(s.state.clock))
        }
    }

    static func runSet(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let text = i.positional("DATE") ?? ""
        guard let date = Timestamp(rfc3339: text) else {
            throw i.usageError("bad date '\(text)'; write RFC 3339 such as 2026-03-01T12:00:00Z, or a date such as 2026-03-01")
        }
        return try c.write { s throws(StoreError) in try move(c, s, to: date) }
    }

    /// Applies the move and reports it: the new time and what happened on the way, by event name.
    private static func move(_ c: CommandContext, _ s: StoreSession, to target: Timestamp) throws(StoreError) -> ExitCode {
        let effects = try s.apply(.advanceClock(to: target))
        guard case .clockMoved(let move) = effects.outcome else { return ExitCode(effects.outcome) }
        let from = move.from
        let counts = move.tally
        let firstSeq = move.firstEventSeq
        if c.json {
            c.printJSON { w in
                w.beginObject()
                w.key("from")
                writeDate(from, "fromTimestamp", into: &w)
                w.key("clock")
                writeDate(s.state.clock, "clockTimestamp", into: &w)
                w.key("events")
                w.beginObject()
                for t in counts {
                    w.key(t.name)
                    w.int(t.count)
                }
                w.endObject()
                w.key("firstEventSeq")
                if let firstSeq { w.uint(firstSeq) } else { w.null() }
                w.key("transactions")
                w.int(effects.transactions.count)
                w.endObject()
            }
        } else {
            c.stdout.line(
                from == s.state.clock ? "clock stays at \(from.rfc3339)" : "clock \(s.state.clock.rfc3339) (was \(from.rfc3339))")
            if !counts.isEmpty {
                c.stdout.line("on the way: " + counts.map { "\($0.count) \($0.name)" }.joined(separator: ", "))
                if let firstSeq { c.stdout.line("see 'iapctl events --since \(firstSeq - 1)'") }
            }
        }
        return ExitCode(effects.outcome)
    }

    /// A date value and its `...Timestamp` twin (the caller has written the date's key).
    private static func writeDate(_ date: Timestamp?, _ twin: String, into w: inout JSONWriter) {
        if let date { w.string(date.rfc3339) } else { w.null() }
        w.key(twin)
        if let date { w.int(date.milliseconds) } else { w.null() }
    }
}
