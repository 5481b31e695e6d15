import IAPKit
import Testing

@testable import IAPCLI

@Suite("Help for the lifecycle commands")
struct LifecycleHelpTests {
    static let commands: [[String]] = [
        ["downloads"], ["download"], ["download", "start"], ["download", "pause"], ["download", "resume"],
        ["download", "cancel"],
        ["download", "run"], ["promote"], ["stored-payments"], ["accept-stored"], ["approve"], ["decline"], ["resolve"],
        ["fault"],
        ["fault", "add"], ["fault", "list"], ["fault", "clear"], ["ledger"], ["consume"], ["owned"],
    ]

    @Test("the command table is sound")
    func table() {
        #expect(CommandTable.root.problems.isEmpty)
    }

    @Test("every new command has help with an overview, usage and examples", arguments: commands)
    func help(path: [String]) {
        let out = BufferConsole()
        let err = BufferConsole()
        let code = IAPCLI.run(arguments: ["help"] + path, stdout: out, stderr: err)
        #expect(code == .success && err.text.isEmpty)
        #expect(out.text.contains("OVERVIEW:") && out.text.contains("USAGE:"))
        #expect(out.text.contains("EXAMPLES:") || out.text.contains("SUBCOMMANDS:"))
    }

    @Test("the settings are listed in config's help")
    func settingsHelp() {
        let out = BufferConsole()
        _ = IAPCLI.run(arguments: ["help", "config", "set"], stdout: out, stderr: BufferConsole())
        for key in [
            "ask-to-buy", "interrupted-purchases", "fail-transactions", "store-payments", "finish-after-downloads", "downloader",
        ] {
            #expect(out.text.contains(key + ":"), "\(key) missing")
        }
    }
}
