import IAPKit
import IAPRuntime

/// `iapctl ui`: the Transaction Manager, Xcode's window onto StoreKit testing, in a browser: a
/// server on a free loopback port whose page shows the store live and runs Xcode's actions
/// through the CLI's own commands (docs/ui.md).
enum UICommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "ui",
            summary: "Open the Transaction Manager: the store live in a browser, with Xcode's actions",
            discussion: """
                Starts a server on a free loopback port and prints 'Transaction Manager at \
                http://127.0.0.1:PORT/ (Ctrl-C stops it)' as its first line (with --json: {"url", "host", \
                "port"}); open that address in a browser. The page lists the store's transactions (newest \
                first, filtered by product, state, account or family member, paged), shows every field, the \
                signed transaction, the receipt entry and the events of the one selected, the \
                subscriptions, downloads, family, clock and settings, and updates as any process changes \
                the store. Its buttons and forms (refund and refund requests, approve or decline Ask to \
                Buy, resolve, expire, renew, auto-renew, price increases and consent, delete, clear, buy \
                from the App Store, finish, family add and remove, advance the clock, settings) run the \
                same commands as the CLI. Only the page itself can \
                act: every action needs the token the server writes into it. SIGINT (Ctrl-C) or SIGTERM \
                stops it with 0. 'iapctl serve' serves the same page at /. See docs/ui.md.
                """,
            options: [
                .value("host", "address", help: "A loopback address to listen on: 127.0.0.1 (default) or ::1"),
                .value("port", "n", help: "The port (default: 0, a free one)"),
            ],
            examples: ["iapctl ui", "iapctl --store /tmp/s ui --port 8099"]
        ), run: run)

    /// `serve`'s server with `ui`'s two options: loopback only (no `--allow-remote`: the page can
    /// change the store), and a free port unless `--port` names one.
    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let hostText = i.value("host") ?? "127.0.0.1"
        let port = try i.int("port", in: 0...65535) ?? 0
        guard let address = SocketAddress(host: hostText, port: UInt16(port)) else {
            throw i.usageError(
                "--host '\(hostText)' is not an IP address; give 127.0.0.1, ::1 or localhost (names are not resolved)")
        }
        guard address.isLoopback else {
            throw i.usageError(
                "--host \(hostText) is not a loopback address; the Transaction Manager listens on loopback only (127.0.0.1 or ::1)"
            )
        }
        return try ServeCommand.serve(c, HTTPServer.Configuration(address: address), announce: .transactionManager)
    }

    /// The first line: the page's address, as text or (`--json`) `{"url", "host", "port"}`.
    static func announce(_ c: CommandContext, url: String, host: String, port: UInt16) {
        if c.json {
            c.printJSON { w in
                w.beginObject()
                w.key("url")
                w.string(url)
                w.key("host")
                w.string(host)
                w.key("port")
                w.int(Int(port))
                w.endObject()
            }
        } else {
            c.stdout.line("Transaction Manager at \(url) (Ctrl-C stops it)")
        }
    }
}
