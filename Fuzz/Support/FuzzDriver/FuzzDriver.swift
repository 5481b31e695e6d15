import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hands a fuzz target to libFuzzer.
///
/// SwiftPM links every executable with `--defsym main=<module>_main`, so a fuzz executable has a
/// `main` of its own and cannot use the one in libFuzzer's runtime; instead its `main.swift` calls
/// ``run(_:)``, which starts libFuzzer's driver (`LLVMFuzzerRunDriver`) with the command line,
/// so every libFuzzer flag (`-max_total_time=30`, corpus directories, `-runs=0` on one file) works.
public enum FuzzDriver {
    nonisolated(unsafe) fileprivate static var target: (([UInt8]) -> Void)?

    /// Fuzzes `target` with the process's arguments and exits with libFuzzer's status.
    public static func run(_ target: @escaping ([UInt8]) -> Void) -> Never {
        FuzzDriver.target = target
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in LLVMFuzzerTestOneInput(data, size) })
    }
}

/// The function libFuzzer's runtime calls for each input. In a fuzz build the runtime is linked
/// into every executable of the package (`-Xswiftc` reaches them all), and it needs this symbol
/// even where it never runs; there, no target is set and it does nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = FuzzDriver.target else { return 0 }
    target(size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
