import IAPKit

#if canImport(Glibc)
    import Glibc
#endif

/// `iapctl events`: the notification log, one JSON object a line.
enum EventsCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "events",
            summary: "Print the event log as JSON Lines",
            discussion:
                "Each line has seq, name, date and what the event is about. --follow keeps printing new events as other iapctl processes commit them, until interrupted.",
            options: [
                .value("since", "seq", help: "Only events after this sequence number"),
                .flag("follow", help: "Keep waiting for new events"),
            ],
            examples: ["iapctl events --since 10", "iapctl events --follow | jq .name"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        var since = UInt64(try c.invocation.int("since", in: 0...Int.max) ?? 0)
        while true {
            let last = try c.read { s throws(StoreError) -> UInt64 in
                var sink = ConsoleSink(console: c.stdout)
                try s.events(since: since, into: &sink)
                return s.state.nextEventSeq - 1
            }
            c.stdout.flush()
            guard c.invocation.flag("follow") else { return .success }
            since = max(since, last)
            // Following is a person or a pipeline waiting for news: poll the store gently.
            usleep(100_000)
        }
    }
}
