#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Binding a catalog to a store: reading the catalog file the user names, keeping a checksummed
/// copy in the store, and copying its hosted content in, so a store stays usable when the
/// original files move.
enum StoreCatalog {
    struct Source {
        /// The file name the user gave, or "built-in".
        let name: String
        let bytes: [UInt8]
        /// The folder of the original catalog file, for its hosted content; nil once in a store.
        let contentRoot: String?

        var isBuiltin: Bool { name == BuiltinCatalog.name }

        /// The built-in catalog (nil path) or the named file; exit 66 when it cannot be read.
        static func read(_ path: String?) throws(StoreError) -> Source {
            guard let path else { return Source(name: BuiltinCatalog.name, bytes: BuiltinCatalog.bytes, contentRoot: nil) }
            guard let file = try PosixFile.openForReading(path) else {
                throw .unreadable(path: path, reason: "no such file (give a catalog .json or .storekit file)")
            }
            guard !PosixFile.isDirectory(path) else {
                throw .unreadable(path: path, reason: "is a directory, not a catalog file")
            }
            return Source(name: path, bytes: try file.readAll(), contentRoot: PosixFile.parentDirectory(of: path))
        }

        func parse(file: String? = nil) throws(StoreError) -> Catalog {
            do {
                return try CatalogFormats.read(bytes, file: file ?? name)
            } catch {
                throw .badCatalog(error)
            }
        }
    }

    /// Fills in each hosted content's size from where the store reads it.
    static func measure(_ catalog: Catalog, source: Source, contentPath: String) -> Catalog {
        catalog.measuringContent { content in
            if source.isBuiltin { return BuiltinCatalog.contentLength(under: content.path) }
            // Sizes from the file system: a command never reads content it does not copy.
            let root = (source.contentRoot ?? contentPath) + "/" + content.path
            return listFiles(root).reduce(Int64(0)) { total, relative in
                var st = stat()
                let full = relative.isEmpty ? root : root + "/" + relative
                return total + (stat(full, &st) == 0 ? Int64(st.st_size) : 0)
            }
        }
    }

    /// The files of one hosted content, relative to its folder, sorted by path.
    static func files(of content: HostedContent, source: Source, contentPath: String) -> [(path: String, bytes: [UInt8])] {
        if source.isBuiltin { return BuiltinCatalog.files(under: content.path) }
        let root = (source.contentRoot ?? contentPath) + "/" + content.path
        return listFiles(root).compactMap { relative in
            let full = relative.isEmpty ? root : root + "/" + relative
            guard let f = try? PosixFile.openForReading(full), let bytes = try? f.readAll() else { return nil }
            return (relative.isEmpty ? lastComponent(content.path) : relative, bytes)
        }
    }

    /// Copies every hosted content of `catalog` from beside the catalog file into the store.
    static func copyContent(of catalog: Catalog, from source: Source, into contentPath: String) throws(StoreError) {
        for product in catalog.products {
            for content in product.hostedContent {
                let root = (source.contentRoot ?? ".") + "/" + content.path
                let files = listFiles(root)
                guard !files.isEmpty else {
                    throw .badCatalog(
                        CatalogError(
                            file: source.name, product: product.id.rawValue, keyPath: "hostedContent",
                            problem: "content path '\(content.path)' has no files next to the catalog"))
                }
                for relative in files {
                    let from = relative.isEmpty ? root : root + "/" + relative
                    let to = contentPath + "/" + content.path + (relative.isEmpty ? "" : "/" + relative)
                    guard let input = try PosixFile.openForReading(from) else {
                        throw .unreadable(path: from, reason: "vanished while copying")
                    }
                    try PosixFile.makeDirectory(PosixFile.parentDirectory(of: to))
                    let output = try PosixFile.openForWriting(to, truncate: true)
                    try output.write(try input.readAll(), at: 0)
                    try output.sync()
                }
            }
        }
    }

    /// Regular files under `root` (relative paths, sorted); `[""]` when `root` is itself a file.
    static func listFiles(_ root: String) -> [String] {
        if PosixFile.exists(root) && !PosixFile.isDirectory(root) { return [""] }
        var result: [String] = []
        func walk(_ relative: String) {
            let dirPath = relative.isEmpty ? root : root + "/" + relative
            guard let dir = opendir(dirPath) else { return }
            defer { closedir(dir) }
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) { ptr in
                    ptr.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name != "." && name != ".." { names.append(name) }
            }
            for name in names.sorted() {
                let child = relative.isEmpty ? name : relative + "/" + name
                if PosixFile.isDirectory(root + "/" + child) { walk(child) } else { result.append(child) }
            }
        }
        walk("")
        return result
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
