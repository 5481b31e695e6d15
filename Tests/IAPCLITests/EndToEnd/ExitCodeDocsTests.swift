import Foundation
import IAPKit
import Testing

/// Every exit code iapctl can return is documented, and nothing else is: the README's table, the
/// table in docs/output.md, and the list in `iapctl help` name exactly ``ExitCode/allCases``.
@Suite("Exit codes as documented")
struct ExitCodeDocsTests {
    static let codes = ExitCode.allCases.map(\.rawValue)

    /// The codes in the first markdown table after the heading `## Exit codes` of `file`.
    static func table(in file: String) throws -> [Int32] {
        let text = try String(contentsOfFile: CLIHarness.packageRoot + "/" + file, encoding: .utf8)
        let section = try #require(text.range(of: "## Exit codes\n")).upperBound
        var codes: [Int32] = []
        var inTable = false
        for line in text[section...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("|") {
                inTable = true
                let cell = line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? ""
                if let code = Int32(cell) { codes.append(code) }
            } else if inTable {
                break
            }
        }
        return codes
    }

    @Test("README.md and docs/output.md list every exit code", arguments: ["README.md", "docs/output.md"])
    func tables(file: String) throws {
        #expect(try Self.table(in: file) == Self.codes)
    }

    @Test("iapctl help lists every exit code")
    func rootHelp() throws {
        let help = CLIHarness().run(["help"], useStore: false)
        #expect(help.code == 0)
        let flat = help.stdout.replacing("\n", with: " ")
        let sentence = try #require(flat.range(of: "Exit codes: ").map { flat[$0.upperBound...] }?.prefix { $0 != "." })
        let listed = sentence.split(separator: ",").compactMap { Int32($0.split(separator: " ").first ?? "") }
        #expect(listed == Self.codes, "\(sentence)")
    }
}
