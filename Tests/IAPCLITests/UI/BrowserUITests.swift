import Foundation
import Testing

/// The Transaction Manager in a real browser: `Tests/interop/ui_test.py` drives headless
/// Chromium through Selenium (pinned in requirements-test.txt) against `iapctl ui` on a fresh
/// store, and checks each click against the store through the CLI. A missing browser, driver or
/// Selenium is a failure naming what to install, never a skip: `make test` and CI (`.ci/run`
/// installs Debian's `chromium` and `chromium-driver`) run it on every change.
///
/// `IAPCTL_CHROMIUM` and `IAPCTL_CHROMEDRIVER` name other binaries (else `chromium` and
/// `chromedriver` on PATH or in /usr/bin); `IAPCTL_UI_SCREENSHOT` is where the PNG goes (README's
/// `docs/ui-screenshot.png` is one taken so).
@Suite("Transaction Manager in Chromium", .serialized)
struct BrowserUITests {
    @Test(
        "loads; a CLI purchase appears live; Refund and Ask to Buy approval by click reach the store; forged and cross-origin actions are refused; keyboard and labels; a screenshot"
    )
    func selenium() throws {
        let environment = ProcessInfo.processInfo.environment
        var tools: [String] = []
        for (tool, variable, package) in [
            ("chromium", "IAPCTL_CHROMIUM", "chromium"), ("chromedriver", "IAPCTL_CHROMEDRIVER", "chromium-driver"),
        ] {
            let given = environment[variable].flatMap { $0.isEmpty ? nil : $0 }
            guard let path = given ?? (try? ExternalTool.path(tool)),
                FileManager.default.isExecutableFile(atPath: path)
            else {
                let ci = environment["CI"].map { " (CI=\($0): the browser test is part of every CI run)" } ?? ""
                Issue.record(
                    "\(given.map { "\(variable)=\($0) is not an executable" } ?? "\(tool) is not installed"): the browser test needs Debian's '\(package)' package (apt-get install chromium chromium-driver)\(ci)"
                )
                return
            }
            tools.append(path)
        }
        let h = CLIHarness()
        let screenshot = environment["IAPCTL_UI_SCREENSHOT"] ?? h.path("ui/screenshot.png")
        let r = BoundedRun.run(
            "/usr/bin/env",
            [
                "python3", CLIHarness.packageRoot + "/Tests/interop/ui_test.py", "--iapctl", CLIHarness.binary, "--workdir",
                h.path("ui"), "--screenshot", screenshot, "--chromium", tools[0], "--chromedriver", tools[1],
            ], timeout: 300)
        // Exit 2: Selenium, the browser or its driver could not be used; stderr says what to install.
        if r.code == 2 {
            Issue.record("the browser test could not start: \(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
            return
        }
        #expect(r.code == 0, "\(r)")
        #expect(r.stdout.hasSuffix(" passed, 0 failed\n"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}
