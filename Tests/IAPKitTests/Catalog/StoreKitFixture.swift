import Foundation

/// Files under `Fixtures/`, found by walking up from this source file to the package root, so
/// tests read the same fixtures from any working directory.
enum StoreKitFixture {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            let candidate = url.appendingPathComponent("Fixtures")
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: candidate.path)
            {
                return candidate
            }
            url.deleteLastPathComponent()
        }
        fatalError("no Fixtures directory above \(#filePath)")
    }()

    /// The bytes of `Fixtures/<relativePath>`.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(relativePath)))
    }
}
