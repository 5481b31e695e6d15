#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's environment and standard input, read with libc alone (the executable does not
/// link Foundation, whose start-up cost would exceed a whole `buy`).
public enum ProcessEnvironment {
    /// Every `NAME=value` of `environ`; a name given twice keeps its first value, as `getenv` does.
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }

    /// Everything left on `fd`, read until end of file (interrupted reads are retried; a read
    /// error ends the input where it happened).
    public static func readAll(fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}
