import Foundation
import Testing

/// Issue 10, store paths: a reading command never creates or changes a file; a directory of
/// other files, a regular file, an empty path and a link inside a store are refused with their
/// codes, creating nothing; a store a user can read but not write can be inspected; a store
/// directory iapctl creates or adopts is 0700. Each row runs the real binary in a fresh
/// directory and compares every file under it before and after.
@Suite("Store paths, end to end")
struct StorePathTests {
    /// What the directory holds before a row runs.
    enum Setup: String, Sendable {
        /// Nothing: the store path does not exist, nor do its parents.
        case nothing
        /// `proj/` with a `Package.swift` in it.
        case projectDirectory
        /// `afile`, a regular file.
        case regularFile
        /// A store `s/` whose `state` is a dangling symbolic link.
        case danglingState
        /// An empty directory `empty/`, mode 0755.
        case emptyDirectory
    }

    struct Row: CustomStringConvertible, Sendable {
        let setup: Setup
        let arguments: [String]
        let code: Int32
        /// The whole stderr line, or (with `...` at the end) its beginning.
        let stderr: String
        /// Whether the run may create files (only writers on a path that can be a store).
        var creates = false
        var description: String { "\(setup.rawValue): " + arguments.joined(separator: " ") }
    }

    static let missingNote =
        "warning: no store at nodir/sub/deep: showing the empty store it would be, on catalog built-in (create it with 'iapctl init' or any command that writes)"
    static let notAStore =
        "error: 'proj' is not an iapctl store: it holds other files (such as 'Package.swift') and no store; pick a new or empty directory with --store DIR"
    static let notADirectory = "error: store path 'afile' is a file, not a directory; give a directory with --store DIR"
    static let empty = "error: empty store path; give a directory with --store DIR (the default is ./.iapctl)"
    static let link =
        "error: 's/state' is not a regular file (a symbolic link?); an iapctl store holds only its own files (replace the link with the file, or salvage with 'iapctl doctor --salvage DIR')"

    static let rows: [Row] = [
        Row(setup: .nothing, arguments: ["--store", "nodir/sub/deep", "queue"], code: 0, stderr: missingNote),
        Row(setup: .nothing, arguments: ["--store", "nodir/sub/deep", "dump"], code: 0, stderr: missingNote),
        Row(setup: .nothing, arguments: ["--store", "nodir/sub/deep", "events"], code: 0, stderr: missingNote),
        Row(setup: .nothing, arguments: ["--store", "nodir/sub/deep", "subscriptions"], code: 0, stderr: missingNote),
        Row(setup: .nothing, arguments: ["--store", "nodir/sub/deep", "ledger"], code: 0, stderr: missingNote),
        Row(
            setup: .nothing, arguments: ["--store", "nodir/sub/deep", "config", "get", "storefront"], code: 0, stderr: missingNote
        ),
        Row(setup: .projectDirectory, arguments: ["--store", "proj", "queue"], code: 64, stderr: notAStore),
        Row(setup: .projectDirectory, arguments: ["--store", "proj", "buy", "com.x.coin42"], code: 64, stderr: notAStore),
        Row(setup: .projectDirectory, arguments: ["--store", "proj", "init"], code: 64, stderr: notAStore),
        Row(setup: .projectDirectory, arguments: ["--store", "proj", "init", "--force"], code: 64, stderr: notAStore),
        Row(setup: .projectDirectory, arguments: ["--store", "proj", "doctor"], code: 64, stderr: notAStore),
        Row(setup: .regularFile, arguments: ["--store", "afile", "queue"], code: 64, stderr: notADirectory),
        Row(setup: .regularFile, arguments: ["--store", "afile", "buy", "com.x.coin42"], code: 64, stderr: notADirectory),
        Row(setup: .regularFile, arguments: ["--store", "afile", "doctor"], code: 64, stderr: notADirectory),
        Row(setup: .nothing, arguments: ["--store", "", "queue"], code: 64, stderr: empty),
        Row(setup: .nothing, arguments: ["--store", "", "buy", "com.x.coin42"], code: 64, stderr: empty),
        Row(setup: .danglingState, arguments: ["--store", "s", "queue"], code: 65, stderr: link),
        Row(setup: .danglingState, arguments: ["--store", "s", "buy", "com.x.coin42"], code: 65, stderr: link),
        Row(setup: .danglingState, arguments: ["--store", "s", "init", "--force"], code: 65, stderr: link),
        Row(setup: .danglingState, arguments: ["--store", "s", "doctor"], code: 65, stderr: link),
    ]

