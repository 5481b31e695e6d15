import Foundation

/// SplitMix64: a tiny deterministic generator. Tests that kill or race processes draw their
/// random points from it and print the seed, so a failure can be replayed with
/// `IAPCTL_TEST_SEED=<seed> swift test --filter ...`.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    let seed: UInt64

    init(_ seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The seed from `IAPCTL_TEST_SEED`, else a fixed default, printed either way.
    static func fromEnvironment(default value: UInt64, test: String) -> SeededRandom {
        let seed = ProcessInfo.processInfo.environment["IAPCTL_TEST_SEED"].flatMap(UInt64.init) ?? value
        print("\(test): IAPCTL_TEST_SEED=\(seed)")
        return SeededRandom(seed)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
