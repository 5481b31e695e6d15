/// Why a path cannot be a store (issue 10: a store path is never adopted or created by accident).
public enum StorePathProblem: Equatable, Sendable {
    /// `--store ''` (or an empty `$IAPCTL_STORE` given explicitly).
    case empty
    /// A regular file (or another non-directory) where the store directory is expected.
    case notADirectory(String)
    /// An existing directory that holds other files and no store: never adopted.
    case notAStore(String, entry: String)
    /// A store file that is a symbolic link (or not a regular file): a store never follows links
    /// inside itself, so a dangling `state` link is not replaced by a fresh store.
    case notARegularFile(String)

    public var exitCode: ExitCode {
        switch self {
        case .empty, .notADirectory, .notAStore: return .usage
        case .notARegularFile: return .badData
        }
    }

    public var description: String {
        switch self {
        case .empty:
            return "empty store path; give a directory with --store DIR (the default is ./.iapctl)"
        case .notADirectory(let path):
            return "store path '\(path)' is a file, not a directory; give a directory with --store DIR"
        case .notAStore(let path, let entry):
            return
                "'\(path)' is not an iapctl store: it holds other files (such as '\(entry)') and no store; pick a new or empty directory with --store DIR"
        case .notARegularFile(let path):
            return
                "'\(path)' is not a regular file (a symbolic link?); an iapctl store holds only its own files (replace the link with the file, or salvage with 'iapctl doctor --salvage DIR')"
        }
    }
}
