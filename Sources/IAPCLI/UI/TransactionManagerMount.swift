import IAPHTTP
import IAPKit
import IAPRuntime
import IAPUI

/// The Transaction Manager (`GET /` and `/ui/`) inside the server of `serve` or `ui`.
///
/// Its Host and Origin checks need the port the kernel picked (`--port 0`), so the server is
/// created with the mount empty and the page is mounted after the bind, before the first request
/// is accepted; until then (never, in practice) its paths fall through to the API's 404.
final class TransactionManagerMount: @unchecked Sendable {
    private let lock = Lock()
    private var api: TransactionManagerAPI?

    /// The page's answer to `request`, or nil when the path is not the page's.
    func respond(to request: HTTPRequest) -> HTTPResponse? {
        guard TransactionManagerAPI.handles(request.path), let api = lock.withLock({ api }) else { return nil }
        return api.respond(to: request)
    }

    /// Mounts the page for the store `c` names, served on `port`, with a new token; its actions
    /// run the CLI in process (`InProcessCommandLine`) on the same store.
    func mount(_ c: CommandContext, reader: any StoreReading, port: UInt16) throws {
        guard let token = UIToken.random() else {
            // The command line is right; the service cannot start (69, EX_UNAVAILABLE).
            throw StoreError.unavailable(
                "the kernel gave no random bytes (/dev/urandom) for the Transaction Manager's token; cannot serve its page safely"
            )
        }
        let commandLine = InProcessCommandLine(
            storePath: c.storePath, lockTimeout: c.invocation.globals.lockTimeout, environment: c.environment)
        let mounted = TransactionManagerAPI(
            reader: reader, commandLine: commandLine, check: UIRequestCheck(port: port, token: token),
            storePath: c.storePath, version: iapctlVersion)
        lock.withLock { api = mounted }
    }
}
