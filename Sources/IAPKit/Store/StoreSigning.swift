import IAPCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's receipt signing chain: `<store>/signing` when `init --signing-dir` brought one,
/// else the built-in TEST ONLY chain.
///
/// The copy is a checksummed file (like the catalog copy) and the state records its SHA-256, so a
/// damaged, swapped or deleted file is refused (exit 65) instead of silently signing with
/// another key.
enum StoreSigning {
    static let kind = "signing"

    /// Writes the user's chain into a store being created (or removes a stale copy for the
    /// built-in one); returns the SHA-256 the state keeps.
    static func install(_ identity: SigningIdentity?, in store: Store) throws(StoreError) -> String? {
        guard let identity else {
            unlink(store.signingPath)
            return nil
        }
        let body = identity.storeFileBody
        try PosixFile.replaceAtomically(
            store.signingPath, with: ChecksummedFile.encode(kind: kind, version: 1, body: body), directory: store.path)
        return SHA256.hexDigest(body)
    }

    /// The chain the state names: the built-in one, or the checked copy in the store.
    static func load(storePath: String, sha256: String?) throws(StoreError) -> SigningIdentity {
        guard let sha256 else { return .builtin }
        let path = storePath + "/signing"
        guard let file = try PosixFile.openForReading(path) else {
            throw .damaged(path: path, problem: "missing; the store was created with its own signing chain (init --signing-dir)")
        }
        let body = try ChecksummedFile.decode(try file.readAll(), kind: kind, maximumVersion: 1, path: path)
        guard SHA256.hexDigest(body) == sha256 else {
            throw .damaged(path: path, problem: "is not the signing chain this store was created with")
        }
        return try SigningIdentity.decodeStoreFile(body, path: path)
    }
}

extension StoreSession {
    /// The chain and key that sign this store's receipts (loaded from the store on each call).
    public func signingIdentity() throws(StoreError) -> SigningIdentity {
        try StoreSigning.load(storePath: storePath, sha256: state.signingSHA256)
    }
}

extension StoreSigning {
    /// `doctor`: whether the signing chain the state names is there and intact.
    static func check(_ store: Store, sha256: String?, into report: inout Doctor.Report) {
        guard sha256 != nil else { return }
        do {
            let identity = try load(storePath: store.path, sha256: sha256)
            report.ok(store.signingPath, "signing chain is intact (leaf '\(identity.leaf.subject.commonName ?? "?")')")
        } catch {
            report.bad(store.signingPath, Doctor.problem(error, file: store.signingPath))
        }
    }

    /// `doctor --salvage`: copies an intact signing chain into the new store; a damaged one is
    /// dropped (the new store signs with the built-in test chain) with a note.
    static func salvage(from store: Store, into destination: Store, sha256: String?, notes: inout [String]) throws(StoreError)
        -> String?
    {
        guard sha256 != nil else { return nil }
        guard let identity = try? load(storePath: store.path, sha256: sha256) else {
            notes.append("signing chain unusable: the new store signs receipts with the built-in test chain")
            return nil
        }
        return try install(identity, in: destination)
    }
}
