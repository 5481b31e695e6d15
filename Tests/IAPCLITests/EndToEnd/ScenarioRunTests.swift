import Foundation
import IAPKit
import Testing

/// `iapctl run` end to end: the example scenarios pass, failures are reported with their line,
/// expected and actual value, and the exit codes are 0, 1, 65 and 66.
@Suite("Scenario runs, end to end")
struct ScenarioRunTests {
    /// Every scenario under Fixtures/scenarios, by file name.
    static let fixtures: [String] = {
        let directory = CLIHarness.fixture("scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".iap") }.sorted()
    }()

    @Test func theExampleScenariosAreThere() {
        #expect(Self.fixtures.contains("dyfstorekit-sample.iap"))
        #expect(Self.fixtures.contains("rmstore-pipeline.iap"))
        #expect(Self.fixtures.contains("bad-input.iap"))
        for kind in ["introductory", "promotional", "codes", "win-back", "billing-plan"] {
            #expect(Self.fixtures.contains("offers-\(kind).iap"), "one offer scenario per offer kind")
        }
    }

    @Test("example scenario passes", arguments: fixtures)
    func examplePasses(file: String) throws {
        let harness = CLIHarness("iapctl-scenario")
        let result = harness.run(
            ["run", CLIHarness.fixture("scenarios/" + file)], useStore: false, environment: ["TMPDIR": harness.directory])
        #expect(result.code == 0, "\(result)")
        #expect(result.stderr == "")
        let summary = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        #expect(summary.hasSuffix(" passed, 0 failed"), "\(result)")
        #expect(!summary.hasPrefix("0 passed"))
        #expect(result.stdout.split(separator: "\n").count == 1, "only the summary is printed when all pass")
        // The scenario's temporary store is gone.
        let left = try FileManager.default.contentsOfDirectory(atPath: harness.directory)
        #expect(!left.contains { $0.hasPrefix("iapctl-run-") }, "\(left)")
    }

    @Test("let and expect json read a line's JSON without --json on it; --verbose shows the line as typed")
    func jsonWithoutTheFlag() {
        let harness = CLIHarness("iapctl-scenario")
        harness.write(
            "plain.iap",
            """
            buy com.x.coin42
            expect json .state == purchased
            let TX = .transactionIdentifier
            finish $TX
            expect json .[0].finished == true
            queue
            expect stdout ~ the queue is empty
            events
            expect json .[-1].name == transactionFinished
            """)
        let result = harness.run(["run", "--verbose", "plain.iap"], useStore: false, environment: ["TMPDIR": harness.directory])
        #expect(result.code == 0, "\(result)")
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "plain.iap:1: buy com.x.coin42  -> exit 0")
        #expect(lines.contains("plain.iap:4: finish $TX  -> exit 0"))
        #expect(lines.contains("plain.iap:6: queue  -> exit 0"), "a line nothing reads as JSON prints text")
        #expect(lines.last == "5 passed, 0 failed")
    }

