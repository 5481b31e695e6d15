import IAPKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a scenario file, and the scratch store a scenario runs against by default.
package enum ScenarioSource {
    /// The bytes of the file at `path`.
    ///
    /// - Throws: ``StoreError/unreadable(path:reason:)`` (exit 66) when it is missing, a
    ///   directory, or unreadable.
    package static func read(_ path: String) throws(StoreError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: reason()) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: reason())
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// The directory part of `path` (`.` for a bare file name), for `$SCENARIO_DIR`.
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Makes a new private directory under `$TMPDIR` (else `/tmp`) for a scenario's store.
    ///
    /// - Throws: ``StoreError/io(path:reason:)`` (exit 74) when it cannot be made.
    package static func makeScratchDirectory(environment: [String: String]) throws(StoreError) -> String {
        var base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array("\(base)/iapctl-run-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw .io(path: base, reason: reason()) }
        return String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes a scratch directory and everything in it (a store is one level of files, plus
    /// hosted content a few levels deep).
    package static func remove(_ path: String) {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = path + "/" + name
                var info = stat()
                if lstat(child, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                    remove(child)
                } else {
                    unlink(child)
                }
            }
            closedir(dir)
        }
        rmdir(path)
    }

    /// Why the file cannot be read, and what to give instead.
    private static func reason() -> String {
        switch errno {
        case ENOENT: return "no such file (give a scenario file, or - for standard input)"
        case EISDIR: return "is a directory, not a scenario file"
        case EACCES: return "permission denied (give a scenario file you can read)"
        default: return String(cString: strerror(errno)).lowercased()
        }
    }
}
