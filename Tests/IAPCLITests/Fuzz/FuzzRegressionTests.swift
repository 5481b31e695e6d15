import Foundation
import IAPCLI
import IAPKit
import Testing

/// Replays every fuzz seed (`Fixtures/fuzz/<target>/`) and every input a fuzzer once crashed on
/// (`Fixtures/fuzz/regressions/<target>/`) through the same entry points the fuzzers call, so a
/// fixed crash stays fixed in `make test` without a sanitizer build. An entry point traps when a
/// property fails, which fails the test run.
@Suite("Fuzz corpus and regressions")
struct FuzzRegressionTests {
    static let targets = FuzzEntryPoints.all.map(\.name)

    private static func files(in relative: String) -> [String] {
        let directory = CLIHarness.fixture(relative)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().map { directory + "/" + $0 }
    }

    @Test("seeds and regressions replay", arguments: targets)
    func replay(target: String) throws {
        let run = try #require(FuzzEntryPoints.all.first { $0.name == target }?.run)
        let seeds = Self.files(in: "fuzz/\(target)")
        #expect(!seeds.isEmpty, "no seeds in Fixtures/fuzz/\(target)")
        for file in seeds + Self.files(in: "fuzz/regressions/\(target)") {
            run([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
        }
    }

    @Test func everyCorpusAndFuzzExecutableHasAnEntryPoint() throws {
        let corpora = try FileManager.default.contentsOfDirectory(atPath: CLIHarness.fixture("fuzz")).filter {
            $0 != "regressions" && $0 != "dictionaries"
        }
        #expect(Set(corpora) == Set(Self.targets))
        let executables = try FileManager.default.contentsOfDirectory(atPath: CLIHarness.packageRoot + "/Fuzz/Targets")
        #expect(Set(executables) == Set(Self.targets))
        let manifest = try String(contentsOfFile: CLIHarness.packageRoot + "/Package.swift", encoding: .utf8)
        let declared = try #require(manifest.split(separator: "\n").first { $0.hasPrefix("let fuzzTargets = [") })
        for target in Self.targets {
            #expect(declared.contains("\"\(target)\""), "Package.swift's fuzzTargets lacks \(target)")
        }
        let dictionaries = try FileManager.default.contentsOfDirectory(atPath: CLIHarness.fixture("fuzz/dictionaries"))
        #expect(Set(dictionaries.map { String($0.dropLast(".dict".count)) }).isSubset(of: Set(Self.targets)), "\(dictionaries)")
        let regressions = (try? FileManager.default.contentsOfDirectory(atPath: CLIHarness.fixture("fuzz/regressions"))) ?? []
        #expect(Set(regressions).isSubset(of: Set(Self.targets)), "\(regressions)")
    }
}