    @Test("an empty or comment-only scenario is malformed, not a pass", arguments: ["", "# nothing here\n\n   # at all\n"])
    func emptyScenario(text: String) {
        let harness = CLIHarness("iapctl-scenario")
        let result = harness.run(["run", "-"], stdin: text, useStore: false, environment: ["TMPDIR": harness.directory])
        #expect(result.code == 65)
        #expect(
            result.stderr
                == "error: <stdin>: no commands or checks (it is empty or only comments); write one iapctl command or check a line (see 'iapctl help run')\n"
        )
        #expect(result.stdout == "")
    }

    @Test func failuresNameTheLineTheExpectedAndTheActualValue() {
        let harness = CLIHarness("iapctl-scenario")
        harness.write(
            "checks.iap",
            """
            buy com.x.coin42 --json
            expect exit 0
            expect json .state == restored
            expect json .quantity == 1
            let TX = .transactionIdentifier
            expect state $TX failed
            expect json .nope == 1
            expect stdout ~ com.x.coin43
            expect stderr !~ x
            expect count dump --product com.x.coin42 == 2
            buy com.x.coin43
            let NOPE = .transactionIdentifier
            finish $NOPE
            expect exit 0
            """)
        let result = harness.run(["run", "checks.iap"], useStore: false, environment: ["TMPDIR": harness.directory])
        #expect(result.code == 1)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                checks.iap:3: expect json .state == restored
                  expected: "restored"
                  actual:   "purchased"
                checks.iap:6: expect state $TX failed
                  expected: failed
                  actual:   purchased
                checks.iap:7: expect json .nope == 1
                  expected: 1
                  actual:   no member 'nope' in . (it has: transactionIdentifier, originalTransactionIdentifier, productIdentifier, productType, quantity, userIdentifier, state, finished, transactionDate, transactionTimestamp, originalTransactionDate, originalTransactionTimestamp, ...)
                checks.iap:8: expect stdout ~ com.x.coin43
                  expected: stdout containing "com.x.coin43"
                  actual:   "{\\"transactionIdentifier\\":\\"2000000000000001\\",\\"originalTransactionIdentifier\\":\\"2000000000000001\\",\\"productIdentifier\\":\\"com.x.coin42\\",\\"productType\\":\\"consumable\\",\\"quantity\\":1,\\"userIdentifier\\":null,\\"state\\":\\"purchased\\",\\"finished\\":false,\\"transactionDate\\":\\"2026-01-01T00:00:01Z\\"... (587 more characters)
                checks.iap:10: expect count dump --product com.x.coin42 == 2
                  expected: 2 transactions
                  actual:   1
                checks.iap:11: buy com.x.coin43
                  expected: exit 0 (write 'expect exit 3' after the command if that is intended)
                  actual:   exit 3: error: unknown product 'com.x.coin43'; closest known: com.x.coin42, com.x.coin1386, com.x.coin210 (see 'iapctl products')
                checks.iap:12: let NOPE = .transactionIdentifier
                  expected: JSON on the standard output of line 11
                  actual:   line 11 printed nothing on stdout
                checks.iap:13: finish $NOPE
                  expected: the command to run
                  actual:   not run: $NOPE has no value: its 'let' on line 12 failed
                checks.iap:14: expect exit 0
                  expected: a result of line 13
                  actual:   line 13 was not run: $NOPE has no value: its 'let' on line 12 failed
                4 passed, 9 failed

                """)
    }

    @Test func aJSONReport() throws {
        let harness = CLIHarness("iapctl-scenario")
        harness.write("checks.iap", "can-pay\nexpect exit 0\nexpect stdout ~ not allowed\n")
        let result = harness.run(["run", "checks.iap", "--json"])
        #expect(result.code == 1)
        #expect(
            result.stdout
                == #"{"file":"checks.iap","passed":1,"failed":1,"failures":[{"line":3,"source":"expect stdout ~ not allowed","expected":"stdout containing \"not allowed\"","actual":"\"payments are allowed\\n\""}],"store":"\#(harness.store)"}"#
                + "\n")
    }

    @Test func malformedFilesExit65WithLineAndColumnAndRunNothing() {
        let harness = CLIHarness("iapctl-scenario")
        harness.write("bad.iap", "buy com.x.coin42\n# fine so far\nexpect json .state == \"purchased\n")
        let result = harness.run(["run", "bad.iap"])
        #expect(result.code == 65)
        #expect(result.stdout == "")
        #expect(result.stderr == "error: bad.iap:3:23: unterminated double quote; close it with \"\n")
        #expect(!FileManager.default.fileExists(atPath: harness.store), "no line ran")
    }

    @Test func nestedRunsAndUnknownCommandsAreMalformed() {
        let harness = CLIHarness("iapctl-scenario")
        harness.write("nested.iap", "can-pay\n  run nested.iap\n")
        let nested = harness.run(["run", "nested.iap"], useStore: false)
        #expect(nested.code == 65)
        #expect(
            nested.stderr
                == "error: nested.iap:2:3: a scenario cannot run another scenario; put the other file's lines here instead\n")
        harness.write("typo.iap", "can-pay\nfinsh --all\n")
        let typo = harness.run(["run", "typo.iap"], useStore: false)
        #expect(typo.code == 65)
        #expect(
            typo.stderr
                == "error: typo.iap:2:1: unknown command 'finsh'; did you mean 'finish'? (a line is an iapctl command, an 'expect' or a 'let'; see 'iapctl help')\n"
        )
    }

    @Test func missingAndUnreadableFilesExit66() {
        let harness = CLIHarness("iapctl-scenario")
        let missing = harness.run(["run", "nope.iap"], useStore: false)
        #expect(missing.code == 66)
        #expect(missing.stderr == "error: cannot read 'nope.iap': no such file (give a scenario file, or - for standard input)\n")
        let directory = harness.run(["run", "."], useStore: false)
        #expect(directory.code == 66)
        #expect(directory.stderr == "error: cannot read '.': is a directory, not a scenario file\n")
    }

    @Test func invalidUTF8IsMalformed() throws {
        let harness = CLIHarness("iapctl-scenario")
        _ = FileManager.default.createFile(
            atPath: harness.path("latin1.iap"), contents: Data([0x62, 0x75, 0x79, 0x20, 0xE9, 0x0A]))
        let result = harness.run(["run", "latin1.iap"], useStore: false)
        #expect(result.code == 65)
        #expect(result.stderr == "error: latin1.iap:1:5: invalid UTF-8; save the scenario as UTF-8 text\n")
    }

    @Test func standardInput() {
        let harness = CLIHarness("iapctl-scenario")
        let result = harness.run(
            ["run", "-"], stdin: "buy com.x.noads --json\nexpect json .productType == nonConsumable\n", useStore: false,
            environment: ["TMPDIR": harness.directory])
        #expect(result.code == 0)
        #expect(result.stdout == "1 passed, 0 failed\n")
        let malformed = harness.run(["run", "-"], stdin: "expect exit 0\n", useStore: false)
        #expect(malformed.code == 65)
        #expect(malformed.stderr == "error: <stdin>:1:1: 'expect exit' checks the last command, but no command comes before it\n")
    }

    @Test func aGivenStoreIsUsedAndKept() throws {
        let harness = CLIHarness("iapctl-scenario")
        harness.write("first.iap", "buy com.x.noads --json\nlet TX = .transactionIdentifier\nsha256 $STORE --json\n")
        #expect(harness.run(["run", "first.iap"]).stdout == "1 passed, 0 failed\n")
        harness.write("second.iap", "queue --json\nexpect json .[0].productIdentifier == com.x.noads\nexpect count dump == 1\n")
        let second = harness.run(["run", "second.iap"])
        #expect(second.code == 0, "\(second)")
        #expect(second.stdout == "2 passed, 0 failed\n")
        #expect(harness.run(["dump"]).json?.arrayValue?.count == 1)
    }

    @Test func theStoreAndScenarioDirectoryVariables() throws {
        let harness = CLIHarness("iapctl-scenario")
        try FileManager.default.createDirectory(atPath: harness.path("dir"), withIntermediateDirectories: true)
        harness.write(
            "dir/vars.iap",
            """
            sha256 x --json
            expect stdout ~ $STORE
            expect stdout !~ $STORE
            expect stdout ~ $SCENARIO_DIR
            """)
        let result = harness.run(["run", "dir/vars.iap"])
        #expect(result.code == 1)
        #expect(result.stdout.contains("expected: stdout containing \"\(harness.store)\""))
        #expect(result.stdout.contains("expected: stdout containing \"dir\""))
        #expect(result.stdout.hasSuffix("1 passed, 2 failed\n"))
    }

    @Test func aCatalogForTheScenarioStore() {
        let harness = CLIHarness("iapctl-scenario")
        harness.write(
            "storekit.iap",
            """
            products --json
            expect json .products[0].productIdentifier == com.example.v5.halfyear
            buy com.example.v5.plus --json
            expect json .state == purchased
            """)
        let result = harness.run(
            ["run", "storekit.iap", "--catalog", CLIHarness.fixture("storekit/v5.storekit")], useStore: false,
            environment: ["TMPDIR": harness.directory])
        #expect(result.code == 0, "\(result)")
        #expect(result.stdout == "2 passed, 0 failed\n")
        let missing = harness.run(
            ["run", "storekit.iap", "--catalog", "nope.json"], useStore: false, environment: ["TMPDIR": harness.directory])
        #expect(missing.code == 66)
    }

    @Test func keepAndVerbose() throws {
        let harness = CLIHarness("iapctl-scenario")
        harness.write("v.iap", "can-pay\nexpect exit 0\n")
        let result = harness.run(
            ["run", "v.iap", "--verbose", "--keep"], useStore: false, environment: ["TMPDIR": harness.directory])
        #expect(result.code == 0)
        #expect(result.stdout == "v.iap:1: can-pay  -> exit 0\nv.iap:2: ok: expect exit 0\n1 passed, 0 failed\n")
        let kept = try #require(result.stderr.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(result.stderr.hasPrefix("kept the scenario's store at \(harness.directory)/iapctl-run-"))
        #expect(FileManager.default.fileExists(atPath: kept + "/state"), "\(kept)")
    }

    @Test func aCommandThatFailsWithoutAnExpectationFails() {
        let harness = CLIHarness("iapctl-scenario")
        harness.write("f.iap", "finish 2000000000000001\nqueue\nexpect exit 0\n")
        let result = harness.run(["run", "f.iap"])
        #expect(result.code == 1)
        #expect(
            result.stdout == """
                f.iap:1: finish 2000000000000001
                  expected: exit 0 (write 'expect exit 3' after the command if that is intended)
                  actual:   exit 3: error: unknown transaction '2000000000000001' (see 'iapctl queue' or 'iapctl dump')
                1 passed, 1 failed

                """)
    }

    @Test func usageMistakesOfRunItself() {
        let harness = CLIHarness("iapctl-scenario")
        let missing = harness.run(["run"], useStore: false)
        #expect(missing.code == 64)
        #expect(missing.stderr == "error: missing argument <FILE> for 'run' (see 'iapctl help run')\n")
    }
}
