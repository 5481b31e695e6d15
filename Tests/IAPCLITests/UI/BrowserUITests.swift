import Foundation
import Testing

/// The Transaction Manager in a real browser: `Tests/interop/ui_test.py` drives headless
/// Chromium through Selenium (pinned in requirements-test.txt) against `iapctl ui` on a fresh
/// store, and checks each click against the store through the CLI. A missing browser, driver or
/// Selenium is a failure naming what to install, never a skip.
@Suite("Transaction Manager in Chromium", .serialized)
struct BrowserUITests {
    @Test(
        "loads; a CLI purchase appears live; Refund and Ask to Buy approval by click reach the store; forged and cross-origin actions are refused; keyboard and labels; a screenshot"
    )
    func selenium() throws {
        for (tool, package) in [("chromium", "chromium"), ("chromedriver", "chromium-driver")] {
            guard (try? ExternalTool.path(tool)) != nil else {
                Issue.record(
                    "\(tool) is not installed: the browser test needs Debian's '\(package)' package (apt-get install chromium chromium-driver)"
                )
                return
            }
        }
        let h = CLIHarness()
        let environment = ProcessInfo.processInfo.environment
        let screenshot = environment["IAPCTL_UI_SCREENSHOT"] ?? h.path("ui/screenshot.png")
        let r = BoundedRun.run(
            "/usr/bin/env",
            [
                "python3", CLIHarness.packageRoot + "/Tests/interop/ui_test.py", "--iapctl", CLIHarness.binary, "--workdir",
                h.path("ui"), "--screenshot", screenshot,
            ], timeout: 300)
        #expect(r.code == 0, "\(r)")
        #expect(r.stdout.hasSuffix(" passed, 0 failed\n"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}
