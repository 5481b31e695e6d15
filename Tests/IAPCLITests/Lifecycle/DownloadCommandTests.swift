import Foundation
import IAPCLI
import IAPKit
import Testing

@Suite("iapctl downloads and download, end to end")
struct DownloadCommandTests {
    static let tx = "2000000000000001"

    /// A store with a purchased level pack.
    static func withPack() -> CLIHarness {
        let h = CLIHarness("iapctl-downloads")
        h.ok(["buy", "com.x.levelpack"])
        return h
    }

    @Test("downloads lists the waiting downloads of unfinished transactions")
    func list() {
        let h = Self.withPack()
        #expect(
            h.ok(["downloads"]) == """
                TXID              PRODUCT          CONTENT     VERSION  STATE    PROGRESS  BYTES
                2000000000000001  com.x.levelpack  levels      1.0      waiting  0         0/9591
                2000000000000001  com.x.levelpack  soundtrack  1.2      waiting  0         0/2096

                """)
        let json = h.run(["downloads", Self.tx, "--json"]).json
        #expect(json?.arrayValue?.map { $0["state"]?.stringValue } == ["waiting", "waiting"])
        #expect(json?.arrayValue?.first?["contentLength"]?.int64Value == 9591)
        h.ok(["buy", "com.x.coin42"])
        #expect(
            h.ok(["downloads", "2000000000000002"]) == "transaction 2000000000000002 (com.x.coin42, purchased) has no downloads\n"
        )
        h.expectRefused(
            ["downloads", "2000000000000009"], code: 3,
            "unknown transaction '2000000000000009' (see 'iapctl queue' or 'iapctl dump')")
    }

    @Test("download run copies the content byte for byte, one line and one event per step")
    func run() throws {
        let h = Self.withPack()
        #expect(
            h.ok(["download", "start", Self.tx]) == """
                download levels of 2000000000000001 started
                download soundtrack of 2000000000000001 started

                """)
        let out = h.ok(["download", "run", Self.tx, "--chunk", "4000"])
        let levels = h.store + "/content/2000000000000001/levels"
        let soundtrack = h.store + "/content/2000000000000001/soundtrack"
        #expect(
            out == """
                levels  progress 0.417  4000/9591 bytes
                levels  progress 0.8341  8000/9591 bytes
                levels  progress 1  9591/9591 bytes
                levels  finished: 9591 bytes in \(levels)
                soundtrack  progress 1  2096/2096 bytes
                soundtrack  finished: 2096 bytes in \(soundtrack)

                """)
        for n in 1...12 {
            let name = String(format: "level%02d.txt", n)
            #expect(h.fileBytes(levels + "/" + name) == h.fileBytes(CLIHarness.fixture("content/levelpack/levels/" + name)))
        }
        #expect(
            h.fileBytes(soundtrack + "/theme.wav") == h.fileBytes(CLIHarness.fixture("content/levelpack/soundtrack/theme.wav")))
        #expect(
            h.fileBytes(soundtrack + "/credits.txt")
                == h.fileBytes(CLIHarness.fixture("content/levelpack/soundtrack/credits.txt")))
        let names = h.eventNames()
        #expect(names.filter { $0 == "downloadUpdated" }.count == 4)
        #expect(names.suffix(2) == ["downloadUpdated", "downloadFinished"])
        let rows = h.run(["downloads", Self.tx, "--json"]).json?.arrayValue ?? []
        #expect(rows.map { $0["state"]?.stringValue } == ["finished", "finished"])
        #expect(
            rows.map { $0["contentPath"]?.stringValue } == [
                "content/2000000000000001/levels", "content/2000000000000001/soundtrack",
            ])
    }

    @Test("download run --json prints the final downloads; --steps stops early (exit 5) and a later run resumes")
    func stepsAndJSON() {
        let h = Self.withPack()
        h.ok(["download", "start", Self.tx, "--content", "levels"])
        let partial = h.run(["download", "run", Self.tx, "--chunk", "1000", "--steps", "3"])
        #expect(partial.code == 5)
        #expect(
            partial.stdout.hasSuffix("levels  progress 0.3127  3000/9591 bytes\nstopped after 3 steps; run again to continue\n"))
        let r = h.run(["download", "run", Self.tx, "--json"])
        #expect(r.code == 0)
        let rows = r.json?.arrayValue ?? []
        #expect(rows.map { $0["state"]?.stringValue } == ["finished", "waiting"])
        #expect(rows.first?["progress"]?.int64Value == 1)
        let levels = h.store + "/content/2000000000000001/levels"
        #expect(h.fileBytes(levels + "/level12.txt") == h.fileBytes(CLIHarness.fixture("content/levelpack/levels/level12.txt")))
    }

    @Test("on a terminal, download run draws a progress bar in place instead of lines")
    func progressBar() {
        let h = Self.withPack()
        h.ok(["download", "start", Self.tx, "--content", "soundtrack"])
        let out = BufferConsole(isTerminal: true)
        let err = BufferConsole()
        let code = IAPCLI.run(
            arguments: ["--store", h.store, "download", "run", Self.tx, "--chunk", "1048"], stdout: out, stderr: err)
        #expect(code == .success && err.text.isEmpty)
        let clear = "\r\u{1B}[K"
        #expect(
            out.text == clear + "soundtrack  [###############---------------]  50%  1048/2096 bytes"
                + clear + "soundtrack  [##############################] 100%  2096/2096 bytes\n"
                + "soundtrack  finished: 2096 bytes in \(h.store)/content/2000000000000001/soundtrack\n")
    }

    @Test("forbidden moves exit 4 and change nothing; unknown ids and contents exit 3; bad values exit 64")
    func refusals() {
        let h = Self.withPack()
        h.ok(["download", "start", Self.tx, "--content", "levels"])
        h.expectRefused(
            ["download", "start", Self.tx, "--content", "levels"], code: 4,
            "cannot start download 'levels' of transaction 2000000000000001: it is active; start moves a waiting download")
        h.expectRefused(
            ["download", "resume", Self.tx], code: 4,
            "cannot resume any download of transaction 2000000000000001: 'levels' is active, 'soundtrack' is waiting; resume moves paused downloads"
        )
        h.expectRefused(
            ["download", "run", Self.tx, "--content", "soundtrack"], code: 4,
            "download 'soundtrack' of transaction 2000000000000001 is waiting, not active; start it with 'iapctl download start 2000000000000001 --content soundtrack'"
        )
        h.expectRefused(
            ["download", "pause", Self.tx, "--content", "maps"], code: 3,
            "transaction 2000000000000001 has no download 'maps'; its downloads: levels, soundtrack")
        h.expectRefused(
            ["download", "cancel", "2000000000000007"], code: 3,
            "unknown transaction '2000000000000007' (see 'iapctl queue' or 'iapctl dump')")
        h.expectRefused(
            ["download", "start", "abc"], code: 64,
            "bad transaction id 'abc'; ids are decimal numbers such as 2000000000000001 (see 'iapctl help download start')")
        h.expectRefused(
            ["download", "run", Self.tx, "--chunk", "0"], code: 64, "'--chunk' expects an integer from 1 to 1073741824, got '0'")
        h.expectRefused(
            ["download", "run", Self.tx, "--content", ""], code: 64,
            "empty --content; give a content identifier such as levels (see 'iapctl downloads TXID') (see 'iapctl help download run')"
        )
        let bare = h.run(["download"])
        #expect(
            bare.code == 64
                && bare.stderr.hasPrefix(
                    "error: missing subcommand for 'download'; use one of: start, pause, resume, cancel, run")
        )
        h.ok(["finish", Self.tx])
        h.expectRefused(
            ["download", "start", Self.tx], code: 4,
            "transaction 2000000000000001 is finished; downloads exist only until their transaction is finished")
    }

    @Test("a download fault fails the run (exit 1) and leaves no partial copy; cancel removes a partial copy")
    func faultAndCancel() {
        let h = Self.withPack()
        h.ok(["fault", "add", "download", "cloudServiceNetworkConnectionFailed", "--product", "com.x.levelpack"])
        h.ok(["download", "start", Self.tx])
        let r = h.run(["download", "run", Self.tx, "--content", "levels"])
        #expect(r.code == 1)
        #expect(
            r.stdout == """
                fault #1 fired at download: SKErrorDomain 7 (cloudServiceNetworkConnectionFailed): The device could not connect to the network. (0 left)
                levels  failed: SKErrorDomain 7 (cloudServiceNetworkConnectionFailed): The device could not connect to the network.

                """)
        #expect(!FileManager.default.fileExists(atPath: h.store + "/content/2000000000000001/levels"))
        #expect(
            h.ok(["download", "run", Self.tx, "--steps", "1", "--chunk", "100"], code: 5).contains(
                "soundtrack  progress 0.0477  100/2096 bytes"))
        #expect(FileManager.default.fileExists(atPath: h.store + "/content/2000000000000001/soundtrack/credits.txt"))
        #expect(h.ok(["download", "cancel", Self.tx]) == "download soundtrack of 2000000000000001 cancelled\n")
        #expect(!FileManager.default.fileExists(atPath: h.store + "/content/2000000000000001/soundtrack"))
    }

    @Test("finishing cancels unfinished downloads with a warning (StoreKit)")
    func finishWarns() {
        let h = Self.withPack()
        let r = h.run(["finish", Self.tx])
        #expect(r.code == 0)
        #expect(r.stdout == "finished  2000000000000001  com.x.levelpack  (purchased)\n")
        #expect(
            r.stderr == """
                warning: finishing transaction 2000000000000001 cancelled downloads that had not ended: levels, soundtrack (StoreKit); run 'iapctl download run 2000000000000001' before finishing, or 'iapctl config set finish-after-downloads true' to wait for them

                """)
        #expect(h.eventNames().suffix(3) == ["downloadCancelled", "downloadCancelled", "transactionFinished"])
    }

    @Test("finish-after-downloads: finish waits (exit 5), and a cancelled download reports the transaction failed with 300")
    func finishAfterDownloads() {
        let h = Self.withPack()
        h.ok(["config", "set", "finish-after-downloads", "true"])
        let postponed = h.run(["finish", Self.tx])
        #expect(postponed.code == 5 && postponed.stderr.isEmpty)
        #expect(postponed.stdout == "finish of 2000000000000001 postponed until its downloads end (finish-after-downloads)\n")
        #expect(h.run(["queue", "--json"]).json?.arrayValue?.count == 1)
        h.ok(["download", "start", Self.tx])
        h.ok(["download", "run", Self.tx, "--content", "levels"])
        #expect(
            h.ok(["download", "cancel", Self.tx]) == """
                download soundtrack of 2000000000000001 cancelled
                finished  2000000000000001  com.x.levelpack  reported failed: net.robotmedia.store 300 (downloadCanceled): Download canceled

                """)
        #expect(h.ok(["queue"]) == "the queue is empty\n")
        #expect(h.run(["owned", "com.x.levelpack"]).code == 1)
        #expect(h.eventNames().suffix(2) == ["downloadCancelled", "transactionDeliveryFailed"])
    }

    @Test("finish-after-downloads: a finish after every download finished delivers it; one that failed exits 1")
    func finishAfterDownloadsEnded() {
        let h = Self.withPack()
        h.ok(["config", "set", "finish-after-downloads", "on"])
        h.ok(["download", "start", Self.tx])
        h.ok(["download", "run", Self.tx])
        #expect(h.ok(["finish", Self.tx]) == "finished  2000000000000001  com.x.levelpack  (purchased)\n")
        #expect(h.run(["owned", "com.x.levelpack"]).code == 0)
        h.ok(["buy", "com.x.levelpack"])
        h.ok(["download", "cancel", "2000000000000002", "--content", "levels"])
        h.ok(["download", "cancel", "2000000000000002"])
        let r = h.run(["finish", "2000000000000002"])
        #expect(r.code == 1)
        #expect(
            r.stdout
                == "finished  2000000000000002  com.x.levelpack  reported failed: net.robotmedia.store 300 (downloadCanceled): Download canceled\n"
        )
    }
}
