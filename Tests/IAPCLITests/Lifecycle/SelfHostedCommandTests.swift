import Foundation
import IAPKit
import Testing

@Suite("Self-hosted content through the downloader setting, end to end")
struct SelfHostedCommandTests {
    /// A real downloader: saves its stdin and environment, calls iapctl on the same store (the
    /// lock is not held while it runs), prints progress and a log line, exits with $1.
    static func harness(exit status: Int = 0) -> CLIHarness {
        let h = CLIHarness("iapctl-selfhosted")
        h.write(
            "fetch.sh",
            """
            #!/bin/sh
            cat > "\(h.directory)/stdin.json"
            echo "$IAPCTL_TRANSACTION_ID $IAPCTL_PRODUCT_ID" > "\(h.directory)/env.txt"
            "\(CLIHarness.binary)" --store "\(h.store)" show "$IAPCTL_TRANSACTION_ID" > "\(h.directory)/shown.txt"
            echo "fetching" >&2
            echo progress 0.25
            echo "a log line"
            echo progress 0.5
            exit \(status)

            """)
        h.ok(["config", "set", "downloader", "sh \(h.directory)/fetch.sh"])
        return h
    }

    @Test("a purchase of a self-hosted product runs the downloader with the transaction JSON on stdin")
    func success() throws {
        let h = Self.harness()
        let r = h.run(["buy", "com.x.guide"])
        #expect(r.code == 0, "\(r)")
        #expect(
            r.stdout == """
                purchased  2000000000000001  com.x.guide  $3.99
                deliver it, then run 'iapctl finish 2000000000000001'
                content 2000000000000001  progress 0  com.x.guide
                content 2000000000000001  progress 0.25  com.x.guide
                content 2000000000000001  progress 0.5  com.x.guide
                content 2000000000000001  finished

                """)
        #expect(r.stderr == "fetching\n")
        #expect(String(decoding: h.bytes("stdin.json"), as: UTF8.self) == h.ok(["show", "2000000000000001", "--json"]))
        #expect(String(decoding: h.bytes("env.txt"), as: UTF8.self) == "2000000000000001 com.x.guide\n")
        #expect(String(decoding: h.bytes("shown.txt"), as: UTF8.self).hasPrefix("purchased  2000000000000001  com.x.guide"))
        #expect(
            h.eventNames().suffix(4) == [
                "contentDownloadStarted", "contentDownloadUpdated", "contentDownloadUpdated", "contentDownloadFinished",
            ])
        let row = h.run(["downloads", "--json"]).json?.arrayValue?.first
        #expect(row?["selfHosted"]?.boolValue == true && row?["state"]?.stringValue == "finished")
    }

    @Test("a downloader that exits non-zero fails the content: exit 1, the error recorded")
    func failure() {
        let h = Self.harness(exit: 3)
        let r = h.run(["buy", "com.x.guide", "--json"])
        #expect(r.code == 1)
        #expect(r.json?["state"]?.stringValue == "purchased", "stdout holds only the transaction")
        #expect(
            r.stderr == """
                fetching
                error: self-hosted content of transaction 2000000000000001 failed: iapctl.downloader 3 (downloaderFailed): the downloader exited with status 3

                """)
        #expect(
            h.ok(["downloads"]) == """
                TXID              PRODUCT      CONTENT        VERSION  STATE                      PROGRESS  BYTES
                2000000000000001  com.x.guide  (self-hosted)  -        failed (downloaderFailed)  0.5       -

                """)
    }

    @Test("without a downloader the content waits; launch runs it once one is set; restore runs it too")
    func waitingAndLaunch() {
        let h = CLIHarness("iapctl-selfhosted")
        #expect(
            h.ok(["buy", "com.x.guide"]).hasSuffix(
                "self-hosted content of 2000000000000001 (com.x.guide) waits for a downloader ('iapctl config set downloader COMMAND')\n"
            ))
        h.write("ok.sh", "#!/bin/sh\ncat >/dev/null\necho progress 1\n")
        h.ok(["config", "set", "downloader", "sh \(h.directory)/ok.sh"])
        #expect(
            h.ok(["launch"]).hasSuffix("content 2000000000000001  progress 1  com.x.guide\ncontent 2000000000000001  finished\n"))
        h.ok(["finish", "--all"])
        #expect(h.ok(["restore"]).contains("content 2000000000000002  finished\n"))
    }

    @Test("bad progress lines are ignored with a warning; a download fault fails the content before the process runs")
    func badLinesAndFaults() {
        let h = CLIHarness("iapctl-selfhosted")
        h.write("odd.sh", "#!/bin/sh\necho progress 2\necho progress\n")
        h.ok(["config", "set", "downloader", "sh \(h.directory)/odd.sh"])
        let r = h.run(["buy", "com.x.guide"])
        #expect(r.code == 0)
        #expect(
            r.stderr == """
                warning: downloader for transaction 2000000000000001 printed 'progress 2'; expected 'progress' and a number from 0 to 1 (line ignored)
                warning: downloader for transaction 2000000000000001 printed 'progress'; expected 'progress' and a number from 0 to 1 (line ignored)

                """)
        h.ok(["fault", "add", "download", "cloudServiceRevoked"])
        let f = h.run(["buy", "com.x.guide"])
        #expect(f.code == 1)
        #expect(f.stdout.contains("fault #1 fired at download: SKErrorDomain 8 (cloudServiceRevoked)"))
        #expect(
            f.stderr.hasSuffix(
                "error: self-hosted content of transaction 2000000000000002 failed: SKErrorDomain 8 (cloudServiceRevoked): The user has revoked permission to use this cloud service.\n"
            ))
    }

    @Test("under iapctl run's one held lock too, the downloader can call iapctl on the run's own store")
    func downloaderUnderRun() throws {
        let h = CLIHarness("iapctl-selfhosted-run")
        h.write(
            "fetch.sh",
            """
            #!/bin/sh
            "\(CLIHarness.binary)" --store "$1" --lock-timeout 5 show "$IAPCTL_TRANSACTION_ID" > "\(h.directory)/shown.txt"
            echo progress 0.5
            "\(CLIHarness.binary)" --store "$1" --lock-timeout 5 queue > "\(h.directory)/queue.txt"
            exit 0

            """)
        h.write(
            "s.iap",
            """
            config set downloader "sh \(h.directory)/fetch.sh $STORE"
            buy com.x.guide
            expect stdout ~ content 2000000000000001  finished
            queue
            expect stdout ~ 2000000000000001

            """)
        let r = h.run(["run", h.path("s.iap")], useStore: false)
        #expect(r.code == 0, "\(r)")
        #expect(String(decoding: h.bytes("shown.txt"), as: UTF8.self).contains("2000000000000001"), "\(r)")
        #expect(String(decoding: h.bytes("queue.txt"), as: UTF8.self).contains("2000000000000001"), "\(r)")
    }

    @Test("the downloader setting rejects multi-line commands")
    func badSetting() {
        let h = CLIHarness("iapctl-selfhosted")
        h.ok(["init"])
        h.expectRefused(
            ["config", "set", "downloader", "a\nb"], code: 64,
            "bad value 'a\\nb' for setting downloader; expected a one-line shell command of at most 4096 characters, or none")
    }
}
