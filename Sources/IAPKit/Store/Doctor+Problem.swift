extension Doctor {
    /// What a finding about `file` says for `error`. A damaged file's error reads
    /// `PATH: PROBLEM (run 'iapctl doctor' ...)` for every other command; in doctor's report the
    /// finding already names the file, and doctor is the command that advice points to, so only
    /// the problem is kept (with its own path when it is about another file).
    static func problem(_ error: any Error, file: String) -> String {
        guard let error = error as? StoreError, case .damaged(let path, let problem) = error else { return "\(error)" }
        return path == file ? problem : "\(path): \(problem)"
    }
}