    /// Every path under `root` with its kind, size and mode: what "nothing changed" compares.
    static func listing(_ root: String) -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: root) else { return [] }
        while let relative = walker.nextObject() as? String {
            var st = stat()
            lstat(root + "/" + relative, &st)
            out.append("\(relative) \(st.st_mode) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)")
        }
        return out.sorted()
    }

    static func prepare(_ setup: Setup, in h: CLIHarness) throws {
        let fm = FileManager.default
        switch setup {
        case .nothing: break
        case .projectDirectory:
            try fm.createDirectory(atPath: h.directory + "/proj", withIntermediateDirectories: false)
            _ = fm.createFile(atPath: h.directory + "/proj/Package.swift", contents: Data("// swift-tools-version:6.0\n".utf8))
        case .regularFile:
            _ = fm.createFile(atPath: h.directory + "/afile", contents: Data("not a store\n".utf8))
        case .danglingState:
            let made = h.run(["--store", "s", "buy", "com.x.coin42"], useStore: false)
            try #require(made.code == 0, "\(made)")
            try fm.removeItem(atPath: h.directory + "/s/state")
            try fm.createSymbolicLink(atPath: h.directory + "/s/state", withDestinationPath: "/nonexistent/state")
        case .emptyDirectory:
            try fm.createDirectory(
                atPath: h.directory + "/empty", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        }
    }

    @Test("refused or answered without creating anything", arguments: rows)
    func row(_ row: Row) throws {
        let h = CLIHarness()
        try Self.prepare(row.setup, in: h)
        let before = Self.listing(h.directory)
        let result = h.run(row.arguments, useStore: false)
        #expect(result.code == row.code, "\(row): \(result)")
        let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine == row.stderr, "\(row): \(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result)")
        #expect(Self.listing(h.directory) == before, "\(row) changed files")
    }

    @Test("a store is created by the first command that writes, and adopting an empty directory makes it 0700")
    func creation() throws {
        let h = CLIHarness()
        try Self.prepare(.emptyDirectory, in: h)
        #expect(h.run(["--store", "empty", "queue"], useStore: false).code == 0)
        #expect(!FileManager.default.fileExists(atPath: h.directory + "/empty/state"), "a read created the store")
        #expect(h.run(["--store", "empty", "buy", "com.x.coin42"], useStore: false).code == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: h.directory + "/empty")[.posixPermissions] as? Int
        #expect(mode == 0o700)
        // A new store path with missing parents is made by a writer, 0700.
        #expect(h.run(["--store", "a/b/c", "buy", "com.x.coin42"], useStore: false).code == 0)
        let made = try FileManager.default.attributesOfItem(atPath: h.directory + "/a/b/c")[.posixPermissions] as? Int
        #expect(made == 0o700)
        #expect(h.run(["--store", "a/b/c", "queue"], useStore: false).stdout.contains("2000000000000001"))
    }

    @Test("inspection commands work on a store the user can read but not write")
    func readOnlyStore() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            // Only root can run a command as another user; without it this cannot be shown.
            print("skipped: needs root and setpriv (util-linux) to run iapctl as nobody")
            return
        }
        let h = CLIHarness()
        try #require(h.run(["buy", "com.x.vip2"]).code == 0)
        try #require(h.run(["buy", "com.x.coin42"]).code == 0)
        // Readable by everyone, writable by its owner only; nobody is not the owner.
        chmod(h.directory, 0o755)
        chmod(h.store, 0o755)
        for file in try FileManager.default.contentsOfDirectory(atPath: h.store) { chmod(h.store + "/" + file, 0o644) }
        let before = Self.listing(h.store)
        for command in [
            ["queue"], ["dump"], ["events"], ["show", "2000000000000001"], ["subscriptions"], ["receipt"], ["doctor"],
        ] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CLIHarness.binary, "--store", h.store] + command
            let out = Pipe()
            let err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(command): \(stderr)")
            #expect(stderr.isEmpty, "\(command): \(stderr)")
            #expect(!stdout.isEmpty, "\(command)")
        }
        #expect(Self.listing(h.store) == before)
    }
}
